import { describe, it, expect } from 'vitest';
import { abbreviateUnits, canonicalUnit, formatQuantity, readFrequencies, unitAt } from '../../main/services/clinical-language/units.js';
import { readDoses } from '../../main/services/clinical-language/doses.js';

const words = (s: string): string[] => s.split(' ');

describe('units', () => {
  it.each([
    ['milligrams', 'mg'], ['MG', 'mg'], ['mcg', 'mcg'], ['micrograms', 'mcg'], ['grams', 'g'], ['cc', 'mL'],
    ['milliliters', 'mL'], ['international units', 'IU'], ['units', 'units'], ['mm Hg', 'mmHg'], ['beats per minute', 'bpm'],
    ['centimeters', 'cm'], ['millimetres', 'mm'], ['kilos', 'kg'], ['lbs', 'lb'], ['percent', '%'],
  ])('%s is written %s', (name, symbol) => {
    expect(canonicalUnit(name)).toBe(symbol);
  });

  it('leaves words that are not units alone', () => {
    expect(canonicalUnit('tablets')).toBeUndefined();
    expect(canonicalUnit('in')).toBeUndefined();
  });

  it('matches the longest spoken form first', () => {
    expect(unitAt(words('ten millimeters of mercury'), 1)).toMatchObject({ symbol: 'mmHg', next: 4 });
    expect(unitAt(words('ten millimeters long'), 1)).toMatchObject({ symbol: 'mm', next: 2 });
    expect(unitAt(words('seventy beats per minute'), 1)).toMatchObject({ symbol: 'bpm', next: 4 });
  });

  it('reads a bare "degrees" as Fahrenheit only at a body temperature', () => {
    expect(unitAt(['degrees'], 0, 98.6)?.symbol).toBe('°F');
    expect(unitAt(['degrees'], 0, 30)?.symbol).toBe('°');
    expect(unitAt(words('degrees celsius'), 0, 37)?.symbol).toBe('°C');
  });

  it('writes quantities with or without a space as the unit requires', () => {
    expect(formatQuantity('98', { symbol: '%', space: false })).toBe('98%');
    expect(formatQuantity('5', { symbol: 'mg', space: true })).toBe('5 mg');
  });

  it('shortens unit names in note text', () => {
    expect(abbreviateUnits('20 milligrams and 5 milliliters, 98 percent, the percent of patients')).toBe('20 mg and 5 mL, 98%, the percent of patients');
  });
});

describe('dosing frequencies', () => {
  it('reads spoken and Latin frequencies with their plain and abbreviated forms', () => {
    const f = readFrequencies('metformin twice a day, lisinopril daily, tylenol every 6 hours as needed, trazodone qhs');
    expect(f.map((x) => [x.text, x.plain, x.abbreviation, x.perDay])).toEqual([
      ['twice a day', 'twice daily', 'BID', 2],
      ['daily', 'once daily', 'QD', 1],
      ['every 6 hours', 'every 6 hours', 'Q6H', 4],
      ['as needed', 'as needed', 'PRN', undefined],
      ['qhs', 'at bedtime', 'QHS', 1],
    ]);
  });

  it('reads a range of hours, bounded by its shorter interval, and no range said backwards', () => {
    expect(readFrequencies('ibuprofen every 6-8 hours').map((x) => [x.plain, x.abbreviation, x.perDay])).toEqual([['every 6-8 hours', 'Q6-8H', 4]]);
    expect(readFrequencies('take it every four to six hours').map((x) => [x.plain, x.perDay])).toEqual([['every 4-6 hours', 6]]);
    expect(readFrequencies('every 8-6 hours')).toEqual([]);
  });

  it('reads "a day" after a dose as once daily, but not "a day or two ago"', () => {
    expect(readFrequencies('lisinopril twenty milligrams a day').map((x) => x.plain)).toEqual(['once daily']);
    expect(readFrequencies('lisinopril 20 mg a day').map((x) => x.plain)).toEqual(['once daily']);
    expect(readFrequencies('it started a day or two ago')).toEqual([]);
  });

  it('takes the longest phrase where two overlap', () => {
    expect(readFrequencies('twice daily').map((x) => x.abbreviation)).toEqual(['BID']);
    expect(readFrequencies('three times a day').map((x) => x.abbreviation)).toEqual(['TID']);
    expect(readFrequencies('every four hours').map((x) => x.plain)).toEqual(['every 4 hours']);
  });

  it('does not read frequencies inside other words', () => {
    expect(readFrequencies('the bidet and the tide')).toEqual([]);
  });
});

describe('doses', () => {
  it('reads spoken and written quantities with their units', () => {
    const doses = readDoses('naprosyn five hundred five hundred milligrams twice a day, 2.5mg of norvasc, sat 98%, bp one twenty over eighty millimeters of mercury');
    expect(doses.map((d) => [d.spoken, d.text])).toEqual([
      ['five hundred five hundred milligrams', '500 mg'],
      ['2.5mg', '2.5 mg'],
      ['98%', '98%'],
      ['one twenty over eighty millimeters of mercury', '120/80 mmHg'],
    ]);
    expect(doses[3]).toMatchObject({ value: 120, over: 80, uncertain: false });
  });

  it('counts are not doses, and uncertain numbers stay uncertain', () => {
    expect(readDoses('two puffs three times a day')).toEqual([]);
    expect(readDoses("we'll see . five milligrams")).toMatchObject([{ value: 0.5, uncertain: true }]);
  });
});
