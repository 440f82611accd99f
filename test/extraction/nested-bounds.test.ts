import { describe, expect, it } from 'vitest';
import { embeddedExtraction } from './helpers.js';
import { DomainError } from '../../main/services/errors.js';
import { createEmbeddedExtractor } from '../../main/engines/extraction/index.js';
import { createExtractionService } from '../../main/services/extraction/index.js';

describe('nested lower bounds', () => {
  it('refuses at once a schema whose nested minProperties force a billion values', async () => {
    const leaf = { type: 'object', minProperties: 1000, additionalProperties: { type: 'integer' } };
    const schema = { type: 'object', minProperties: 1000, additionalProperties: { type: 'object', minProperties: 1000, additionalProperties: leaf } };
    const embedded = createEmbeddedExtractor();
    let reads = 0;
    const service = createExtractionService({ extractor: { extract: (text, root) => (reads++, embedded.extract(text, root)) } });
    const err = await service.extract('Patient is well.', schema).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).status).toBe(400);
    // Refused by the up-front audit (its message), before the text is read or any of the answer is built.
    expect((err as DomainError).message).toMatch(/force more than/);
    expect(reads).toBe(0);
  });

  it('still answers modest nested bounds', async () => {
    const schema = { type: 'object', properties: { visits: { type: 'array', minItems: 2, items: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } } } }, required: ['visits'] };
    const data = (await embeddedExtraction().extract('Two visits.', schema)) as { visits: unknown[] };
    expect(data.visits).toHaveLength(2);
  });
});
