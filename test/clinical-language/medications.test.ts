import { describe, expect, it } from 'vitest';
import {
  correctMedicationNames,
  DRUG_PHRASES,
  isDrugWord,
  isMedicationVariant,
  parseMedicationList,
} from '../../main/services/clinical-language/medications.js';
import { createPhraseMatcher } from '../../main/services/clinical-language/phrase-match.js';

const LIST = parseMedicationList('Metformin, Lisinopril, Lasix, Albuterol, Atorvastatin, Zyrtec, insulin glargine');

describe('parseMedicationList', () => {
  it('splits on commas, semicolons and lines and keeps each drug once, first spelling winning', () => {
    expect(parseMedicationList('Metformin, lisinopril;\nLisinopril , metformin, ASA, xx, vitamin  D')).toEqual(['Metformin', 'lisinopril', 'ASA', 'vitamin D']);
    expect(parseMedicationList(undefined)).toEqual([]);
  });
});

describe('correctMedicationNames', () => {
  it('fixes misspelt and mis-heard drug names in a dictated transcript to the listed spelling', () => {
    expect(correctMedicationNames('she takes metforman and lisinoprill', LIST)).toBe('she takes Metformin and Lisinopril');
    expect(correctMedicationNames('continue lasics 40 mg', LIST)).toBe('continue Lasix 40 mg');
    expect(correctMedicationNames('started on atorva statin last year', LIST)).toBe('started on Atorvastatin last year');
    expect(correctMedicationNames('uses the albuteral inhaler', LIST)).toBe('uses the Albuterol inhaler');
    expect(correctMedicationNames('tried zirtek for the itching', LIST)).toBe('tried Zyrtec for the itching');
  });

  it('fixes a multi-word name as a whole', () => {
    expect(correctMedicationNames('Started insulin glargin 10 units at bedtime.', LIST)).toBe('Started insulin glargine 10 units at bedtime.');
  });

  it('leaves exact mentions as written and ordinary words alone', () => {
    expect(correctMedicationNames('Continue metformin and LASIX.', LIST)).toBe('Continue metformin and LASIX.');
    const text = 'listen, the pain lasts for a month; format the letter and take a metal tray';
    expect(correctMedicationNames(text, LIST)).toBe(text);
    const note = 'Patient reports formation of lesions, listless mood, metabolic panel normal.';
    expect(correctMedicationNames(note, LIST)).toBe(note);
  });

  it('does nothing without a list', () => {
    expect(correctMedicationNames('metforman', [])).toBe('metforman');
  });
});

describe('isMedicationVariant', () => {
  it('accepts spelling and sound variants of the same drug only', () => {
    expect(isMedicationVariant('lisinipril', 'Lisinopril')).toBe(true);
    expect(isMedicationVariant('santack', 'zantac')).toBe(true);
    expect(isMedicationVariant('lisinopril', 'Lisinopril')).toBe(false);
    expect(isMedicationVariant('losartan', 'lisinopril')).toBe(false);
    expect(isMedicationVariant('metal', 'metformin')).toBe(false);
  });
});

describe('medication lexicon', () => {
  it('knows generics, brands and abbreviations, reported by generic name', () => {
    const matcher = createPhraseMatcher(DRUG_PHRASES);
    const found = matcher.find('Takes Eliquis 5 mg BID, HCTZ 25 mg daily and Glucophage; tried tirzepatide.').map((h) => h.value);
    expect(found).toEqual(['apixaban', 'hydrochlorothiazide', 'metformin', 'tirzepatide']);
  });

  it('recognises drug words by name or pharmacological ending, not everyday words', () => {
    for (const w of ['Lisinopril', 'losartan', 'dapagliflozin', 'Zoloft', 'calcium']) expect(isDrugWord(w)).toBe(true);
    for (const w of ['routine', 'machine', 'feeling', 'medicine', 'patient']) expect(isDrugWord(w)).toBe(false);
  });
});
