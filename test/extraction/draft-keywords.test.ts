import { describe, expect, it } from 'vitest';
import { embeddedExtraction } from './helpers.js';

const tuple = { type: 'array', prefixItems: [{ const: 7 }], minItems: 1 };

describe('keywords of another draft are enforced or refused, never ignored', () => {
  it('reads an undeclared schema that uses 2020-12 keywords as 2020-12 and enforces them', async () => {
    const data = (await embeddedExtraction().extract('nothing here', { type: 'object', properties: { a: tuple }, required: ['a'] })) as { a: unknown[] };
    expect(data.a[0]).toBe(7);
  });

  it('refuses a 2020-12 keyword in a schema that declares draft-07, naming it', async () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { a: tuple }, required: ['a'] };
    await expect(embeddedExtraction().extract('x', schema)).rejects.toThrow(/prefixItems.*draft-07/);
  });

  it('treats a property that happens to be named like a keyword as a property', async () => {
    const schema = { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { prefixItems: { type: ['string', 'null'] } }, required: ['prefixItems'] };
    expect(await embeddedExtraction().extract('x', schema)).toEqual({ prefixItems: null });
  });
});
