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
