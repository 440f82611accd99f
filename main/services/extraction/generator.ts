import type { BuildContext } from './build-context.js';
import { effectiveSchema, mergeSchemas, UnsatisfiableError } from './schema-merge.js';
import {
  isObject, jsonEqual, jsonTypeOf, numericBounds, typesOf,
  type Schema, type SchemaObject,
} from './schema-walk.js';
import { FORMAT_SAMPLES, stringsForPattern } from './string-gen.js';
import { buildArray, buildObject } from './generator-containers.js';

export type { BuildContext } from './build-context.js';

/** Nesting beyond which only required content is produced (recursive `$ref`s end here). */
const SOFT_DEPTH = 12;
const HARD_DEPTH = 48;

/**
 * Builds a value meeting `schema`, taking extracted `hint` values where they fit. `undefined`
 * hints mean "the text does not say": the least-committal value is produced (null where
 * allowed, [] for arrays, otherwise the smallest valid value). Throws UnsatisfiableError when a
 * required part admits nothing.
 */
export function buildValue(schema: Schema | undefined, hint: unknown, ctx: BuildContext, depth = 0): unknown {
  if (--ctx.steps < 0) throw new UnsatisfiableError('schema is too complex to answer within limits');
  if (depth > HARD_DEPTH) throw new UnsatisfiableError('schema requires unbounded nesting (recursive required $ref)');
  if (schema === undefined || schema === true) return hint === undefined ? null : hint;
  if (schema === false) throw new UnsatisfiableError('a required part of the schema is `false`');
  const s = effectiveSchema(schema, ctx.draft, ctx.refs);
  if (s === false) throw new UnsatisfiableError('a required part of the schema admits no value');
  if (s === true) return hint === undefined ? null : hint;

  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return pickEnum(s, hint, ctx);
  const choices = Array.isArray(s.oneOf) ? s.oneOf : Array.isArray(s.anyOf) ? s.anyOf : undefined;
  if (choices) return buildChoice(s, choices as Schema[], hint, ctx, depth);
  if (s.if !== undefined) return buildConditional(s, hint, ctx, depth);
  const value = buildTyped(s, hint, ctx, depth);
  if (s.not !== undefined && ctx.checker.check(s.not as Schema, value)) return escapeNot(s, value, ctx, depth);
  return value;
}

function pickEnum(s: SchemaObject, hint: unknown, ctx: BuildContext): unknown {
  const values = s.enum as unknown[];
  if (values.length === 0) throw new UnsatisfiableError('enum is empty');
  const { enum: _e, ...rest } = s;
  const ok = (v: unknown): boolean => ctx.checker.check(rest, v);
  if (hint !== undefined) {
    const exact = values.find((v) => jsonEqual(v, hint) && ok(v));
    if (exact !== undefined) return exact;
    if (typeof hint === 'string' || typeof hint === 'number') {
      const norm = String(hint).trim().toLowerCase();
      const loose = values.find((v) => (typeof v === 'string' || typeof v === 'number') && String(v).toLowerCase() === norm && ok(v));
      if (loose !== undefined) return loose;
    }
  }
  if (values.includes(null) && ok(null)) return null;
  const first = values.find(ok);
  return first === undefined ? values[0] : first;
}

function buildChoice(s: SchemaObject, choices: Schema[], hint: unknown, ctx: BuildContext, depth: number): unknown {
  const { oneOf: _o, anyOf: _a, ...base } = s;
  // An object carrying both keeps the other list for the next round.
  if (Array.isArray(s.oneOf) && Array.isArray(s.anyOf)) (base as SchemaObject).anyOf = s.anyOf;
  const combined = choices.map((branch) => (branch === true ? base : branch === false ? false : mergeSchemas(base, branch as SchemaObject)));
  const order = combined.map((_, i) => i);
  const score = (i: number): number => {
    const branch = combined[i] as Schema;
    if (branch === false) return 9;
    if (hint === undefined) return ctx.checker.check(branch, null) ? 0 : 1;
    if (ctx.checker.check(branch, hint)) return 0;
    const types = typeof branch === 'object' ? typesOf(branch) : undefined;
    if (types?.includes(jsonTypeOf(hint)) || (jsonTypeOf(hint) === 'integer' && types?.includes('number'))) return 1;
    return 2;
  };
  order.sort((x, y) => score(x) - score(y) || x - y);
  let firstBuilt: unknown;
  let built = false;
  let lastError: unknown;
  for (const i of order) {
    if (combined[i] === false) continue;
    try {
      const value = buildValue(combined[i] as Schema, hint, ctx, depth + 1);
      if (ctx.checker.check(s, value)) return value;
      if (!built) {
        firstBuilt = value;
        built = true;
      }
    } catch (err) {
      lastError = err;
    }
    if (ctx.steps < 0) break;
  }
  if (built) return firstBuilt;
  throw lastError instanceof UnsatisfiableError ? lastError : new UnsatisfiableError('no alternative of anyOf/oneOf admits a value');
}

