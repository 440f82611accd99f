import fc from 'fast-check';
import { hostileValue, mutateAt } from './fuzz-arbitraries.js';

/**
 * Requests generated from the OpenAPI document itself: for each operation, values that satisfy
 * its schemas (so the fuzzer reaches past validation into the handlers), values on and just past
 * each schema's bounds, and malformed ones (wrong types, huge, deep), plus odd headers. Nothing
 * here knows a route by name: a new route is fuzzed the day it is documented.
 */

export type Schema = Record<string, any>;
export type Doc = { paths: Record<string, Record<string, Operation>>; components?: Record<string, unknown> };
export interface Operation {
  operationId: string;
  parameters?: Array<{ name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: Schema }>;
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  'x-websocket'?: unknown;
}

const MAX_DEPTH = 5;

/** Follows a local `$ref` (`#/components/...`) through the document. */
export function deref(schema: Schema | undefined, doc: Doc): Schema {
  let s = schema ?? {};
  for (let hops = 0; typeof s.$ref === 'string' && hops < 20; hops++) {
    const ref = s.$ref as string;
    if (!ref.startsWith('#/')) return {};
    let at: any = doc;
    for (const part of ref.slice(2).split('/')) at = at?.[part.replace(/~1/g, '/').replace(/~0/g, '~')];
    s = (at ?? {}) as Schema;
  }
  return s;
}

/** Two object schemas as one: properties and required keys united, the second's words winning. */
const merge = (a: Schema, b: Schema): Schema => ({
  ...a, ...b, properties: { ...(a.properties ?? {}), ...(b.properties ?? {}) }, required: [...new Set([...(a.required ?? []), ...(b.required ?? [])])],
});

/** An `allOf` schema as its merged plain parts, and one full schema per `if`/`then` case. */
function splitAllOf(s: Schema, doc: Doc): { base: Schema; branches: Schema[] } {
  const { allOf, ...rest } = s;
  const parts = (allOf as Schema[]).map((p) => deref(p, doc));
  const base = parts.filter((p) => !(p.if && p.then)).reduce(merge, rest as Schema);
  return { base, branches: parts.filter((p) => p.if && p.then).map((p) => merge(base, deref(p.then, doc))) };
}

/** The schema that governs `value`: union branch or `if`/`then` case that fits it. */
function effective(schema: Schema | undefined, value: unknown, doc: Doc): Schema {
  let s = deref(schema, doc);
  const union = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (union) s = deref(union.find((b) => fits(value, deref(b, doc))) ?? union[0], doc);
  if (Array.isArray(s.allOf)) {
    const { base, branches } = splitAllOf(s, doc);
    const matching = branches.find((b) => Object.entries((b.properties ?? {}) as Record<string, Schema>).every(([k, p]) => !('const' in p) || (value as Record<string, unknown>)?.[k] === p.const));
    s = matching ?? base;
  }
  return s;
}

const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

