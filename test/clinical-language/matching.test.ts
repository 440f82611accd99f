import { describe, expect, it } from 'vitest';
import { editDistance, editRatio, singleDeletions } from '../../main/services/clinical-language/edit-distance.js';
import { soundKey, soundKeys, soundsAlike } from '../../main/services/clinical-language/phonetic.js';
import { createPhraseMatcher } from '../../main/services/clinical-language/phrase-match.js';

describe('editDistance', () => {
  it('counts letter edits between a misspelt drug and its name', () => {
    expect(editDistance('metforman', 'metformin')).toBe(1);
    expect(editDistance('lisinoprill', 'lisinopril')).toBe(1);
    expect(editDistance('furosemide', 'furosemide')).toBe(0);
    expect(editDistance('', 'aspirin')).toBe(7);
  });

  it('counts a swapped pair of letters as one edit unless asked not to', () => {
    expect(editDistance('lisinporil', 'lisinopril')).toBe(1);
    expect(editDistance('lisinporil', 'lisinopril', { transpositions: false })).toBe(2);
  });

  it('compares words when given word arrays, as word error rate needs', () => {
    const reference = 'patient denies chest pain today'.split(' ');
    const heard = 'patient denies the chest pains today'.split(' ');
    expect(editDistance(reference, heard, { transpositions: false })).toBe(2);
  });

  it('stops early past a bound and says so with max + 1', () => {
    expect(editDistance('amlodipine', 'atorvastatin', { max: 2 })).toBe(3);
    expect(editDistance('amlodipine', 'amlodipin', { max: 2 })).toBe(1);
    // Lengths alone rule it out.
    expect(editDistance('asa', 'acetaminophen', { max: 3 })).toBe(4);
  });

  it('editRatio scales by the longer word', () => {
    expect(editRatio('zirtek', 'zyrtec')).toBeCloseTo(2 / 6);
    expect(editRatio('', '')).toBe(0);
  });

  it('singleDeletions lists each one-letter deletion', () => {
    expect(singleDeletions('asa')).toEqual(['sa', 'aa', 'as']);
  });
});

describe('sound-alike keys', () => {
  it('gives brand names heard by ear the key of the written name', () => {
    expect(soundKey('santack')).toBe(soundKey('zantac'));
    expect(soundsAlike('zirtek', 'Zyrtec')).toBe(true);
    expect(soundsAlike('hart', 'heart')).toBe(true);
  });

  it('keeps different drugs apart', () => {
    expect(soundsAlike('lasix', 'losartan')).toBe(false);
    expect(soundsAlike('xanax', 'zantac')).toBe(false);
  });

  it('has no key for words without letters', () => {
    expect(soundKeys('120/80')).toBeNull();
    expect(soundKey('')).toBe('');
  });
});

describe('createPhraseMatcher', () => {
  const matcher = createPhraseMatcher(
    [
      { value: 'diabetes', phrases: ['diabetes', 'DM'] },
      { value: 'type 2 diabetes', phrases: ['type 2 diabetes', 'T2DM'] },
      { value: 'pulmonary embolism', phrases: ['pulmonary embolism', 'PE'] },
    ],
    { capitalsUpTo: 3 },
  );

  it('prefers the longest phrase and ignores hyphen or spacing differences', () => {
    const hits = matcher.find('Type-2  diabetes, on metformin; T2DM since 2015.');
    expect(hits.map((h) => [h.value, h.surface])).toEqual([
      ['type 2 diabetes', 'Type-2  diabetes'],
      ['type 2 diabetes', 'T2DM'],
    ]);
  });

  it('reads short abbreviations only in capitals, so everyday words stay words', () => {
    expect(matcher.find('CTA negative for PE.').map((h) => h.value)).toEqual(['pulmonary embolism']);
    expect(matcher.find('Encouraged daily pe exercise.').map((h) => h.value)).toEqual([]);
  });

  it('matches whole words only', () => {
    expect(matcher.find('Prediabetes counselling.')).toEqual([]);
  });
});
