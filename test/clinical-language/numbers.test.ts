import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { numberToWords, parseNumberWords, readNumberAt, readOrdinalAt, readYearAt, spellNumber } from '../../main/services/clinical-language/number-words.js';
import { joinSpokenDecimals, readNumbers, statedNumbers } from '../../main/services/clinical-language/numbers.js';

/** The written forms of every reading, uncertain ones marked with "?". */
const read = (text: string): string[] => readNumbers(text).map((r) => `${r.text}${r.uncertain ? '?' : ''}`);
const words = (s: string): string[] => s.split(' ');

describe('number words', () => {
  it.each([
    ['one hundred twenty five', 125],
    ['one hundred and twenty five', 125],
    ['fifteen hundred', 1500],
    ['twenty five hundred', 2500],
    ['a hundred', 100],
    ['two thousand and five', 2005],
    ['one twenty', 120],
    ['one oh five', 105],
    ['six fifty', 650],
    ['ninety eight point six', 98.6],
    ['point oh five', undefined],
    ['one and a half', 1.5],
    ['twenty-one', 21],
  ])('%s -> %s', (phrase, value) => {
    expect(parseNumberWords(phrase)).toBe(value);
  });

  it('does not run two numbers together', () => {
    expect(parseNumberWords('six hundred six hundred')).toBeUndefined();
    expect(parseNumberWords('two two')).toBeUndefined();
    expect(readNumberAt(words('six hundred six hundred milligrams'), 0)).toMatchObject({ value: 600, next: 2 });
  });

  it('folds a repeat or false start only when asked, and never a single word said twice', () => {
    expect(readNumberAt(words('six hundred six hundred milligrams'), 0, { foldRepeats: true })).toMatchObject({ value: 600, next: 4, repeated: true });
    expect(readNumberAt(words('ninety ninety seven point two'), 0, { foldRepeats: true })).toMatchObject({ text: '97.2', next: 5 });
    expect(readNumberAt(words('one twenty one twenty eight'), 0, { foldRepeats: true })).toMatchObject({ value: 128, next: 5 });
    expect(readNumberAt(words('two two'), 0, { foldRepeats: true })).toMatchObject({ value: 2, next: 1 });
  });

  it('reads the recogniser\'s spoken decimal point only between a number and digits', () => {
    expect(readNumberAt(words('twelve . five milligrams'), 0)).toMatchObject({ text: '12.5', point: '.' });
    expect(readNumberAt(words('zero . zero five percent'), 0)).toMatchObject({ text: '0.05' });
    expect(readNumberAt(words('two . twenty'), 0)).toMatchObject({ value: 2, next: 1 });
    expect(readNumberAt(words('point five centimeters'), 0)).toBeNull();
    expect(readNumberAt(words('point five centimeters'), 0, { barePoint: true })).toMatchObject({ text: '0.5' });
  });

  it('reads years and ordinals for dates', () => {
    expect(readYearAt(words('twenty twenty four'), 0)).toEqual({ value: 2024, next: 3 });
    expect(readYearAt(words('nineteen eighty'), 0)).toEqual({ value: 1980, next: 2 });
    expect(readYearAt(words('two thousand five'), 0)).toEqual({ value: 2005, next: 3 });
    expect(readYearAt(words('forty'), 0)).toBeNull();
    expect(readNumberAt(words('twenty twenty'), 0, { years: false })).toMatchObject({ value: 20, next: 1 });
    expect(readOrdinalAt(words('twenty first'), 0)).toEqual({ value: 21, next: 2 });
    expect(readOrdinalAt(words('3rd'), 0)).toEqual({ value: 3, next: 1 });
  });

  it('spells numbers back ("1.5" -> "one point five")', () => {
    expect(numberToWords(120)).toBe('one hundred twenty');
    expect(spellNumber('1.05')).toBe('one point zero five');
  });

  it('round-trips every spelled integer below a million', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 999_999 }), (n) => parseNumberWords(numberToWords(n)) === n));
  });

  it('reads "<n> point <digits>" as the decimal for any whole part', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999 }), fc.array(fc.integer({ min: 0, max: 9 }), { minLength: 1, maxLength: 3 }), (n, digits) => {
      const said = `${numberToWords(n)} point ${digits.map((d) => numberToWords(d)).join(' ')}`;
      return parseNumberWords(said) === Number(`${n}.${digits.join('')}`);
    }));
  });
});

