import { describe, it, expect } from 'vitest';
import { DomainError } from '../../main/services/errors.js';
import { EXTRACTION_LIMITS } from '../../main/services/extraction/index.js';
import { NOTE, embeddedExtraction } from './helpers.js';
import { nativeRegExpRuns } from '../support/native-regexp.js';

const service = embeddedExtraction();

async function failure(text: string, schema: unknown): Promise<DomainError> {
  try {
    await service.extract(text, schema);
  } catch (err) {
    expect(err).toBeInstanceOf(DomainError);
    return err as DomainError;
  }
  throw new Error('expected a rejection');
}

describe('schemas that cannot be answered are refused with a reason', () => {
  it('rejects a schema that fails its meta-schema, naming the spot', async () => {
    const err = await failure(NOTE, { type: 'object', properties: { age: { type: 'int' } } });
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/schema is invalid: schema\/properties\/age\/type/);
  });

  it('rejects a $ref it cannot resolve (nothing is fetched)', async () => {
    const err = await failure(NOTE, { type: 'object', properties: { a: { $ref: 'https://example.com/other.json' } } });
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/cannot be resolved/);
  });

  it('rejects draft-03 keywords with their path instead of ignoring them', async () => {
    const err = await failure(NOTE, { type: 'object', properties: { dose: { type: 'number', divisibleBy: 5 } } });
    expect(err.status).toBe(400);
    expect(err.message).toBe('unsupported keyword draft-03 `divisibleBy` (use multipleOf) at /properties/dose/divisibleBy');
  });

  it.each([
    [{ type: 'integer', minimum: 5, maximum: 3 }, /numeric bounds/],
    [{ allOf: [{ type: 'string' }, { type: 'number' }] }, /types \[string\] and \[number\]/],
    [{ type: 'object', required: ['a'], properties: { a: false } }, /required property "a"/],
    [{ type: 'array', minItems: 3, maxItems: 3, uniqueItems: true, items: { enum: ['x', 'y'] } }, /minItems/],
  ])('rejects the unsatisfiable schema %j and says why', async (schema, why) => {
    const err = await failure(NOTE, schema);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/^schema is unsatisfiable: /);
    expect(err.message).toMatch(why);
  });

  it('answers 413 for text and schemas beyond the limits', async () => {
    const long = 'a'.repeat(EXTRACTION_LIMITS.maxTextChars + 1);
    expect((await failure(long, { type: 'object' })).status).toBe(413);
    const huge = { type: 'object', description: 'x'.repeat(EXTRACTION_LIMITS.maxSchemaBytes) };
    expect((await failure(NOTE, huge)).status).toBe(413);
  });

  it('rejects schemas nested deeper than the limit', async () => {
    let schema: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < EXTRACTION_LIMITS.maxSchemaDepth + 5; i++) schema = { type: 'object', properties: { x: schema } };
    const err = await failure(NOTE, schema);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/nests deeper/);
  });

  it('does not hang on a catastrophic-backtracking pattern', async () => {
    const schema = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^(a+)+$', minLength: 40 } } };
    let answer: { id: string } | undefined;
    // A backtracking engine would need ~2^40 steps here: neither validation nor the value builder may hand it to V8.
    const runs = await nativeRegExpRuns(['^(a+)+$'], async () => {
      answer = (await service.extract(`${'a'.repeat(60)}!`, schema)) as { id: string };
    });
    expect(runs).not.toContain('^(a+)+$');
    expect(answer?.id).toMatch(/^a{40,}$/);
  });

  it('refuses lookaround patterns whose repetition could backtrack catastrophically', async () => {
    const err = await failure(NOTE, { type: 'string', pattern: '^(?=a)(a+)+$' });
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/pattern/);
  });

  it('ends on mutually recursive required references instead of looping', async () => {
    const schema = { $ref: '#/definitions/a', definitions: { a: { type: 'object', required: ['b'], properties: { b: { $ref: '#/definitions/a' } } } } };
    const err = await failure(NOTE, schema);
    expect(err.status).toBe(400);
    expect(err.message).toMatch(/unsatisfiable/);
  });

  it('never puts the text into an error message', async () => {
    const err = await failure('Secret Patient Name 12345', { type: 'integer', minimum: 5, maximum: 3 });
    expect(err.message).not.toContain('Secret');
  });
});