function stringValue(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? min + 24, min + 24);
  if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === 'date') return fc.date({ min: new Date('2000-01-01'), max: new Date('2035-01-01'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
  if (s.format === 'uri' || s.format === 'url') return fc.constantFrom('https://hooks.example.org/clindoc', 'http://127.0.0.1:9/hook');
  if (typeof s.pattern === 'string') {
    try {
      return fc.stringMatching(new RegExp(s.pattern)).filter((v) => v.length >= min && v.length <= (s.maxLength ?? Infinity));
    } catch {
      // a pattern JavaScript cannot compile: fall through to plain strings
    }
  }
  return fc.string({ minLength: min, maxLength: Math.max(min, max) });
}

/** Values that satisfy `schema` (as far as a generator can tell without a solver). */
export function validValue(schema: Schema | undefined, doc: Doc, depth = 0): fc.Arbitrary<unknown> {
  // Arbitraries are built eagerly, so a recursive schema (sections within sections) must stop here.
  if (depth > MAX_DEPTH * 3) return fc.constant(null);
  const s = deref(schema, doc);
  if ('const' in s) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (branches?.length) return fc.oneof(...branches.map((b) => validValue(b, doc, depth + 1)));
  if (Array.isArray(s.allOf)) {
    // Plain parts merge into the schema; `if`/`then` parts are alternatives (a discriminated union).
    const { base, branches: cases } = splitAllOf(s, doc);
    return cases.length ? fc.oneof(...cases.map((c) => validValue(c, doc, depth + 1))) : validValue(base, doc, depth + 1);
  }
  const types = typesOf(s);
  if (types.length > 1) return fc.oneof(...types.map((type) => validValue({ ...s, type }, doc, depth)));
  switch (types[0] ?? (s.properties ? 'object' : s.items ? 'array' : undefined)) {
    case 'string': return stringValue(s);
    case 'integer': return fc.integer({ min: Math.max(s.minimum ?? -1000, -1e9), max: Math.min(s.maximum ?? 1000, 1e9) });
    case 'number': return fc.double({ min: s.minimum ?? -1000, max: s.maximum ?? 1000, noNaN: true, noDefaultInfinity: true });
    case 'boolean': return fc.boolean();
    case 'null': return fc.constant(null);
    case 'array': {
      const minItems = s.minItems ?? 0;
      const maxItems = depth >= MAX_DEPTH ? minItems : Math.min(s.maxItems ?? minItems + 3, minItems + 3);
      if (maxItems === 0) return fc.constant([]);
      const item = validValue(s.items as Schema, doc, depth + 1);
      return s.uniqueItems
        ? fc.uniqueArray(item, { minLength: minItems, maxLength: maxItems, selector: (v) => JSON.stringify(v) })
        : fc.array(item, { minLength: minItems, maxLength: maxItems });
    }
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, Schema>;
      const required = new Set<string>(s.required ?? []);
      const keys = Object.keys(props).filter((k) => required.has(k) || depth < MAX_DEPTH);
      // A string property named like a URL or a date gets one (schemas rarely say `format`).
      const valueFor = (k: string): fc.Arbitrary<unknown> => {
        const p = deref(props[k], doc);
        const plainString = typesOf(p).includes('string') && !p.enum && !p.format && !p.pattern;
        if (plainString && /url$/i.test(k)) return fc.constantFrom('https://hooks.example.org/clindoc', 'http://127.0.0.1:9/hook');
        if (plainString && /date|birth/i.test(k)) return stringValue({ format: 'date' });
        return validValue(props[k], doc, depth + 1);
      };
      const record = fc.record(Object.fromEntries(keys.map((k) => [k, valueFor(k)])), { requiredKeys: keys.filter((k) => required.has(k)) });
      // Unknown fields must be ignored (API-DECISIONS), so valid bodies sometimes carry one.
      if (s.additionalProperties === false) return record;
      return fc.tuple(record, fc.option(fc.jsonValue({ maxDepth: 1 }), { freq: 4 })).map(([r, extra]) => (extra === null ? r : { ...r, fuzzExtraField: extra }));
    }
    default: return fc.jsonValue({ maxDepth: 2 });
  }
}

/** Values on and just past the edges of one schema node (lengths, ranges, counts, required keys). */
export function boundaryValue(schema: Schema | undefined, doc: Doc): fc.Arbitrary<unknown> {
  const s = deref(schema, doc);
  const edges: unknown[] = [null, '', 0, -1, [], {}];
  const types = typesOf(s);
  if (types.includes('string')) {
    const min = s.minLength ?? 0;
    edges.push('x'.repeat(min), 'é'.repeat(min), '\u0000', '\ud83d\ude00'.repeat(Math.max(1, min)), 'a\u202eb', ' ');
    if (min > 0) edges.push('x'.repeat(min - 1));
    if (s.maxLength !== undefined) edges.push('x'.repeat(s.maxLength), 'x'.repeat(s.maxLength + 1), '\ud83d\ude00'.repeat(s.maxLength));
  }
  if (types.includes('integer') || types.includes('number')) {
    if (s.minimum !== undefined) edges.push(s.minimum, s.minimum - 1);
    if (s.maximum !== undefined) edges.push(s.maximum, s.maximum + 1);
    edges.push(1.5, -0, 2 ** 31, 2 ** 53 + 1, 1e308, -1e308);
  }
  if (types.includes('array') && s.items) {
    const one = fc.sample(validValue(s.items as Schema, doc, MAX_DEPTH), { numRuns: 1, seed: 1 })[0];
    if (s.minItems) edges.push(Array(s.minItems - 1).fill(one));
    if (s.maxItems !== undefined) edges.push(Array(s.maxItems).fill(one), Array(s.maxItems + 1).fill(one));
    edges.push(Array(5000).fill(one));
  }
  if (s.properties) {
    const sample = fc.sample(validValue(s, doc, MAX_DEPTH), { numRuns: 1, seed: 2 })[0] as Record<string, unknown>;
    for (const key of (s.required ?? []) as string[]) {
      const { [key]: _dropped, ...rest } = sample ?? {};
      edges.push(rest);
    }
  }
  if (Array.isArray(s.enum)) edges.push(`${String(s.enum[0])}x`, String(s.enum[0]).toUpperCase(), ` ${String(s.enum[0])}`);
  return fc.constantFrom(...edges);
}

type Path = Array<string | number>;

/** Each place in `value` with the schema that governs it (first fitting branch of a union). */
export function schemaPaths(value: unknown, schema: Schema | undefined, doc: Doc, path: Path = []): Array<{ path: Path; schema: Schema }> {
  const s = effective(schema, value, doc);
  const out = [{ path, schema: s }];
  if (Array.isArray(value) && s.items) value.forEach((v, i) => out.push(...schemaPaths(v, s.items as Schema, doc, [...path, i])));
  else if (value && typeof value === 'object' && s.properties) {
    for (const [k, v] of Object.entries(value)) if (s.properties[k]) out.push(...schemaPaths(v, s.properties[k] as Schema, doc, [...path, k]));
  }
  return out;
}

function fits(value: unknown, s: Schema): boolean {
  const types = typesOf(s);
  if (!types.length) return true;
  const t = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

/** A JSON body for an operation: valid, one value at a bound, one hostile value, or malformed text. */
export function jsonBody(schema: Schema, doc: Doc): fc.Arbitrary<{ kind: string; bytes: Buffer }> {
  const valid = validValue(schema, doc);
  const json = (v: unknown): Buffer => Buffer.from(JSON.stringify(v) ?? 'null', 'utf8');
  return fc.oneof(
    { weight: 4, arbitrary: valid.map((v) => ({ kind: 'valid', bytes: json(v) })) },
    {
      weight: 3,
      arbitrary: valid.chain((v) => {
        const places = schemaPaths(v, schema, doc);
        return fc.constantFrom(...places).chain((p) => boundaryValue(p.schema, doc).map((b) => ({ kind: 'boundary', bytes: json(mutateAt(v, p.path, b)) })));
      }),
    },
    { weight: 2, arbitrary: valid.chain((v) => fc.tuple(fc.constantFrom(...schemaPaths(v, schema, doc)), hostileValue()).map(([p, h]) => ({ kind: 'hostile', bytes: json(mutateAt(v, p.path, h)) }))) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        valid.map((v) => json(v).subarray(0, Math.max(1, Math.floor(json(v).length / 2)))),
        fc.constantFrom('', '{', 'null', '[]', '"', '{"a":1,}', `${'['.repeat(60_000)}${']'.repeat(60_000)}`, `{"a":${'{"a":'.repeat(8000)}1${'}'.repeat(8001)}`, `{"k":"${'A'.repeat(900_000)}"}`)
          .map((t) => Buffer.from(t)),
        fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.concat([Buffer.from('{"text":"'), Buffer.from(b), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')])),
      ).map((bytes) => ({ kind: 'malformed', bytes })),
    },
  );
}

/** Odd request headers: content types, encodings, oversized and strange values, idempotency and version headers. */
export function oddHeaders(): fc.Arbitrary<Record<string, string>> {
  const contentTypes = ['application/json', 'application/json; charset=utf-16', 'application/json; charset=latin-7', 'text/plain', 'application/x-www-form-urlencoded',
    'multipart/form-data', 'multipart/form-data; boundary=x', 'application/merge-patch+json', '*/*', 'application/json, text/html', 'audio/wav', ''];
  return fc.record({
    'content-type': fc.constantFrom(...contentTypes),
    'idempotency-key': fc.oneof(fc.constant(''), fc.string({ minLength: 1, maxLength: 300 }).map((k) => k.replace(/[^\x21-\x7e]/g, 'k') || 'k')),
    'if-match': fc.constantFrom('"1"', '*', 'W/"1"', '"x"', '1', '"99999999999999999999"'),
    accept: fc.constantFrom('application/json', 'text/html', '*/*', 'application/xml'),
    'content-encoding': fc.constantFrom('gzip', 'deflate', 'br', 'identity', 'x-unknown'),
    'x-fuzz-large': fc.constantFrom('v', 'v'.repeat(6000)),
  }, { requiredKeys: [] });
}

/** A path parameter: an id from the pool (another account's, our own, the last created) or a strange one. */
export function pathParam(pool: () => string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.integer({ min: 0, max: 1_000 }).map((i) => { const ids = pool(); return encodeURIComponent(ids.length ? ids[i % ids.length]! : 'none'); }) },
    { weight: 2, arbitrary: fc.constantFrom('..', '%2e%2e%2f%2e%2e%2fetc%2fpasswd', '%00', '%E2%80%AE', 'a'.repeat(5000), 'x%2Fy', '__proto__', 'constructor', '%F0%9F%98%80', '-1', '0', '%20') },
    { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 40 }).map(encodeURIComponent) },
  );
}

/** A query string for the operation's documented query parameters: valid, boundary and unknown ones. */
export function queryString(op: Operation, doc: Doc): fc.Arbitrary<string> {
  const params = (op.parameters ?? []).filter((p) => p.in === 'query');
  const value = (p: (typeof params)[number]): fc.Arbitrary<unknown> => fc.oneof(validValue(p.schema, doc), boundaryValue(p.schema, doc), fc.string({ maxLength: 30 }));
  const pairs = fc.tuple(...params.map((p) => fc.option(value(p).map((v) => [p.name, typeof v === 'object' ? JSON.stringify(v) : String(v)] as const), { freq: 2 })));
  const extra = fc.option(fc.constantFrom('limit=1&limit=2', 'cursor[]=x', '__proto__[x]=1', `q=${'z'.repeat(3000)}`, 'unknown=1'), { freq: 3 });
  return fc.tuple(pairs, extra).map(([ps, e]) => {
    const q = new URLSearchParams(ps.filter((p): p is readonly [string, string] => p !== null).map(([k, v]) => [k, v]));
    const text = [q.toString(), e ?? ''].filter(Boolean).join('&');
    return text ? `?${text}` : '';
  });
}
