import { describe, it, expect } from 'vitest';
import { formatDictation, punctuateWords } from '../../main/services/transcriptions/dictation-format.js';
import type { RecognizedWord } from '../../main/services/transcriptions/ports.js';

/** Timed words as a recogniser would give them: 0.3 s each. */
function timed(text: string): RecognizedWord[] {
  return text.split(' ').map((word, i) => ({ word, start: i * 0.3, end: i * 0.3 + 0.25, confidence: 0.9 - i * 0.01 }));
}

describe('formatDictation', () => {
  it.each([
    ['blood pressure one twenty over eighty period', 'Blood pressure 120/80.'],
    ['take five milligrams twice daily period', 'Take 5 mg twice daily.'],
    ['temperature ninety eight point six degrees comma pulse seventy two beats per minute', 'Temperature 98.6 °F, pulse 72 bpm'],
    ['oxygen saturation ninety eight percent on room air period', 'Oxygen saturation 98% on room air.'],
    ['weight one hundred twenty pounds', 'Weight 120 lb'],
    ['glucose one oh five', 'Glucose 105'],
    ['temperature thirty seven point two degrees celsius', 'Temperature 37.2 °C'],
    ['lisinopril ten milligrams period metformin five hundred milligrams', 'Lisinopril 10 mg. Metformin 500 mg'],
    ['seen on march third twenty twenty four period', 'Seen on March 3, 2024.'],
    ['born on july twenty first nineteen eighty', 'Born on July 21, 1980'],
    ['is the pain worse question mark', 'Is the pain worse?'],
    ['assessment colon stable', 'Assessment: stable'],
    ['history new paragraph exam normal', 'History\n\nExam normal'],
    ['plan new line follow up in two weeks', 'Plan\nFollow up in two weeks'],
    ['i think she has two children', 'I think she has two children'],
    ['she is seventeen years old', 'She is 17 years old'],
    ['creatinine one point two', 'Creatinine 1.2'],
    ['tylenol six fifty milligrams', 'Tylenol 650 mg'],
  ])('%s', (spoken, expected) => {
    expect(formatDictation(spoken)).toBe(expected);
  });

  it('keeps "period" and "colon" as nouns where the sentence needs them', () => {
    expect(formatDictation('last menstrual period was two weeks ago period')).toBe('Last menstrual period was two weeks ago.');
    expect(formatDictation('mass in the sigmoid colon period')).toBe('Mass in the sigmoid colon.');
  });

  it('capitalises after each sentence end', () => {
    expect(formatDictation('no fever period no chills exclamation point denies pain')).toBe('No fever. No chills! Denies pain');
  });

  it('leaves an empty transcript empty', () => {
    expect(formatDictation('   ')).toBe('');
  });
});

describe('punctuateWords', () => {
  it('merges a spoken reading into one timed entry and attaches spoken punctuation', () => {
    const words = timed('pressure one twenty over eighty comma pulse sixty');
    const out = punctuateWords(words, { dictation: true });
    expect(out.map((w) => w.punctuated_word)).toEqual(['Pressure', '120/80,', 'pulse', '60']);
    const reading = out[1]!;
    expect(reading.word).toBe('one twenty over eighty');
    expect(reading.start).toBeCloseTo(words[1]!.start);
    expect(reading.end).toBeCloseTo(words[5]!.end); // extended over the spoken comma
    expect(reading.confidence).toBeCloseTo(Math.min(...words.slice(1, 5).map((w) => w.confidence)));
  });

  it('joins to the same text as formatDictation', () => {
    const spoken = 'no fever period temperature ninety eight point six degrees new line plan rest';
    const out = punctuateWords(timed(spoken), { dictation: true });
    expect(out.map((w) => w.punctuated_word).join(' ').replace(/ ?\n ?/g, '\n')).toBe(formatDictation(spoken));
  });

  it('keeps line breaks on the word before them, and a lone break command as its words', () => {
    const out = punctuateWords(timed('history new paragraph exam normal'), { dictation: true });
    expect(out.map((w) => w.punctuated_word)).toEqual(['History\n\n', 'Exam', 'normal']);
    expect(punctuateWords(timed('new paragraph'), { dictation: true }).map((w) => w.punctuated_word)).toEqual(['new', 'paragraph']);
    expect(punctuateWords(timed('new line'), { dictation: true }).map((w) => w.punctuated_word)).toEqual(['new', 'line']);
  });

  it('without dictation keeps one entry per word, capitalises and closes the sentence', () => {
    const out = punctuateWords(timed('i have a headache period'), { dictation: false });
    expect(out.map((w) => w.punctuated_word)).toEqual(['I', 'have', 'a', 'headache', 'period.']);
    expect(punctuateWords([], { dictation: false })).toEqual([]);
  });
});
