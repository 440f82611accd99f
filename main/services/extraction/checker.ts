import { fullFormats } from 'ajv-formats/dist/formats.js';
import { compileSafeRegExp, type SafeRegExp } from './safe-regexp.js';
import {
  dependentRequired, dependentSchemas, isObject, jsonEqual, jsonTypeOf, numericBounds, restItems,
  tupleItems, typesOf, type Draft, type RefResolver, type Schema,
} from './schema-walk.js';

/**
 * A small, draft-aware validator used while *building* an answer (to choose between `anyOf`/
 * `oneOf` branches, honour `not`, `if`, `contains`, `propertyNames`). ajv remains the judge of
 * the final answer; this only has to agree with it on the common keywords, quickly.
 */
export interface Checker {
  check(schema: Schema | undefined, value: unknown): boolean;
  format(name: string, value: string): boolean;
  pattern(source: string): SafeRegExp | undefined;
}

export function createChecker(draft: Draft, refs: RefResolver): Checker {
  const c: CheckContext = { draft, refs, pattern: patternCache() };
  return { check: (schema, value) => checkSchema(c, schema, value), format: checkFormat, pattern: c.pattern };
}

/** What checking needs beyond the schema and the value: the draft, `$ref` targets, compiled patterns. */
interface CheckContext {
  draft: Draft;
  refs: RefResolver;
  pattern(source: string): SafeRegExp | undefined;
}

/** Patterns compiled once per source; one that cannot be compiled safely is `undefined` (never matches). */
function patternCache(): (source: string) => SafeRegExp | undefined {
  const patterns = new Map<string, SafeRegExp | undefined>();
  return (source) => {
    if (!patterns.has(source)) {
      try {
        patterns.set(source, compileSafeRegExp(source));
      } catch {
        patterns.set(source, undefined);
      }
    }
    return patterns.get(source);
  };
}

function checkFormat(name: string, value: string): boolean {
  const def = (fullFormats as Record<string, unknown>)[name];
  if (def instanceof RegExp) return def.test(value);
  if (typeof def === 'function') return Boolean((def as (s: string) => boolean)(value));
  if (isObject(def) && typeof def.validate === 'function') {
    if (def.type !== undefined && def.type !== 'string') return true;
    return Boolean((def.validate as (s: string) => boolean)(value));
  }
  if (isObject(def) && def.validate instanceof RegExp) return def.validate.test(value);
  return true; // unknown formats are annotations
}

function checkSchema(c: CheckContext, schema: Schema | undefined, value: unknown, depth = 0): boolean {
  if (schema === undefined || schema === true) return true;
  if (schema === false) return false;
  if (depth > 64) return true;
  const s = schema;
  const check = (sub: unknown, v: unknown): boolean => checkSchema(c, sub as Schema | undefined, v, depth + 1);
  if (typeof s.$ref === 'string') {
    if (!check(c.refs.resolve(s.$ref), value)) return false;
    // Before 2019-09 a `$ref` hides its sibling keywords.
    if (c.draft === '04' || c.draft === '06' || c.draft === '07') return true;
  }
  const type = jsonTypeOf(value);
  const types = typesOf(s);
  if (types && !types.some((t) => t === type || (t === 'number' && type === 'integer'))) return false;
  if (Array.isArray(s.enum) && !s.enum.some((e) => jsonEqual(e, value))) return false;
  if ('const' in s && !jsonEqual(s.const, value)) return false;
  if (Array.isArray(s.allOf) && !s.allOf.every((sub) => check(sub, value))) return false;
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => check(sub, value))) return false;
  if (Array.isArray(s.oneOf) && s.oneOf.filter((sub) => check(sub, value)).length !== 1) return false;
  if (s.not !== undefined && check(s.not, value)) return false;
  if (s.if !== undefined) {
    const branch = check(s.if, value) ? s.then : s.else;
    if (!check(branch, value)) return false;
  }
  if (typeof value === 'number') return checkNumber(s, value);
  if (typeof value === 'string') return checkString(c, s, value);
  if (Array.isArray(value)) return checkArray(c, s, value, depth);
  if (isObject(value)) return checkObject(c, s, value, depth);
  return true;
}

