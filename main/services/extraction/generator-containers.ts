import type { BuildContext } from './build-context.js';
import { mergeSchemas, UnsatisfiableError } from './schema-merge.js';
import {
  asSchema, dependentRequired, isObject, jsonEqual, restItems, tupleItems, type Schema, type SchemaObject,
} from './schema-walk.js';

type Build = (schema: Schema | undefined, hint: unknown, ctx: BuildContext, depth: number) => unknown;

const tryBuild = (build: Build, schema: Schema | undefined, hint: unknown, ctx: BuildContext, depth: number): { value?: unknown; ok: boolean } => {
  try {
    return { value: build(schema, hint, ctx, depth), ok: true };
  } catch (err) {
    if (err instanceof UnsatisfiableError) return { ok: false };
    throw err;
  }
};

/**
 * Arrays: extracted items first (each built against its item schema), then padding to
 * `minItems` with distinct neutral items, a `contains` match when needed, cut at `maxItems`.
 */
export function buildArray(s: SchemaObject, hint: unknown, ctx: BuildContext, depth: number, build: Build): unknown[] {
  const tuple = tupleItems(s, ctx.draft);
  const rest = restItems(s, ctx.draft);
  const min = typeof s.minItems === 'number' ? s.minItems : 0;
  const max = typeof s.maxItems === 'number' ? s.maxItems : Number.POSITIVE_INFINITY;
  const unique = s.uniqueItems === true;
  const schemaAt = (i: number): Schema | undefined => (i < tuple.length ? tuple[i] : rest);
  const out: unknown[] = [];
  const hints = hint === undefined || hint === null ? [] : Array.isArray(hint) ? hint : [hint];
  for (const h of hints) {
    if (out.length >= max) break;
    const sub = schemaAt(out.length);
    if (sub === false) break;
    const built = tryBuild(build, sub, h, ctx, depth + 1);
    if (!built.ok || !ctx.checker.check(sub, built.value)) continue;
    if (unique && out.some((v) => jsonEqual(v, built.value))) continue;
    out.push(built.value);
  }
  const contains = asSchema(s.contains);
  const minContains = typeof s.minContains === 'number' ? s.minContains : 1;
  if (contains !== undefined && out.filter((v) => ctx.checker.check(contains, v)).length < minContains) {
    const sub = schemaAt(out.length);
    const merged = isObject(sub) && isObject(contains) ? mergeSchemas(sub, contains) : contains;
    for (let k = 0; k < minContains && out.length < max; k++) {
      const v = padItem(merged, out, unique, ctx, depth, build);
      if (v === undefined) break;
      out.push(v.value);
    }
  }
  while (out.length < min) {
    const v = padItem(schemaAt(out.length), out, unique, ctx, depth, build);
    if (v === undefined) throw new UnsatisfiableError('array cannot reach minItems with valid, distinct items');
    out.push(v.value);
  }
  return out.slice(0, Math.max(min, Math.min(out.length, max)));
}

/** A neutral item that differs from those already present when `uniqueItems` asks for it. */
function padItem(sub: Schema | undefined, existing: unknown[], unique: boolean, ctx: BuildContext, depth: number, build: Build): { value: unknown } | undefined {
  const n = existing.length;
  const hints: unknown[] = [undefined, n + 1, `item ${n + 1}`, n, String(n + 1), true, false, -(n + 1)];
  if (isObject(sub) && Array.isArray(sub.enum)) hints.unshift(...sub.enum);
  for (const h of hints) {
    const built = tryBuild(build, sub, h, ctx, depth + 1);
    if (!built.ok || !ctx.checker.check(sub, built.value)) continue;
    if (unique && existing.some((v) => jsonEqual(v, built.value))) continue;
    return { value: built.value };
  }
  return undefined;
}

/**
 * Objects: declared properties in declaration order. Found values are built from their hint;
 * required ones the text does not support get the least-committal value; optional ones become
 * null when nullable, [] when arrays, and are left out otherwise. Past `shallow` depth only
 * required properties are produced, which ends recursive schemas.
 */