function buildConditional(s: SchemaObject, hint: unknown, ctx: BuildContext, depth: number): unknown {
  const { if: cond, then: thenSchema, else: elseSchema, ...base } = s;
  const attempts: [Schema | undefined, boolean][] = [[thenSchema as Schema | undefined, true], [elseSchema as Schema | undefined, false]];
  let fallback: unknown;
  for (const [branch, wantIf] of attempts) {
    const merged = isObject(branch) ? mergeSchemas(base, branch) : branch === false ? undefined : base;
    if (merged === undefined) continue;
    try {
      const value = buildValue(merged, hint, ctx, depth + 1);
      if (ctx.checker.check(cond as Schema, value) === wantIf) return value;
      fallback ??= value;
    } catch {
      // try the other branch
    }
  }
  if (fallback !== undefined) return fallback;
  return buildValue(base, hint, ctx, depth + 1);
}

function escapeNot(s: SchemaObject, value: unknown, ctx: BuildContext, depth: number): unknown {
  const { not: _not, ...base } = s;
  const candidates: unknown[] = [null, '', 'unknown', 0, 1, -1, false, true, [], {}];
  for (const type of typesOf(base) ?? []) candidates.push(buildTyped({ ...base, type }, undefined, ctx, depth + 1));
  return candidates.find((c) => ctx.checker.check(s, c)) ?? value;
}

/** Orders the types a value may take: the hint's own first, null first when nothing was found. */
function candidateTypes(s: SchemaObject, hint: unknown): string[] {
  let types = typesOf(s);
  if (!types || types.length === 0) types = inferTypes(s);
  if (hint === undefined) {
    return [...types].sort((a, b) => (a === 'null' ? -1 : b === 'null' ? 1 : a === 'array' ? -1 : b === 'array' ? 1 : 0));
  }
  const own = jsonTypeOf(hint);
  const rank = (t: string): number => (t === own || (t === 'number' && own === 'integer') ? 0 : t === 'null' ? 3 : 1);
  return [...types].sort((a, b) => rank(a) - rank(b));
}

function inferTypes(s: SchemaObject): string[] {
  if (s.properties || s.required || s.additionalProperties !== undefined || s.patternProperties) return ['object'];
  if (s.items !== undefined || s.prefixItems || s.minItems !== undefined) return ['array'];
  if (s.pattern || s.format || s.minLength !== undefined || s.maxLength !== undefined) return ['string'];
  if (s.minimum !== undefined || s.maximum !== undefined || s.multipleOf !== undefined) return ['number'];
  return ['null', 'string', 'number', 'boolean', 'object', 'array'];
}

function buildTyped(s: SchemaObject, hint: unknown, ctx: BuildContext, depth: number): unknown {
  const types = candidateTypes(s, hint);
  let first: unknown;
  let have = false;
  for (const type of types) {
    const value = buildOfType(type, s, hint, ctx, depth);
    if (value === undefined) continue;
    if (types.length === 1 || ctx.checker.check({ ...s, type }, value)) return value;
    if (!have) {
      first = value;
      have = true;
    }
  }
  if (have) return first;
  throw new UnsatisfiableError(`no value of type ${types.join('/')} meets the schema's constraints`);
}

function buildOfType(type: string, s: SchemaObject, hint: unknown, ctx: BuildContext, depth: number): unknown {
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return coerceBoolean(hint) ?? false;
    case 'integer':
    case 'number':
      return buildNumber(s, hint, type === 'integer');
    case 'string':
      return buildString(s, hint, ctx);
    case 'array':
      return buildArray(s, hint, ctx, depth, buildValue);
    case 'object':
      return buildObject(s, hint, ctx, depth, buildValue, depth >= SOFT_DEPTH);
    default:
      return undefined;
  }
}

