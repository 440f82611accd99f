import { describe, it, expect } from 'vitest';
import { normaliseNumbers, writeNumbers } from '../../main/services/clinical-language/normalise.js';
import { formatDictation } from '../../main/services/transcriptions/dictation-format.js';
import { parseTurns, toSentences } from '../../main/engines/text/embedded/transcript.js';

describe('writing numbers into a note sentence', () => {
  it.each([
    // Fragments as ACI-Bench transcripts say them.
    ["your blood pressure is good it's one twenty eight over eighty two", "your blood pressure is good it's 128/82"],
    ["it's gon na be fifteen hundred milligrams", "it's gon na be 1500 mg"],
    ['naprosyn five hundred five hundred milligrams twice a day', 'naprosyn 500 mg twice a day'],
    ['you are on two . five of norvasc', 'you are on 2.5 of norvasc'],
    ['aldactone twelve . five milligrams daily', 'aldactone 12.5 mg daily'],
    ['it does show a . five centimeter kidney stone', 'it does show a 0.5 cm kidney stone'],
    ['a stone measuring point five centimeters', 'a stone measuring 0.5 cm'],
    ['no heavy lifting for two to three weeks', 'no heavy lifting for 2-3 weeks'],
    ['temperature is ninety ninety seven . two', 'temperature is 97.2'],
    ['increase from ten to twenty milligrams', 'increase from 10 to 20 mg'],
    ['a fifty eight year old male', 'a 58-year-old male'],
    ['no one else, the one on the left', 'no one else, the one on the left'],
    ['one and a half weeks', '1.5 weeks'],
  ])('%s', (spoken, written) => {
    expect(normaliseNumbers(spoken)).toBe(written);
  });

  it('never writes "six hundred six hundred milligrams" as 60600', () => {
    expect(normaliseNumbers('six hundred six hundred milligrams')).toBe('600 mg');
  });

  it('keeps uncertain readings as spoken and reports them for review', () => {
    const out = writeNumbers("take two twenty milligram tablets, we'll see . five milligrams daily");
    expect(out.text).toBe("take two twenty mg tablets, we'll see . five mg daily");
    expect(out.uncertain.map((r) => r.spoken)).toEqual(['two twenty', '. five']);
    expect(normaliseNumbers('two two')).toBe('two two');
  });
});

describe('the embedded writer\'s transcript sentences', () => {
  it('no longer cut a spoken decimal into a sentence end and a whole number', () => {
    const sentences = toSentences(parseTurns('[doctor] it does show a . five centimeter kidney stone .\n[doctor] i want to add aldactone twelve . five milligrams daily .'));
    expect(sentences.map((s) => normaliseNumbers(s.text))).toEqual([
      'it does show a 0.5 cm kidney stone.',
      'i want to add aldactone 12.5 mg daily.',
    ]);
  });
});

describe('dictation numbers', () => {
  it.each([
    ['naprosyn six hundred six hundred milligrams', 'Naprosyn 600 mg'],
    ['pressure one twenty one twenty eight over eighty', 'Pressure 128/80'],
    ['fifteen hundred milligrams', '1500 mg'],
    ['two two children', 'Two two children'],
    ['visual acuity twenty twenty', 'Visual acuity 20 20'],
    ['insulin five units at night', 'Insulin 5 units at night'],
  ])('%s', (spoken, written) => {
    expect(formatDictation(spoken)).toBe(written);
  });
});