export function buildObject(s: SchemaObject, hint: unknown, ctx: BuildContext, depth: number, build: Build, shallow: boolean): Record<string, unknown> {
  const props = isObject(s.properties) ? (s.properties as Record<string, Schema>) : {};
  const required = new Set(Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === 'string') : []);
  const given = isObject(hint) ? hint : {};
  const out: Record<string, unknown> = {};
  const additional = asSchema(s.additionalProperties);
  const schemaFor = (key: string): Schema | undefined => {
    if (Object.prototype.hasOwnProperty.call(props, key)) return props[key];
    if (isObject(s.patternProperties)) {
      for (const [source, sub] of Object.entries(s.patternProperties)) {
        if (ctx.checker.pattern(source)?.test(key)) return sub as Schema;
      }
    }
    return additional;
  };

  // Own properties only: a schema property named `constructor` must not pick up Object's (found by the fuzz run).
  const hintOf = (key: string): unknown => (Object.hasOwn(given, key) ? given[key] : undefined);
  for (const [key, sub] of Object.entries(props)) {
    const h = hintOf(key);
    if (required.has(key) || (h !== undefined && !shallow)) {
      const built = tryBuild(build, sub, h, ctx, depth + 1);
      if (built.ok) out[key] = built.value;
      else if (required.has(key)) throw new UnsatisfiableError(`required property "${key}" admits no value`);
      continue;
    }
    if (shallow || sub === false) continue;
    if (ctx.checker.check(sub, null)) out[key] = null;
    else if (ctx.checker.check(sub, [])) out[key] = [];
  }
  for (const key of required) {
    if (Object.hasOwn(out, key)) continue;
    const built = tryBuild(build, schemaFor(key), hintOf(key), ctx, depth + 1);
    if (!built.ok) throw new UnsatisfiableError(`required property "${key}" admits no value`);
    out[key] = built.value;
  }
  const deps = dependentRequired(s);
  for (let changed = true, rounds = 0; changed && rounds < 8; rounds++) {
    changed = false;
    for (const [key, needed] of Object.entries(deps)) {
      if (!(key in out)) continue;
      for (const k of needed) {
        if (k in out) continue;
        const built = tryBuild(build, schemaFor(k), given[k], ctx, depth + 1);
        if (built.ok) {
          out[k] = built.value;
          changed = true;
        }
      }
    }
  }
  fitPropertyCount(s, out, required, props, schemaFor, ctx, depth, build);
  return out;
}

function fitPropertyCount(
  s: SchemaObject, out: Record<string, unknown>, required: Set<string>, props: Record<string, Schema>,
  schemaFor: (key: string) => Schema | undefined, ctx: BuildContext, depth: number, build: Build,
): void {
  const max = typeof s.maxProperties === 'number' ? s.maxProperties : Number.POSITIVE_INFINITY;
  const min = typeof s.minProperties === 'number' ? s.minProperties : 0;
  if (Object.keys(out).length > max) {
    const removable = Object.keys(out).filter((k) => !required.has(k)).sort((a, b) => emptiness(out[b]) - emptiness(out[a]));
    while (Object.keys(out).length > max && removable.length > 0) delete out[removable.shift() as string];
  }
  if (Object.keys(out).length >= min) return;
  const names = Object.keys(props).filter((k) => !(k in out));
  if (isObject(s.patternProperties)) names.push(...Object.keys(s.patternProperties).flatMap((p) => samplesForKeyPattern(p)));
  if (s.additionalProperties !== false) for (let i = 1; i <= min + 2; i++) names.push(`field${i}`);
  for (const key of names) {
    if (Object.keys(out).length >= min) break;
    if (key in out) continue;
    if (s.propertyNames !== undefined && !ctx.checker.check(s.propertyNames as Schema, key)) continue;
    const sub = schemaFor(key);
    if (sub === false) continue;
    const built = tryBuild(build, sub, undefined, ctx, depth + 1);
    if (built.ok) out[key] = built.value;
  }
}

const emptiness = (v: unknown): number => (v === null ? 2 : Array.isArray(v) && v.length === 0 ? 1 : 0);

function samplesForKeyPattern(pattern: string): string[] {
  const simple = pattern.replace(/^\^/, '').replace(/\$$/, '');
  return /^[\w-]+$/.test(simple) ? [simple] : ['a', 'x-a', 'a1', 'A', '0'];
}
