import { describe, it, expect } from 'vitest';
import { createMacroService, type MacroDefinition } from '../../main/services/macros/index.js';

const MACROS: MacroDefinition[] = [
  { id: 'nce', examples: ['normal chest exam'], expansion_text: 'CHEST: Clear to auscultation bilaterally.' },
  { id: 'fuprn', examples: ['follow up as needed'], expansion_text: 'Follow up as needed.' },
  { id: 'rrr', examples: ['regular rate and rhythm'], expansion_text: 'HEART: RRR, no murmurs.' },
  { id: 'nad', examples: ['no acute distress'], expansion_text: 'GENERAL: NAD.' },
  { id: 'fu2w', examples: ['follow up in two weeks'], expansion_text: 'RTC 2 weeks.' },
  { id: 'oedema', examples: ['no peripheral oedema'], expansion_text: 'EXT: no edema.' },
  { id: 'pna', examples: ['pneumonia work up'], expansion_text: 'CXR, CBC, blood cultures.' },
  { id: 'perrla', examples: ['PERRLA'], expansion_text: 'Pupils equal, round, reactive.' },
];

const service = createMacroService();
const detect = (text: string, minConfidence?: number) =>
  service.detect({ text, macros: MACROS, ...(minConfidence === undefined ? {} : { min_confidence: minConfidence }) });
const ids = (text: string): string[] => detect(text).detections.map((d) => d.macro_id);

describe('macro detection tolerates real dictation', () => {
  it.each([
    ['verbatim', 'Exam today: normal chest exam.', 'normal chest exam'],
    ['upper case', 'NORMAL CHEST EXAM', 'NORMAL CHEST EXAM'],
    ['title case inside a sentence', 'He has a Normal Chest Exam today', 'Normal Chest Exam'],
    ['punctuation between words', 'normal, chest-exam!', 'normal, chest-exam'],
    ['hyphenation', 'Plan: follow-up as needed.', 'follow-up as needed'],
    ['written as one word', 'Plan: followup as needed.', 'followup as needed'],
    ['British spelling of an American example', 'Legs: no peripheral edema.', 'no peripheral edema'],
    ['misspelling', 'nromal chest exam', 'nromal chest exam'],
    ['two misspellings', 'regluar rate and rhytm', 'regluar rate and rhytm'],
    ['sound-alike word', 'normal chess exam', 'normal chess exam'],
    ['sound-alike split word', 'new monia work up', 'new monia work up'],
    ['filler inside', 'normal uh chest exam', 'normal uh chest exam'],
    ['two fillers with punctuation', 'no, um, er acute distress', 'no, um, er acute distress'],
    ['a repeated word', 'normal chest chest exam', 'normal chest chest exam'],
    ['number as digits', 'follow up in 2 weeks', 'follow up in 2 weeks'],
    ['number as a homophone', 'follow up in to weeks', 'follow up in to weeks'],
    ['ellipsis pause', 'normal... chest exam', 'normal... chest exam'],
  ])('%s', (_name, text, span) => {
    const result = detect(text);
    expect(result.detections).toHaveLength(1);
    expect(result.detections[0].text_span.text).toBe(span);
  });

  it('absorbs a spoken trigger before the phrase so the expansion replaces it too', () => {
    for (const [text, span] of [
      ['insert normal chest exam', 'insert normal chest exam'],
      ['Dot phrase: follow up as needed.', 'Dot phrase: follow up as needed'],
      ['then macro uh no acute distress', 'macro uh no acute distress'],
      ['normal chest exam template next', 'normal chest exam template'],
    ]) {
      const result = detect(text);
      expect(result.detections.map((d) => d.text_span.text)).toEqual([span]);
    }
    expect(detect('Please insert normal chest exam.').expanded_text).toBe('Please CHEST: Clear to auscultation bilaterally.');
  });

  it('finds several macros and repeated macros in one text', () => {
    const text = 'Normal chest exam. Regular rate and rhythm. Follow up as needed. normal chest exam again';
    expect(ids(text)).toEqual(['nce', 'rrr', 'fuprn', 'nce']);
  });
});

describe('macro detection does not fire on ordinary sentences', () => {
  it.each([
    'her chest feels normal today',
    'follow the diet plan as needed by her nutritionist',
    'The chest exam was normal.',
    'normal chest x-ray exam',
    'normal chest',
    'abnormal chest exam',
    'irregular rate and rhythm',
    'new acute distress over the diagnosis',
    'not in acute distress',
    'follow up in three weeks',
    'follow up in 4 weeks',
    'The abdomen was normal.\nChest exam deferred.',
    'no peripheral pulses',
    'PERRLA is an acronym'.replace('PERRLA', 'PERLA ok'),
  ])('%s', (text) => {
    expect(detect(text).detections).toEqual([]);
  });

  it('keeps a single-word macro exact unless a trigger asks for it', () => {
    expect(ids('pupils PERRAL today')).toEqual([]);
    expect(ids('insert PERRAL today')).toEqual(['perrla']);
    expect(ids('PERRLA')).toEqual(['perrla']);
  });
});

