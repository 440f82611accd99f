import { describe, it, expect } from 'vitest';
import { compileSafeRegExp, UnsafePatternError } from '../../main/services/extraction/safe-regexp.js';
import { nativeRegExpRuns } from '../support/native-regexp.js';

describe('caller patterns run on a linear-time engine', () => {
  it('answers a failing match on an exponential pattern without the backtracking engine', async () => {
    const re = compileSafeRegExp('^(a+)+$');
    // V8 would need ~2^5000 steps for the failing input: the pattern must never reach it (counted, not timed).
    const runs = await nativeRegExpRuns(['^(a+)+$'], () => {
      expect(re.test(`${'a'.repeat(5000)}!`)).toBe(false);
      expect(re.test('aaaa')).toBe(true);
    });
    expect(runs).not.toContain('^(a+)+$');
    // The watch does see a pattern that is run by V8 (a lookaround RE2 cannot express).
    const lookaround = compileSafeRegExp('^(?!bad)[a-z]+$');
    expect(await nativeRegExpRuns([], () => lookaround.test('good'))).toContain('^(?!bad)[a-z]+$');
  });

  it('keeps ECMA-262 meaning for common real-world patterns', () => {
    expect(compileSafeRegExp('^\\d{3}-\\d{2}$').test('123-45')).toBe(true);
    expect(compileSafeRegExp('^[\\w.-]+@[\\w-]+\\.[a-z]{2,}$').test('a.b@c.org')).toBe(true);
    expect(compileSafeRegExp('\\u00e9').test('café')).toBe(true);
    expect(compileSafeRegExp('abc').test('xxabcxx')).toBe(true);
  });

  it('uses a bounded fallback for lookarounds, and refuses them with nested repetition', () => {
    expect(compileSafeRegExp('^(?!bad)[a-z]+$').test('good')).toBe(true);
    expect(compileSafeRegExp('^(?!bad)[a-z]+$').test('badly')).toBe(false);
    expect(() => compileSafeRegExp('^(?=x)(\\w+\\s?)*$')).toThrow(UnsafePatternError);
  });
});
