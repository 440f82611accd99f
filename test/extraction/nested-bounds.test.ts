import { describe, expect, it } from 'vitest';
import { embeddedExtraction } from './helpers.js';
import { DomainError } from '../../main/services/errors.js';

describe('nested lower bounds', () => {
  it('refuses at once a schema whose nested minProperties force a billion values', async () => {
    const leaf = { type: 'object', minProperties: 1000, additionalProperties: { type: 'integer' } };
    const schema = { type: 'object', minProperties: 1000, additionalProperties: { type: 'object', minProperties: 1000, additionalProperties: leaf } };
    const started = performance.now();
    const err = await embeddedExtraction().extract('Patient is well.', schema).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).status).toBe(400);
    expect((err as DomainError).message).toMatch(/force more than/);
    // Refused by the up-front audit, not after building part of the answer.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it('still answers modest nested bounds', async () => {
    const schema = { type: 'object', properties: { visits: { type: 'array', minItems: 2, items: { type: 'object', minProperties: 1, additionalProperties: { type: 'string' } } } }, required: ['visits'] };
    const data = (await embeddedExtraction().extract('Two visits.', schema)) as { visits: unknown[] };
    expect(data.visits).toHaveLength(2);
  });
});