function coerceBoolean(hint: unknown): boolean | undefined {
  if (typeof hint === 'boolean') return hint;
  if (typeof hint === 'string') {
    if (/^(true|yes|y|positive|present)$/i.test(hint.trim())) return true;
    if (/^(false|no|n|negative|absent|none)$/i.test(hint.trim())) return false;
  }
  if (typeof hint === 'number') return hint !== 0;
  return undefined;
}

/** A number within bounds: the hint when valid, else 0 moved into range (the least committal). */
export function buildNumber(s: SchemaObject, hint: unknown, integer: boolean): number | undefined {
  const b = numericBounds(s);
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
  const fits = (n: number): boolean =>
    Number.isFinite(n) && (!integer || Number.isInteger(n)) &&
    (b.min === undefined || (b.exMin ? n > b.min : n >= b.min)) &&
    (b.max === undefined || (b.exMax ? n < b.max : n <= b.max)) &&
    (step === undefined || Math.abs(n / step - Math.round(n / step)) < 1e-9);
  const parsed = typeof hint === 'number' ? hint : typeof hint === 'string' ? Number.parseFloat(hint) : NaN;
  if (fits(parsed)) return parsed;
  if (integer && fits(Math.round(parsed))) return Math.round(parsed);
  if (fits(0)) return 0;
  let lo = b.min ?? (b.max !== undefined ? b.max - 1 : 0);
  if (b.exMin && b.min !== undefined) lo = integer ? Math.floor(b.min) + 1 : b.max !== undefined ? (b.min + b.max) / 2 : b.min + 1;
  if (integer) lo = Math.ceil(lo);
  if (step !== undefined) {
    const unit = integer ? lcmInt(step) : step;
    lo = Math.ceil(lo / unit - 1e-9) * unit;
    if (b.exMin && b.min !== undefined && lo <= b.min) lo += unit;
  }
  if (fits(lo)) return lo;
  let hi = b.max ?? lo;
  if (b.exMax && b.max !== undefined) hi = integer ? Math.ceil(b.max) - 1 : b.max - Math.min(1, Math.abs(b.max - lo) / 2 || 1);
  if (integer) hi = Math.floor(hi);
  if (step !== undefined) hi = Math.floor(hi / step + 1e-9) * step;
  if (fits(hi)) return hi;
  throw new UnsatisfiableError('numeric bounds leave no valid number');
}

function lcmInt(step: number): number {
  if (Number.isInteger(step)) return step;
  let m = step;
  for (let k = 1; k <= 1000; k++) if (Number.isInteger(m * k + 0) || Math.abs(m * k - Math.round(m * k)) < 1e-9) return Math.round(m * k);
  return step;
}

/** A string meeting length, pattern and format: the hint when it fits, else a neutral filler. */
function buildString(s: SchemaObject, hint: unknown, ctx: BuildContext): string | undefined {
  const min = typeof s.minLength === 'number' ? s.minLength : 0;
  const max = typeof s.maxLength === 'number' ? s.maxLength : Number.POSITIVE_INFINITY;
  const format = typeof s.format === 'string' ? s.format : undefined;
  const pattern = typeof s.pattern === 'string' ? s.pattern : undefined;
  const ok = (v: string): boolean => {
    const len = [...v].length;
    if (len < min || len > max) return false;
    if (pattern !== undefined && !ctx.checker.pattern(pattern)?.test(v)) return false;
    return format === undefined || ctx.checker.format(format, v);
  };
  const candidates: string[] = [];
  if (hint !== undefined && hint !== null) {
    const text = typeof hint === 'string' ? hint.trim() : typeof hint === 'object' ? JSON.stringify(hint) : String(hint);
    candidates.push(text);
    if (Number.isFinite(max) && [...text].length > max) candidates.push([...text].slice(0, max).join(''));
  }
  if (format !== undefined && FORMAT_SAMPLES[format] !== undefined) candidates.push(FORMAT_SAMPLES[format] as string);
  if (pattern === undefined) candidates.push('');
  if (pattern !== undefined) candidates.push(...stringsForPattern(pattern, min));
  candidates.push('unknown'.padEnd(min, '_'));
  if (Number.isFinite(max)) candidates.push('unknown'.slice(0, max).padEnd(min, '_'));
  candidates.push('x'.repeat(Math.max(min, 1)));
  return candidates.find(ok);
}

