import { describe, expect, it } from 'vitest';
import { assertFinding } from '../../main/services/encounter/assertion.js';
import { assertInNote, understandNote } from '../../main/services/encounter/note-facts.js';
import { understandEncounter } from '../../main/services/encounter/understand.js';
import { createIcdCoder } from '../../main/services/coding/icd-coder.js';
import { loadCodeTable } from '../../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../../main/engines/coding/lexicon-file.js';

/**
 * One reading of what a text asserts of a finding (issue 25 point 2): the coder, a conversation's
 * problems and the language-model gate ask encounter/assertion.ts; none keeps negation or
 * uncertainty rules of its own. Sentences written for these tests in the register of clinic notes.
 */

/** The assertion of the first occurrence of `finding` in `sentence`. */
const of = (sentence: string, finding: string, hints = {}) => {
  const at = sentence.indexOf(finding);
  if (at < 0) throw new Error(`no "${finding}" in the sentence`);
  return assertFinding(sentence, at, at + finding.length, hints);
};

describe('what a sentence asserts of a finding', () => {
  it('reads present, denied and ruled out', () => {
    expect(of('Left knee pain after a fall.', 'knee pain')).toEqual({ status: 'present', subject: 'patient', laterality: 'left' });
    expect(of('She denies chest pain.', 'chest pain').status).toBe('denied');
    expect(of('Fracture was ruled out on x-ray.', 'Fracture').status).toBe('ruled-out');
  });

  it("reads a physician's doubt, a test ordered to look for a disease and a feared disease as uncertain", () => {
    expect(of('I doubt this is pneumonia.', 'pneumonia').status).toBe('uncertain');
    expect(of('Low suspicion for pulmonary embolism.', 'pulmonary embolism').status).toBe('uncertain');
    expect(of('We will check a TSH for hypothyroidism.', 'hypothyroidism').status).toBe('uncertain');
    expect(of('She is worried about getting shingles.', 'shingles').status).toBe('uncertain');
    expect(of('Pneumonia is less likely.', 'Pneumonia').status).toBe('uncertain');
    expect(of('We discussed the risks of infection and bleeding.', 'infection').status).toBe('uncertain');
  });

  it('keeps a monitored known condition present ("for her hypothyroidism")', () => {
    expect(of('We will check a TSH for her hypothyroidism.', 'hypothyroidism').status).toBe('present');
  });

  it('reads a written impression of belief as uncertain but a spoken "I think this is" as the diagnosis', () => {
    const sentence = 'I believe this is an ankle sprain.';
    expect(of(sentence, 'ankle sprain').status).toBe('uncertain');
    expect(of(sentence, 'ankle sprain', { spoken: true }).status).toBe('present');
  });

  it('reads the past and a relative', () => {
    expect(of('He used to be on insulin.', 'insulin').status).toBe('historical');
    expect(of('History of myocardial infarction.', 'myocardial infarction').status).toBe('historical');
    expect(of('Mother had breast cancer.', 'breast cancer').subject).toBe('family');
    // A therapy the patient is on is current whatever scope it sits in.
    expect(of('History of MI, on aspirin.', 'aspirin', { therapy: true }).status).toBe('present');
  });

  it('takes the section of a written note into account', () => {
    const note = understandNote('FAMILY HISTORY\nColon cancer.\n\nPAST MEDICAL HISTORY\nAsthma.\n');
    const [family, history] = note.document.sentences;
    expect(assertInNote(family!, family!.start, family!.start + 12).subject).toBe('family');
    expect(assertInNote(history!, history!.start, history!.start + 6).status).toBe('historical');
  });
});

describe('the problems of a written note and of a conversation', () => {
  it('holds a diagnosis whose lines order tests to confirm it as probable, and takes the side from the lines', () => {
    const note = understandNote('ASSESSMENT AND PLAN\n1. Rheumatoid arthritis.\n- Additional Testing: We will order labs to confirm the diagnosis.\n2. Knee pain.\n- Medical Treatment: X-ray of the right knee.\n');
    expect(note.problems.map((p) => [p.name, p.certainty, p.laterality ?? '-'])).toEqual([
      ['rheumatoid arthritis', 'probable', '-'],
      ['knee pain', 'confirmed', 'right'],
    ]);
    expect(note.problems[1]!.sideFromLines).toBe(true);
  });

  it('holds a spoken diagnosis whose tests are ordered to confirm it as probable', () => {
    const facts = understandEncounter({
      transcript: [
        "[doctor] hi , what brings you in today ?",
        '[patient] my hands have been stiff and swollen every morning for about three months .',
        '[doctor] any fever ?',
        '[patient] no .',
        "[doctor] okay , let's talk about my assessment and plan .",
        "[doctor] for your first problem , your rheumatoid arthritis , i'm going to order some labs to confirm the diagnosis .",
        '[patient] okay .',
      ].join('\n'),
    });
    const ra = facts.problems.find((p) => p.name.includes('rheumatoid arthritis'));
    expect(ra?.certainty).toBe('probable');
  });
});

const table = loadCodeTable();

describe.skipIf(!table)('the coder codes what the encounter understanding asserts', () => {
  const coder = createIcdCoder(table!, readCodingLexicon());
  const codes = (text: string): string[] => coder.analyze(text).codes.map((c) => c.code);

  it('codes a glucose stated not controlled as diabetes with hyperglycemia, and one stated not elevated without it', () => {
    expect(codes('ASSESSMENT AND PLAN\n1. Diabetes type 2.\n- His blood sugar today is not controlled.\n')).toContain('E11.65');
    expect(codes('ASSESSMENT AND PLAN\n1. Diabetes type 2.\n- His A1c is not elevated.\n')).not.toContain('E11.65');
  });

  it('keeps a non-healing diabetic foot ulcer diabetic', () => {
    expect(codes('ASSESSMENT\nRight non-healing diabetic foot ulcer.\nDiabetes.\n').some((c) => c.startsWith('E11.62'))).toBe(true);
  });

  it('sets aside a doubted diagnosis and a tested-for one', () => {
    const result = coder.analyze('ASSESSMENT AND PLAN\n1. Cough. I doubt this is pneumonia. We will check a chest x-ray for pneumonia.\n');
    expect(result.codes.map((c) => c.code)).not.toContain('J18.9');
    expect(result.setAside.length).toBeGreaterThanOrEqual(2);
  });
});
