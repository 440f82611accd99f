import { describe, expect, it } from 'vitest';
import { understandEncounter } from '../../main/services/encounter/understand.js';

/** Results read out, several to a sentence (written for these tests). */
const results = (line: string): string[][] =>
  understandEncounter({ transcript: `[doctor] ${line}` }).results.map((r) => [r.test, r.value ?? '', r.interpretation ?? '']);

describe('results read out', () => {
  it('gives each test the words up to the next one: "normal except potassium low at 3.2" is never "labs 3.2 normal"', () => {
    expect(results('your labs were all normal except your potassium was a little low at 3.2 .')).toEqual([['labs', '', 'normal'], ['potassium', '3.2', 'low']]);
    expect(results('your a1c was 7.2 and your cholesterol was 240 , which is high .')).toEqual([['hemoglobin a1c', '7.2', ''], ['cholesterol', '240', 'high']]);
  });

  it('keeps the abnormal result when "everything else looks good", and the rest as other labs normal', () => {
    expect(results('so your lyme titer came back elevated , but everything else on your labs looks good .')).toEqual([['lyme titer', '', 'high'], ['other labs', '', 'normal']]);
  });
});

describe('a negated interpretation', () => {
  it('reads "not running high" as no high value', () => {
    expect(results('your blood sugar is not running high .')).toEqual([['blood sugar', '', 'normal']]);
  });
});

describe('tests that have no result yet', () => {
  it('reads no result from a test ordered after another or named in a condition', () => {
    expect(results("we'll check your a1c and a metabolic panel just to be sure .")).toEqual([]);
    expect(results('if your blood sugars are low , call me .')).toEqual([]);
  });
});

describe('"up" as a value gone up', () => {
  it('reads "bones lined up" as no high value, and "your sugar was up" as high', () => {
    expect(results('your x-ray of your wrist , it looks like the bones are lined up properly .').map((r) => r[2])).not.toContain('high');
    expect(results('your blood sugar was up at 240 .')).toEqual([['blood sugar', '240', 'high']]);
    expect(results('your cholesterol is way up .')).toEqual([['cholesterol', '', 'high']]);
  });
});

describe('a number is a result value only when it reads as one (a wrong value in a note is a patient-safety defect)', () => {
  it('reads no value from when the test was done, a date, a size, a grade or a dose', () => {
    expect(results('i wanted to go over the results of your last echocardiogram , that was about six months ago .')).toEqual([]);
    expect(results('an mri was obtained on 4/24/2021 , which showed a partial tear of the tendon .').map((r) => r[1])).toEqual(['']);
    expect(results('the ct scan showed a three centimeter mass on the left ovary .').map((r) => r[1])).toEqual(['']);
    expect(results('the biopsy came back as grade two , estrogen receptor positive .').map((r) => r[1])).toEqual(['']);
    expect(results('your ekg was fine , and you take coumadin , four milligrams a day .').map((r) => r[1])).toEqual(['']);
    expect(results('your ultrasound on november 3rd , 2019 , showed a small cyst .').map((r) => r[1])).toEqual(['']);
  });

  it('skips a target to the value: "should be over 50, and it was 44"', () => {
    expect(results('the good cholesterol should be over 50 , and it was 44 .')).toEqual([['hdl cholesterol', '44', '']]);
  });

  it('reads ".7", "3,000" and "at 39" as the numbers said, and "non-hdl" as its own analyte, never HDL', () => {
    expect(results('your creatinine was .7 .')).toEqual([['creatinine', '0.7', '']]);
    expect(results('your bnp was 3,000 in march .').map((r) => r[1])).toEqual(['3000']);
    expect(results('your liver panel showed an elevated ast at thirty nine .')).toContainEqual(['ast', '39', '']);
    expect(results('the non-hdl was about 178 , and it should be less than 130 .')).toEqual([['non-hdl cholesterol', '178', '']]);
    expect(results('your tsh was normal at 2.68 .')).toEqual([['thyroid panel', '2.68', 'normal']]);
  });

  it('reads no value from "one of them" and no finding that starts with a conjunction', () => {
    expect(results('the labs came back and one of them , the potassium , was 4 .')).toEqual([['potassium', '4', '']]);
  });
});