function checkNumber(s: Record<string, unknown>, value: number): boolean {
  const b = numericBounds(s);
  if (b.min !== undefined && (b.exMin ? value <= b.min : value < b.min)) return false;
  if (b.max !== undefined && (b.exMax ? value >= b.max : value > b.max)) return false;
  if (typeof s.multipleOf === 'number' && s.multipleOf > 0) {
    const q = value / s.multipleOf;
    if (Math.abs(q - Math.round(q)) > 1e-9) return false;
  }
  return true;
}

function checkString(c: CheckContext, s: Record<string, unknown>, value: string): boolean {
  const length = [...value].length;
  if (typeof s.minLength === 'number' && length < s.minLength) return false;
  if (typeof s.maxLength === 'number' && length > s.maxLength) return false;
  if (typeof s.pattern === 'string') {
    const re = c.pattern(s.pattern);
    if (!re || !re.test(value)) return false;
  }
  if (typeof s.format === 'string' && !checkFormat(s.format, value)) return false;
  return true;
}

function checkArray(c: CheckContext, s: Record<string, unknown>, value: unknown[], depth: number): boolean {
  if (typeof s.minItems === 'number' && value.length < s.minItems) return false;
  if (typeof s.maxItems === 'number' && value.length > s.maxItems) return false;
  const tuple = tupleItems(s, c.draft);
  const rest = restItems(s, c.draft);
  for (let i = 0; i < value.length; i++) {
    const sub = i < tuple.length ? tuple[i] : rest;
    if (!checkSchema(c, sub, value[i], depth + 1)) return false;
  }
  if (s.uniqueItems === true) {
    for (let i = 0; i < value.length; i++) {
      for (let j = i + 1; j < value.length; j++) if (jsonEqual(value[i], value[j])) return false;
    }
  }
  if (s.contains !== undefined) {
    const hits = value.filter((v) => checkSchema(c, s.contains as Schema, v, depth + 1)).length;
    const min = typeof s.minContains === 'number' ? s.minContains : 1;
    if (hits < min) return false;
    if (typeof s.maxContains === 'number' && hits > s.maxContains) return false;
  }
  return true;
}

function checkObject(c: CheckContext, s: Record<string, unknown>, value: Record<string, unknown>, depth: number): boolean {
  const check = (sub: unknown, v: unknown): boolean => checkSchema(c, sub as Schema | undefined, v, depth + 1);
  const keys = Object.keys(value);
  if (typeof s.minProperties === 'number' && keys.length < s.minProperties) return false;
  if (typeof s.maxProperties === 'number' && keys.length > s.maxProperties) return false;
  if (Array.isArray(s.required) && !s.required.every((k) => typeof k !== 'string' || k in value)) return false;
  const props = isObject(s.properties) ? s.properties : {};
  const patternProps = isObject(s.patternProperties) ? Object.entries(s.patternProperties) : [];
  for (const key of keys) {
    let matched = false;
    if (Object.prototype.hasOwnProperty.call(props, key)) {
      matched = true;
      if (!check(props[key], value[key])) return false;
    }
    for (const [source, sub] of patternProps) {
      if (c.pattern(source)?.test(key)) {
        matched = true;
        if (!check(sub, value[key])) return false;
      }
    }
    if (!matched && s.additionalProperties !== undefined && !check(s.additionalProperties, value[key])) return false;
    if (s.propertyNames !== undefined && !check(s.propertyNames, key)) return false;
  }
  for (const [key, needed] of Object.entries(dependentRequired(s))) {
    if (key in value && !needed.every((k) => k in value)) return false;
  }
  for (const [key, sub] of Object.entries(dependentSchemas(s))) {
    if (key in value && !check(sub, value)) return false;
  }
  return true;
}
