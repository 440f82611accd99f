import { isObject, jsonEqual, typesOf, type Draft, type RefResolver, type Schema, type SchemaObject } from './schema-walk.js';

/** Raised when a schema, or a part that must be present, admits no value at all. */
export class UnsatisfiableError extends Error {}

const MAX_KEYS = new Set(['maximum', 'maxLength', 'maxItems', 'maxProperties', 'maxContains']);
const MIN_KEYS = new Set(['minimum', 'minLength', 'minItems', 'minProperties', 'minContains']);

/**
 * The schema a value must meet at one spot, with `$ref` followed and `allOf` folded in, so the
 * generator sees one set of keywords. `anyOf`/`oneOf`/`not`/`if` stay for the generator to decide.
 */
export function effectiveSchema(schema: Schema, draft: Draft, refs: RefResolver, depth = 0): Schema {
  if (typeof schema === 'boolean') return schema;
  if (depth > 32) return schema;
  let current: SchemaObject = schema;
  if (typeof current.$ref === 'string') {
    const target = refs.resolve(current.$ref);
    if (target === undefined) throw new UnsatisfiableError(`$ref "${current.$ref}" cannot be resolved`);
    const resolved = effectiveSchema(target, draft, refs, depth + 1);
    const { $ref: _ref, ...siblings } = current;
    const legacy = draft === '04' || draft === '06' || draft === '07';
    if (legacy || Object.keys(siblings).length === 0) return resolved;
    current = siblings;
    if (resolved === false) return false;
    if (resolved !== true) current = mergeSchemas(current, resolved);
  }
  if (Array.isArray(current.allOf)) {
    const { allOf, ...rest } = current;
    let merged: Schema = rest;
    for (const part of allOf as Schema[]) {
      const eff = effectiveSchema(part, draft, refs, depth + 1);
      if (eff === false) return false;
      if (eff === true) continue;
      merged = mergeSchemas(merged as SchemaObject, eff);
    }
    return merged;
  }
  return current;
}

/** Combines two schemas a value must both meet (best effort; the final validation is ajv's). */
export function mergeSchemas(a: SchemaObject, b: SchemaObject): SchemaObject {
  const out: SchemaObject = { ...a };
  for (const [key, value] of Object.entries(b)) {
    if (!(key in out)) {
      out[key] = value;
      continue;
    }
    const prev = out[key];
    if (jsonEqual(prev, value)) continue;
    if (key === 'type') {
      out.type = intersectTypes(typesOf(a) ?? [], typesOf(b) ?? []);
    } else if (key === 'required' && Array.isArray(prev) && Array.isArray(value)) {
      out.required = [...new Set([...prev, ...value])];
    } else if ((key === 'properties' || key === 'patternProperties') && isObject(prev) && isObject(value)) {
      const merged: Record<string, unknown> = { ...prev };
      for (const [name, sub] of Object.entries(value)) {
        merged[name] = name in merged ? combine(merged[name], sub) : sub;
      }
      out[key] = merged;
    } else if (key === 'enum' && Array.isArray(prev) && Array.isArray(value)) {
      out.enum = prev.filter((p) => value.some((v) => jsonEqual(p, v)));
    } else if (MAX_KEYS.has(key) && typeof prev === 'number' && typeof value === 'number') {
      out[key] = Math.min(prev, value);
    } else if (MIN_KEYS.has(key) && typeof prev === 'number' && typeof value === 'number') {
      out[key] = Math.max(prev, value);
    } else if (key === 'not') {
      out.not = { anyOf: [prev, value] };
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(prev) && Array.isArray(value)) {
      // Two alternative lists at once: every pairing is an alternative (kept small on purpose).
      if (prev.length * value.length <= 16) out[key] = prev.flatMap((p) => value.map((v) => ({ allOf: [p, v] })));
    } else if (key === 'additionalProperties' || key === 'items' || key === 'additionalItems' || key === 'contains' || key === 'propertyNames') {
      out[key] = combine(prev, value);
    }
    // Other conflicts (annotations, formats) keep the first value.
  }
  return out;
}

function combine(a: unknown, b: unknown): unknown {
  if (a === false || b === false) return false;
  if (a === true || a === undefined) return b;
  if (b === true || b === undefined) return a;
  return { allOf: [a, b] };
}

function intersectTypes(a: string[], b: string[]): string[] {
  if (a.length === 0) return b;
  if (b.length === 0) return a;
  const out = new Set<string>();
  for (const x of a) {
    for (const y of b) {
      if (x === y) out.add(x);
      else if ((x === 'integer' && y === 'number') || (x === 'number' && y === 'integer')) out.add('integer');
    }
  }
  if (out.size === 0) throw new UnsatisfiableError(`allOf requires types [${a.join(', ')}] and [${b.join(', ')}] at once`);
  return [...out];
}