describe('numbers in transcript text', () => {
  it('reads decimals the recogniser wrote with a spaced period (ACI-Bench)', () => {
    expect(read("you seem to be doing well on the two . five of norvasc so we're not going to change")).toEqual(['2.5']);
    expect(read('i want to add aldactone twelve . five milligrams daily')).toEqual(['12.5']);
    expect(read('it does show a . five centimeter kidney stone')).toEqual(['0.5']);
    expect(read('start running again more than . five miles')).toEqual(['0.5']);
    expect(read("that's a zero . zero five percent solution")).toEqual(['0.05']);
    expect(read('a low grade fever of about a hundred . four right now')).toEqual(['100.4']);
  });

  it('keeps a period that ends a sentence out of the number after it', () => {
    expect(read('the suppression test was normal . two out of three samples')).toEqual(['2', '3']);
    expect(read('six arms to the study . one is a placebo')).toEqual(['6', '1']);
    expect(read('it was about seven . seven . i think')).toEqual(['7.7']);
  });

  it('marks ". five <unit>" after a word that can end a sentence as uncertain', () => {
    const [r] = readNumbers("we'll see . five milligrams daily");
    expect(r).toMatchObject({ value: 0.5, uncertain: true, alternatives: [5], spoken: '. five' });
  });

  it('reads blood pressures, including a restart, as one reading', () => {
    expect(readNumbers("it's one twenty eight over eighty two")).toMatchObject([{ text: '128/82', value: 128, over: 82, kind: 'ratio', uncertain: false }]);
    expect(read('about one twenty one twenty eight over eighty')).toEqual(['128/80']);
    expect(read('one seventy over, i\'m sorry, one twenty over seventy')).toEqual(['170', '120/70']);
  });

  it('folds disfluent repeats once: never 60600, never 22', () => {
    const [r] = readNumbers('naprosyn six hundred six hundred milligrams twice a day');
    expect(r).toMatchObject({ text: '600', value: 600, repeated: true, spoken: 'six hundred six hundred', uncertain: false });
    expect(read('five hundred five hundred milligrams')).toEqual(['500']);
    expect(read('ninety ninety seven . two your respiratory rate is')).toEqual(['97.2']);
    expect(read('take two two tablets')).toEqual(['2?', '2?']);
    expect(read('six hundred six hundred six hundred milligrams')).toEqual(['600']);
    expect(read('six hundred, six hundred, six hundred milligrams')).toEqual(['600']);
  });

  it('reads ranges, but not a change of dose', () => {
    expect(readNumbers('no driving for about two to three weeks')).toMatchObject([{ text: '2-3', value: 2, to: 3, kind: 'range' }]);
    expect(read('increase the lisinopril from ten to twenty milligrams')).toEqual(['10', '20']);
    expect(read('at ten to two')).toEqual(['10', '2']);
  });

  it('marks readings that could mean two things', () => {
    expect(readNumbers('take two twenty milligram tablets')).toMatchObject([{ value: 220, uncertain: true, alternatives: [2, 20] }]);
    expect(read('two three times a day')).toEqual(['2?', '3?']);
    expect(read('twenty twenty four')).toEqual(['2024?']);
    expect(read('back in twenty twenty four')).toEqual(['2024']);
    expect(read('one, two, three')).toEqual(['1', '2', '3']);
  });

  it('reads "point" as a number only where it can be one', () => {
    expect(read('a stone measuring point five centimeters')).toEqual(['0.5']);
    expect(read('at this point five patients')).toEqual(['5']);
  });

  it('gives offsets that slice back to the spoken words', () => {
    const text = 'bp is one twenty over eighty, weight is two hundred and five pounds';
    for (const r of readNumbers(text)) expect(text.slice(r.start, r.end)).toBe(r.spoken);
    expect(read(text)).toEqual(['120/80', '205']);
  });

  it('lists every number a source states, with the other readings of uncertain ones', () => {
    const n = statedNumbers('one thirty over eighty five, five hundred milligrams twice a day, for twenty-one days, 2.5 mg');
    for (const v of ['130', '85', '500', '2', '21', '2.5']) expect(n.has(v)).toBe(true);
    expect(n.has('850')).toBe(false);
    expect(n.has('60600')).toBe(false);
    expect(statedNumbers('take two twenty milligram tablets')).toEqual(new Set(['220', '2', '20']));
  });

  it('rewrites spoken decimal points as "point" so clean-up cannot split them', () => {
    expect(joinSpokenDecimals('on the two . five of norvasc . five years ago . a . five centimeter stone'))
      .toBe('on the two point five of norvasc . five years ago . a point five centimeter stone');
  });

  it('never reads more than one number where a multi-word number is repeated', () => {
    fc.assert(fc.property(fc.integer({ min: 21, max: 9_999 }).filter((n) => numberToWords(n).includes(' ')), (n) => {
      const said = numberToWords(n);
      const readings = readNumbers(`${said} ${said} milligrams`);
      return readings.length === 1 && readings[0]!.value === n && !readings[0]!.uncertain;
    }));
  });
});
