import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { readSpeakerTag, sentenceSpans, speakerLines, splitSentences, spokenPoint, stripSpeakerTags, tokenize } from '../../main/services/clinical-language/tokenize.js';
import { readNumbers } from '../../main/services/clinical-language/numbers.js';

describe('tokens', () => {
  it('keeps decimals, thousands and contractions whole and splits at hyphens', () => {
    expect(tokenize("don't take 1,500 mg or 2.5 mg; twenty-five").map((t) => t.text)).toEqual(
      ["don't", 'take', '1,500', 'mg', 'or', '2.5', 'mg', ';', 'twenty', 'five'],
    );
    expect(tokenize('120/80').map((t) => `${t.kind}:${t.text}`)).toEqual(['number:120', 'punct:/', 'number:80']);
  });

  it('gives offsets that slice back to each token, for any text', () => {
    fc.assert(fc.property(fc.string(), (text) => tokenize(text).every((t) => text.slice(t.start, t.end) === t.text)));
  });
});

describe('sentences', () => {
  it('does not break titles, decimals or abbreviations', () => {
    expect(splitSentences('Mr. Jones takes 2.5 mg daily. Dr. Lee agrees! Done?')).toEqual(['Mr. Jones takes 2.5 mg daily.', 'Dr. Lee agrees!', 'Done?']);
    expect(splitSentences('Her A1c was 7.2 today. Mr. Jones agrees.')).toEqual(['Her A1c was 7.2 today.', 'Mr. Jones agrees.']);
    expect(splitSentences('Use e.g. ice, approx. 3 times.')).toEqual(['Use e.g. ice, approx. 3 times.']);
  });

  it('ends a sentence after a unit only before a capital or a digit', () => {
    expect(splitSentences('Lisinopril 10 mg. daily for blood pressure.')).toEqual(['Lisinopril 10 mg. daily for blood pressure.']);
    expect(splitSentences('Takes metformin 500 mg. BP 140/90 mmHg.')).toEqual(['Takes metformin 500 mg.', 'BP 140/90 mmHg.']);
  });

  it('keeps numbered-list markers with their item', () => {
    expect(splitSentences('Plan: 1. Start metformin. 2. Recheck A1c in 3 months.')).toEqual(['Plan: 1. Start metformin.', '2. Recheck A1c in 3 months.']);
    expect(splitSentences('1. Rest.\n2. Ice.', { lineBreaks: true })).toEqual(['1. Rest.', '2. Ice.']);
  });

  it('keeps the recogniser\'s spoken decimals inside the sentence (ACI-Bench)', () => {
    expect(splitSentences('i want to add aldactone twelve . five milligrams daily . and i need labs')).toEqual([
      'i want to add aldactone twelve . five milligrams daily .',
      'and i need labs',
    ]);
    expect(splitSentences('it does show a . five centimeter kidney stone .')).toEqual(['it does show a . five centimeter kidney stone .']);
    expect(splitSentences('ok . five years ago i had surgery')).toEqual(['ok .', 'five years ago i had surgery']);
  });

  it('tells a spoken decimal point from punctuation', () => {
    const at = (text: string): ReturnType<typeof spokenPoint> => spokenPoint(text, text.indexOf(' . ') + 1);
    expect(at('ninety eight . six')).toBe('after-number');
    expect(at('than . five miles')).toBe('bare');
    expect(at("we'll see . five milligrams")).toBe('maybe-bare');
    expect(at('normal . two out of three')).toBeNull();
    expect(at('two . twenty minutes later')).toBeNull();
  });

  it('splits at CJK sentence marks without spaces and keeps closing quotes', () => {
    expect(splitSentences('头痛三天。没有发烧！')).toEqual(['头痛三天。', '没有发烧！']);
    expect(splitSentences('She said "no pain." Then she left.')).toEqual(['She said "no pain."', 'Then she left.']);
  });

  it('ends sentences at line breaks only when asked, with offsets into the text', () => {
    const text = 'No fever\nCough for 3 days. Better now.';
    expect(splitSentences(text)).toEqual(['No fever\nCough for 3 days.', 'Better now.']);
    const spans = sentenceSpans(text, { lineBreaks: true });
    expect(spans.map((s) => s.text)).toEqual(['No fever', 'Cough for 3 days.', 'Better now.']);
    for (const s of spans) expect(text.slice(s.start, s.end)).toBe(s.text);
  });

  it('loses no text: the sentences joined hold every non-space character, in order', () => {
    fc.assert(fc.property(fc.string(), fc.boolean(), (text, lineBreaks) =>
      splitSentences(text, { lineBreaks }).join('').replace(/\s/g, '') === text.replace(/\s/g, '')));
  });
});

describe('speaker lines', () => {
  it('reads bracket tags, and colon tags only for accepted labels', () => {
    expect(readSpeakerTag('[doctor] how are you')).toEqual({ speaker: 'doctor', text: 'how are you' });
    expect(readSpeakerTag('Blood pressure: 120/80')).toBeNull();
    expect(readSpeakerTag('Doctor: hello', (l) => /^doctor$/i.test(l))).toEqual({ speaker: 'Doctor', text: 'hello' });
  });

  it('joins untagged lines to the tagged line above', () => {
    expect(speakerLines('[doctor] any pain ?\n[patient] yes\nin my knee\n')).toEqual([
      { speaker: 'doctor', text: 'any pain ?' },
      { speaker: 'patient', text: 'yes in my knee' },
    ]);
    expect(speakerLines('plain dictation\nsecond line')).toEqual([{ speaker: '', text: 'plain dictation' }, { speaker: '', text: 'second line' }]);
  });

  it('strips inline speaker tags', () => {
    expect(stripSpeakerTags('[doctor] hi [patient_guest] hello').split('\n').map((s) => s.trim())).toEqual(['', 'hi', 'hello']);
  });
});

describe('number readings on any text', () => {
  it('never throws and always slices back to the spoken words', () => {
    const word = fc.constantFrom('one', 'twenty', 'hundred', 'point', '.', 'five', 'and', 'a', 'over', 'to', 'mg', 'milligrams', 'oh', ',', 'two', 'thousand', 'the');
    fc.assert(fc.property(fc.array(word, { maxLength: 14 }), (ws) => {
      const text = ws.join(' ');
      return readNumbers(text).every((r) => text.slice(r.start, r.end) === r.spoken && Number.isFinite(r.value));
    }));
  });
});
