import { describe, it, expect } from 'vitest';
import { correctMedications, phoneticKey } from '../../main/engines/text/embedded/medications.js';

const LIST = 'Metformin, Lisinopril, Lasix, Albuterol, Atorvastatin';

describe('medicationList correction', () => {
  it('fixes misspelt and mis-heard drug names to the listed spelling', () => {
    expect(correctMedications('she takes metforman and lisinoprill', LIST)).toBe('she takes Metformin and Lisinopril');
    expect(correctMedications('continue lasics 40 mg', LIST)).toBe('continue Lasix 40 mg');
    expect(correctMedications('started on atorva statin', LIST)).toBe('started on Atorvastatin');
    expect(correctMedications('uses the albuteral inhaler', LIST)).toBe('uses the Albuterol inhaler');
  });

  it('leaves words that are not drug names alone', () => {
    const text = 'listen, the pain lasts for a month; format the letter and take a metal tray';
    expect(correctMedications(text, LIST)).toBe(text);
  });

  it('does nothing without a list', () => {
    expect(correctMedications('metforman', undefined)).toBe('metforman');
  });

  it('gives similar-sounding spellings the same key', () => {
    expect(phoneticKey('zantac')).toBe(phoneticKey('santack'));
  });
});
