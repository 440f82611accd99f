import { describe, it, expect } from 'vitest';
import { NOTE, validatesAgainst, embeddedExtraction } from './helpers.js';

const service = embeddedExtraction();

describe('text-to-json answers always validate against the caller schema', () => {
  const cases: { name: string; draft: '04' | '07' | '2019' | '2020'; schema: Record<string, unknown> }[] = [
    {
      name: 'draft-04 with boolean exclusiveMinimum and definitions',
      draft: '04',
      schema: {
        $schema: 'http://json-schema.org/draft-04/schema#',
        type: 'object',
        required: ['score', 'visit'],
        properties: { score: { type: 'number', minimum: 0, exclusiveMinimum: true, maximum: 10 }, visit: { $ref: '#/definitions/visit' } },
        definitions: { visit: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^V-[0-9]{4}$' } } } },
      },
    },
    {
      name: 'draft-07 union types, enum, const, additionalProperties false',
      draft: '07',
      schema: {
        type: 'object',
        additionalProperties: false,
        required: ['kind', 'version', 'note', 'tags'],
        properties: {
          kind: { const: 'encounter' },
          version: { enum: [2, 3] },
          note: { type: ['string', 'null'], maxLength: 5 },
          tags: { type: 'array', items: { type: 'string', minLength: 2 }, minItems: 2, uniqueItems: true },
        },
      },
    },
    {
      name: '2019-09 $defs with anyOf/oneOf/allOf',
      draft: '2019',
      schema: {
        $schema: 'https://json-schema.org/draft/2019-09/schema',
        type: 'object',
        required: ['contact', 'code', 'both'],
        properties: {
          contact: { oneOf: [{ $ref: '#/$defs/phone' }, { $ref: '#/$defs/email' }] },
          code: { anyOf: [{ type: 'integer', minimum: 100 }, { type: 'string', format: 'uuid' }] },
          both: { allOf: [{ type: 'string', minLength: 3 }, { maxLength: 4 }] },
        },
        $defs: {
          phone: { type: 'object', required: ['phone'], properties: { phone: { type: 'string', pattern: '^\\+?[0-9]{7,12}$' } }, additionalProperties: false },
          email: { type: 'object', required: ['email'], properties: { email: { type: 'string', format: 'email' } }, additionalProperties: false },
        },
      },
    },
    {
      name: '2020-12 prefixItems, minContains and formats',
      draft: '2020',
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        required: ['pair', 'when', 'times', 'site'],
        properties: {
          pair: { type: 'array', prefixItems: [{ type: 'string', format: 'date' }, { type: 'integer', multipleOf: 5, minimum: 12 }], minItems: 2, items: false },
          when: { type: 'string', format: 'date-time' },
          times: { type: 'array', contains: { type: 'integer', minimum: 3 }, minContains: 2, items: { type: 'integer' } },
          site: { type: 'string', format: 'uri' },
        },
      },
    },
    {
      name: 'if/then/else, dependentRequired, minProperties and not',
      draft: '2020',
      schema: {
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        type: 'object',
        minProperties: 3,
        required: ['smoker'],
        properties: { smoker: { type: 'boolean' }, packs: { type: 'number', minimum: 0.5 }, status: { type: 'string', not: { const: '' } } },
        if: { properties: { smoker: { const: true } } },
        then: { required: ['packs'] },
        dependentRequired: { packs: ['status'] },
      },
    },
  ];

  for (const c of cases) {
    it(c.name, async () => {
      const answer = await service.extract(NOTE, c.schema);
      expect(validatesAgainst(c.schema, answer, c.draft)).toBe(true);
    });
  }

  it('fills a required, non-nullable field the text does not support with a valid least-committal value', async () => {
    const schema = { type: 'object', required: ['insurer', 'copay'], properties: { insurer: { type: 'string' }, copay: { type: 'number', minimum: 5 } } };
    const answer = (await service.extract('No billing details were discussed.', schema)) as Record<string, unknown>;
    expect(answer).toEqual({ insurer: '', copay: 5 });
  });

  it('answers null for unsupported nullable fields and [] for unsupported arrays', async () => {
    const schema = { type: 'object', properties: { diagnosis: { type: ['string', 'null'] }, medications: { type: ['array', 'null'], items: { type: 'string' } }, labs: { type: 'array', items: { type: 'string' } } } };
    const answer = await service.extract('Patient feels well today.', schema);
    expect(answer).toEqual({ diagnosis: null, medications: null, labs: [] });
  });

  it('handles recursive $ref schemas without looping', async () => {
    const schema = {
      type: 'object', required: ['root'],
      properties: { root: { $ref: '#/definitions/node' } },
      definitions: { node: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, children: { type: 'array', items: { $ref: '#/definitions/node' } } } } },
    };
    const answer = await service.extract(NOTE, schema);
    expect(validatesAgainst(schema, answer)).toBe(true);
  });

  it('compiles each distinct schema once and reuses it', async () => {
    const local = embeddedExtraction();
    const schema = { type: 'object', properties: { age: { type: 'integer' } } };
    const first = await local.extract(NOTE, schema);
    const second = await local.extract(NOTE, JSON.parse(JSON.stringify(schema)));
    expect(first).toEqual({ age: 67 });
    expect(second).toEqual(first);
  });
});
