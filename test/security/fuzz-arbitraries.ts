import fc from 'fast-check';

/** A known-valid body for each JSON operation (by operationId); the fuzzer mutates these. */
export const VALID_BODIES: Record<string, unknown> = {
  createNote: { transcript: '[doctor] Any chest pain? [patient] No, only a cough.', noteType: { type: 'soap', includeJson: true }, language: 'en', date: '2026-01-02' },
  createNoteStyle: { sampleNote: 'HPI\nCough for two days.\n\nPLAN\n- Rest.', instructions: ['Be brief'] },
  textToJson: { text: '45 year old male, BP 130/85.', schema: { type: 'object', properties: { age: { type: ['integer', 'null'] }, bp: { type: 'string', pattern: '^[0-9]+/[0-9]+$' } }, required: ['age'] } },
  detectAndExpandMacros: { text: 'insert normal chest exam please', macros: [{ id: 'nce', examples: ['normal chest exam'], expansion_text: 'Lungs clear.' }] },
  createNoteTemplate: { id: 'tpl', title: 'T', sections: [{ id: 'h', type: 'heading', properties: { level: 1, text: 'S' }, children: [{ id: 't', type: 'text', prompt: 'History', properties: {} }] }] },
  replaceNoteTemplate: { id: 'fuzz-id', title: 'T', sections: [{ id: 'l', type: 'list', prompt: 'Plan', properties: { list_type: 'bullet' } }] },
  createWebhook: { url: 'http://127.0.0.1:9/hook', events: ['note_generation.succeeded'] },
  createSavedMacro: { id: 'm', examples: ['normal chest exam'], expansion_text: 'Lungs clear.' },
  replaceSavedMacro: { id: 'fuzz-id', examples: ['normal chest exam'], expansion_text: 'Lungs clear.' },
  setRetention: { days: 30 },
  setEngineSettings: { asrEngine: 'pocketsphinx' },
  analyzeCoding: { text: 'Type 2 diabetes mellitus without complications; office visit.' },
  codingAnalyze: { text: 'Type 2 diabetes mellitus without complications; office visit.' },
};

type Path = Array<string | number>;

/** Every path to a value in a JSON document (the root included). */
export function pathsOf(value: unknown, prefix: Path = []): Path[] {
  const out: Path[] = [prefix];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pathsOf(v, [...prefix, i])));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pathsOf(v, [...prefix, k]));
  return out;
}

/** A copy of `doc` with the value at `path` replaced. */
export function mutateAt(doc: unknown, path: Path, value: unknown): unknown {
  if (!path.length) return value;
  const copy: any = Array.isArray(doc) ? [...doc] : { ...(doc as object) };
  const [head, ...rest] = path;
  copy[head as string] = mutateAt(copy[head as string], rest, value);
  return copy;
}

const nested = (depth: number, leaf: unknown, asArray: boolean): unknown => {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = asArray ? [v] : { a: v };
  return v;
};

/** Schemas and patterns built to hurt a validator or an extractor. */
export const HOSTILE_SCHEMAS: unknown[] = [
  { $ref: '#' },
  { type: 'object', properties: { a: { $ref: '#' } }, required: ['a'] },
  { definitions: { a: { $ref: '#/definitions/b' }, b: { $ref: '#/definitions/a' } }, $ref: '#/definitions/a' },
  { $defs: { n: { type: 'object', properties: { next: { $ref: '#/$defs/n' } }, required: ['next'] } }, $ref: '#/$defs/n' },
  { type: 'object', properties: { s: { type: 'string', pattern: '^(a+)+$' } }, required: ['s'] },
  { type: 'object', properties: { s: { type: 'string', pattern: '(x+x+)+y' } } },
  { type: 'object', properties: { s: { type: 'string', pattern: '^(([a-z])+.)+[A-Z]([a-z])+$' } } },
  { type: 'object', properties: { s: { type: 'string', pattern: '(?<=a)b\\1(' } } },
  { type: 'object', properties: { s: { type: 'string', format: 'regex', pattern: '['.repeat(500) } } },
  { type: 'array', items: { type: 'array', items: { type: 'array', minItems: 1000000 } }, minItems: 1000000 },
  { type: 'string', minLength: 1_000_000_000 },
  { type: 'object', minProperties: 100_000 },
  { type: 'array', items: { type: 'string', minLength: 100_000 }, minItems: 2000 },
  { type: 'object', properties: { constructor: { type: 'string' }, toString: { type: 'integer' }, hasOwnProperty: { type: 'string' } }, required: ['constructor'] },
  { allOf: Array.from({ length: 200 }, (_, i) => ({ anyOf: [{ type: 'object', required: [`k${i}`] }, { not: { type: 'object' } }] })) },
  { type: 'object', patternProperties: { '^(a|a)*$': { type: 'string' } } },
  { enum: Array.from({ length: 5000 }, (_, i) => `v${i}`) },
  { $ref: 'http://127.0.0.1:9/remote.json' },
  { $ref: 'file:///etc/passwd' },
  nested(2000, { type: 'string' }, false),
  { type: 'object', properties: { __proto__: { type: 'string' }, constructor: { type: 'string' } } },
];

/** One hostile value: wrong types, huge strings, deep nesting, prototype keys, odd numbers, bad schemas. */
export function hostileValue(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.constantFrom(null, true, false, 0, -1, 1e308, -1e308, 2 ** 53 + 1, 1.5, '', ' ', '\u0000', '\ud800', 'A'.repeat(300_000)),
    fc.string({ maxLength: 200, unit: 'grapheme' }),
    fc.integer({ min: 1, max: 3000 }).map((d) => nested(d, 'x', true)),
    fc.integer({ min: 1, max: 3000 }).map((d) => nested(d, 'x', false)),
    fc.constantFrom(...HOSTILE_SCHEMAS),
    fc.constant(JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}') as unknown),
    fc.array(fc.string({ maxLength: 20 }), { minLength: 0, maxLength: 2000 }),
    fc.constant(Array.from({ length: 2000 }, (_, i) => ({ id: `m${i}`, examples: ['a '.repeat(50)], expansion_text: 'x' }))),
  );
}
