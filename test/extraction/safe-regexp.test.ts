import { describe, it, expect } from 'vitest';
import { compileSafeRegExp, UnsafePatternError } from '../../main/services/extraction/safe-regexp.js';

describe('caller patterns run on a linear-time engine', () => {
  it('answers a failing match on an exponential pattern immediately', () => {
    const re = compileSafeRegExp('^(a+)+$');
    const started = performance.now();
    expect(re.test(`${'a'.repeat(5000)}!`)).toBe(false);
    expect(re.test('aaaa')).toBe(true);
    // V8 would need ~2^5000 steps for the failing input.
    expect(performance.now() - started).toBeLessThan(2_000);
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
