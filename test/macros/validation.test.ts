import { describe, it, expect } from 'vitest';
import { DomainError } from '../../main/services/errors.js';
import { createMacroService, MACRO_LIMITS, type MacroDetectRequest } from '../../main/services/macros/index.js';

const service = createMacroService();
const macro = { id: 'nce', examples: ['normal chest exam'], expansion_text: 'CHEST NORMAL' };

/** Runs detect and returns the DomainError it throws. */
function failure(request: unknown): DomainError {
  try {
    service.detect(request as MacroDetectRequest);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('detect accepted an invalid request');
}

describe('request validation', () => {
  it.each([
    ['missing text', { macros: [macro] }, /text is required/],
    ['text not a string', { text: 42, macros: [macro] }, /text must be a string/],
    ['missing macros', { text: 'x' }, /macros is required/],
    ['macros not an array', { text: 'x', macros: {} }, /macros must be an array/],
    ['macro not an object', { text: 'x', macros: ['nce'] }, /macros\[0\] must be an object/],
    ['id not a string', { text: 'x', macros: [{ ...macro, id: 7 }] }, /macros\[0\]\.id must be a string/],
    ['empty id', { text: 'x', macros: [{ ...macro, id: '' }] }, /macros\[0\]\.id must not be empty/],
    ['duplicate ids', { text: 'x', macros: [macro, { ...macro }] }, /macros\[1\]\.id duplicates/],
    ['empty examples', { text: 'x', macros: [{ ...macro, examples: [] }] }, /macros\[0\]\.examples must not be empty/],
    ['examples not an array', { text: 'x', macros: [{ ...macro, examples: 'normal' }] }, /examples must be an array/],
    ['example not a string', { text: 'x', macros: [{ ...macro, examples: ['a b', 3] }] }, /examples\[1\] must be a string/],
    ['blank example', { text: 'x', macros: [{ ...macro, examples: ['  '] }] }, /examples\[0\] must not be empty/],
    ['example without letters', { text: 'x', macros: [{ ...macro, examples: ['...'] }] }, /letter or digit/],
    ['expansion not a string', { text: 'x', macros: [{ ...macro, expansion_text: null }] }, /expansion_text must be a string/],
    ['min_confidence above 1', { text: 'x', macros: [macro], min_confidence: 1.5 }, /min_confidence/],
    ['min_confidence NaN', { text: 'x', macros: [macro], min_confidence: Number.NaN }, /min_confidence/],
    ['body not an object', null, /must be an object/],
  ])('%s is a 400 naming the problem', (_name, request, message) => {
    const err = failure(request);
    expect(err.status).toBe(400);
    expect(err.kind).toBe('invalid_request');
    expect(err.message).toMatch(message);
  });

  it('does not echo the dictated text in error messages', () => {
    const err = failure({ text: 'Jane Doe has pneumonia', macros: [macro, { ...macro }] });
    expect(err.message).not.toMatch(/Jane|pneumonia|normal chest/);
  });
});

describe('limits', () => {
  it('accepts a text at the limit and refuses one code point more with 413', () => {
    const atLimit = 'a'.repeat(MACRO_LIMITS.maxTextChars);
    expect(service.detect({ text: atLimit, macros: [macro] }).detections).toEqual([]);
    // Astral characters count once each, not twice.
    const astralAtLimit = '😀'.repeat(MACRO_LIMITS.maxTextChars);
    expect(() => service.detect({ text: astralAtLimit, macros: [macro] })).not.toThrow();
    const err = failure({ text: atLimit + 'b', macros: [macro] });
    expect(err.status).toBe(413);
  });

  it('refuses too many macros, examples or characters per example with 413', () => {
    const many = Array.from({ length: MACRO_LIMITS.maxMacros + 1 }, (_, i) => ({ ...macro, id: `m${i}` }));
    expect(failure({ text: 'x', macros: many }).status).toBe(413);
    const examples = Array.from({ length: MACRO_LIMITS.maxExamplesPerMacro + 1 }, (_, i) => `phrase ${i}`);
    expect(failure({ text: 'x', macros: [{ ...macro, examples }] }).status).toBe(413);
    const long = 'word '.repeat(MACRO_LIMITS.maxExampleChars);
    expect(failure({ text: 'x', macros: [{ ...macro, examples: [long] }] }).status).toBe(413);
  });

  it('refuses an expansion that would make the answer explode', () => {
    const big = { ...macro, examples: ['ok'], expansion_text: 'x'.repeat(MACRO_LIMITS.maxExpansionChars) };
    const text = 'ok '.repeat(200);
    expect(failure({ text, macros: [big] }).status).toBe(413);
  });

  it('handles the largest macro list and a long text without error', () => {
    const macros = Array.from({ length: MACRO_LIMITS.maxMacros }, (_, i) => ({
      id: `m${i}`,
      examples: [`finding number ${i} normal`, `variant ${i} reviewed today`],
      expansion_text: `E${i}`,
    }));
    const text = 'The finding number 17 normal was seen; variant 999 reviewed today. '.repeat(300);
    const result = service.detect({ text, macros });
    expect(result.detections.filter((d) => d.macro_id === 'm17')).toHaveLength(300);
    expect(result.detections.filter((d) => d.macro_id === 'm999')).toHaveLength(300);
  });
});

describe('index cache', () => {
  it('gives the same answer with and without the cache, and after the list changes', () => {
    const cached = createMacroService({ cacheEntries: 2 });
    const uncached = createMacroService({ cacheEntries: 0 });
    const lists = [
      [macro],
      [{ ...macro, examples: ['chest exam normal'] }],
      [{ ...macro, id: 'other' }],
    ];
    for (let round = 0; round < 2; round++) {
      for (const macros of lists) {
        const text = 'normal chest exam and chest exam normal';
        expect(cached.detect({ text, macros })).toEqual(uncached.detect({ text, macros }));
      }
    }
  });
});