describe('confidence', () => {
  const confidence = (text: string): number => detect(text, 0).detections[0]?.confidence ?? 0;

  it('is 1 for a verbatim match and lower as the dictation gets noisier', () => {
    const verbatim = confidence('normal chest exam');
    const cased = confidence('Normal Chest Exam');
    const punctuated = confidence('normal, chest-exam');
    const filler = confidence('normal uh chest exam');
    const misspelt = confidence('nromal chest exam');
    const twoErrors = confidence('nromal chset exam');
    expect(verbatim).toBe(1);
    expect(cased).toBeLessThan(verbatim);
    expect(punctuated).toBeLessThan(cased);
    expect(filler).toBeLessThan(punctuated);
    expect(misspelt).toBeLessThan(punctuated);
    expect(twoErrors).toBeLessThan(misspelt);
    for (const c of [verbatim, cased, punctuated, filler, misspelt, twoErrors]) {
      expect(c).toBeGreaterThanOrEqual(0);
      expect(c).toBeLessThanOrEqual(1);
    }
  });

  it('drops detections below min_confidence', () => {
    const noisy = 'nromal chset exam';
    const c = confidence(noisy);
    expect(c).toBeGreaterThan(0.6);
    expect(detect(noisy, c).detections).toHaveLength(1);
    expect(detect(noisy, Math.min(1, c + 0.01)).detections).toHaveLength(0);
    expect(detect('normal chest exam', 1).detections).toHaveLength(1);
  });

  it('marks a phrase running across a sentence end as doubtful', () => {
    expect(confidence('The abdomen was normal. Chest exam deferred.')).toBeLessThan(0.6);
    expect(confidence('normal chest exam')).toBeGreaterThan(0.9);
  });
});

describe('punctuation where an expansion meets the dictated text', () => {
  const withMacros = (macros: MacroDefinition[], text: string): string => service.detect({ text, macros }).expanded_text;
  const ends = (mark: string): MacroDefinition[] => [{ id: 'nce', examples: ['normal chest exam'], expansion_text: `CHEST: clear${mark}` }];

  it.each([
    // [what happens, the expansion's final mark, what was dictated, the expanded text]
    ['one period, not two', '.', 'Normal chest exam. Abdomen soft.', 'CHEST: clear. Abdomen soft.'],
    ['one question mark', '?', 'normal chest exam?', 'CHEST: clear?'],
    ['one exclamation mark', '!', 'normal chest exam!', 'CHEST: clear!'],
    ['one comma', ',', 'normal chest exam, abdomen soft', 'CHEST: clear, abdomen soft'],
    ['a period over a comma', ',', 'normal chest exam. Abdomen soft', 'CHEST: clear. Abdomen soft'],
    ['a period over a dictated comma', '.', 'normal chest exam, abdomen soft', 'CHEST: clear. abdomen soft'],
    ['a dictated question mark over a period', '.', 'normal chest exam?', 'CHEST: clear?'],
    ['a question mark over a dictated period', '?', 'normal chest exam.', 'CHEST: clear?'],
    ['an expansion without a final mark keeps the dictated one', '', 'normal chest exam.', 'CHEST: clear.'],
    ['an expansion without a final mark keeps a dictated comma', '', 'normal chest exam, abdomen soft', 'CHEST: clear, abdomen soft'],
    ['text without a mark is unchanged', '.', 'normal chest exam and abdomen soft', 'CHEST: clear. and abdomen soft'],
    ['a colon is not merged', ':', 'normal chest exam.', 'CHEST: clear:.'],
    ['a decimal point is not a mark', '.', 'normal chest exam .5 cm nodule', 'CHEST: clear. .5 cm nodule'],
    ['an ellipsis is not merged', '.', 'normal chest exam...', 'CHEST: clear....'],
  ])('%s', (_what, mark, text, expanded) => {
    expect(withMacros(ends(mark), text)).toBe(expanded);
  });

  it('joins each of several expansions on its own, and keeps the spans of the spoken words', () => {
    const result = detect('Normal chest exam. Regular rate and rhythm. Follow up as needed.');
    expect(result.expanded_text).toBe('CHEST: Clear to auscultation bilaterally. HEART: RRR, no murmurs. Follow up as needed.');
    expect(result.detections.map((d) => d.text_span.text)).toEqual(['Normal chest exam', 'Regular rate and rhythm', 'Follow up as needed']);
  });
});
