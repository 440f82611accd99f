/**
 * Reading caller schemas the same way across drafts: which draft applies, how `$ref`s resolve
 * inside the document, and draft-neutral accessors for keywords whose meaning changed
 * (tuple `items`, boolean `exclusiveMinimum`, `dependencies`).
 */
export type Draft = '04' | '06' | '07' | '2019' | '2020';
export type Schema = boolean | SchemaObject;
export type SchemaObject = { [keyword: string]: unknown };

export const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Chooses the draft from `$schema`; draft-04 habits without `$schema` select draft-04; else draft-07. */
export function detectDraft(schema: unknown): Draft {
  const declared = isObject(schema) && typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('draft-04') || declared.includes('draft-03')) return '04';
  if (declared.includes('draft-06')) return '06';
  if (declared.includes('draft-07')) return '07';
  if (declared.includes('2019-09')) return '2019';
  if (declared.includes('2020-12')) return '2020';
  if (usesDraft04Habits(schema)) return '04';
  // Undeclared schemas written with 2019-09/2020-12 keywords are read as 2020-12, so those
  // keywords are enforced instead of ignored as a draft-07 validator would.
  return usesNewerKeywords(schema) ? '2020' : '07';
}

const NEWER_KEYWORDS = ['prefixItems', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'minContains', 'maxContains', '$dynamicRef'];
const NOT_SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'enum', 'const', 'default', 'examples', 'required']);

function usesNewerKeywords(schema: unknown): boolean {
  let visited = 0;
  const visit = (node: unknown, inMap: boolean, depth = 0): boolean => {
    // Bounded in breadth and depth: hostile schemas nest thousands of levels (the audit refuses them).
    if (visited++ > 20_000 || depth > 128) return false;
    if (Array.isArray(node)) return node.some((n) => visit(n, false, depth + 1));
    if (!isObject(node)) return false;
    for (const [key, value] of Object.entries(node)) {
      if (!inMap && NEWER_KEYWORDS.includes(key)) return true;
      if (key === 'enum' || key === 'const' || key === 'default' || key === 'examples') continue;
      if (typeof value === 'object' && value !== null && visit(value, !inMap && NOT_SCHEMA_MAPS.has(key), depth + 1)) return true;
    }
    return false;
  };
  return visit(schema, false);
}

/** Boolean `exclusiveMinimum`/`exclusiveMaximum` only make sense in draft-04. */
function usesDraft04Habits(schema: unknown): boolean {
  let found = false;
  let visited = 0;
  const visit = (node: unknown): void => {
    if (found || visited++ > 20_000) return;
    if (Array.isArray(node)) node.forEach(visit);
    else if (isObject(node)) {
      if (typeof node.exclusiveMinimum === 'boolean' || typeof node.exclusiveMaximum === 'boolean') found = true;
      Object.values(node).forEach(visit);
    }
  };
  visit(schema);
  return found;
}

/** Resolves `$ref`s that point inside the caller's document (pointers, `$id`s and anchors). */
export interface RefResolver {
  resolve(ref: string): Schema | undefined;
}

export function createRefResolver(root: Schema, draft: Draft): RefResolver {
  const idKey = draft === '04' ? 'id' : '$id';
  const byId = new Map<string, Schema>();
  const rootId = isObject(root) && typeof root[idKey] === 'string' ? stripHash(root[idKey] as string) : '';
  let visited = 0;
  const index = (node: unknown): void => {
    if (visited++ > 50_000) return;
    if (Array.isArray(node)) node.forEach(index);
    else if (isObject(node)) {
      const id = node[idKey];
      if (typeof id === 'string') {
        byId.set(id, node);
        byId.set(stripHash(id), node);
        if (id.startsWith('#')) byId.set(id.slice(1), node);
        const last = stripHash(id).split('/').pop();
        if (last) byId.set(last, node);
      }
      if (typeof node.$anchor === 'string') byId.set(`#${node.$anchor}`, node);
      if (typeof node.$dynamicAnchor === 'string') byId.set(`#${node.$dynamicAnchor}`, node);
      for (const [key, value] of Object.entries(node)) {
        if (key !== 'enum' && key !== 'const' && key !== 'default' && key !== 'examples') index(value);
      }
    }
  };
  index(root);

  return {
    resolve(ref: string): Schema | undefined {
      const hashAt = ref.indexOf('#');
      const base = hashAt < 0 ? ref : ref.slice(0, hashAt);
      const fragment = hashAt < 0 ? '' : ref.slice(hashAt + 1);
      let doc: Schema | undefined = root;
      if (base !== '' && base !== rootId) {
        doc = byId.get(base) ?? byId.get(base.split('/').pop() ?? '');
        if (doc === undefined) return undefined;
      }
      if (fragment === '' ) return doc;
      if (!fragment.startsWith('/')) return byId.get(`#${fragment}`) ?? byId.get(fragment);
      return pointerGet(doc, fragment);
    },
  };
}

const stripHash = (id: string): string => id.replace(/#$/, '');

/** Follows a JSON pointer (`/definitions/a~1b`), decoding `~0`, `~1` and percent escapes. */
export function pointerGet(doc: unknown, pointer: string): Schema | undefined {
  let node: unknown = doc;
  for (const raw of pointer.split('/').slice(1)) {
    let token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    try {
      token = decodeURIComponent(token);
    } catch {
      // keep the raw token: not every schema percent-encodes
    }
    if (Array.isArray(node)) node = node[Number(token)];
    else if (isObject(node)) node = node[token];
    else return undefined;
  }
  return typeof node === 'boolean' || isObject(node) ? (node as Schema) : undefined;
}

/** Types a schema admits (`undefined` when unconstrained). `integer` implies number values. */
export function typesOf(schema: SchemaObject): string[] | undefined {
  const t = schema.type;
  if (typeof t === 'string') return [t];
  if (Array.isArray(t)) return t.filter((x): x is string => typeof x === 'string');
  return undefined;
}

/** Tuple positions: `prefixItems` (2020-12) or an array-valued `items` (earlier drafts). */
export function tupleItems(schema: SchemaObject, draft: Draft): Schema[] {
  if (draft === '2020') return Array.isArray(schema.prefixItems) ? (schema.prefixItems as Schema[]) : [];
  return Array.isArray(schema.items) ? (schema.items as Schema[]) : [];
}

/** Schema for items after the tuple positions (`undefined`: anything). */
export function restItems(schema: SchemaObject, draft: Draft): Schema | undefined {
  if (draft === '2020') return asSchema(schema.items);
  if (Array.isArray(schema.items)) return asSchema(schema.additionalItems);
  return asSchema(schema.items);
}

export function asSchema(value: unknown): Schema | undefined {
  return typeof value === 'boolean' || isObject(value) ? (value as Schema) : undefined;
}

/** Lower and upper numeric bounds with exclusivity, across draft-04 and later spellings. */
export function numericBounds(schema: SchemaObject): { min?: number; max?: number; exMin: boolean; exMax: boolean } {
  const out: { min?: number; max?: number; exMin: boolean; exMax: boolean } = { exMin: false, exMax: false };
  const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
  out.min = num(schema.minimum);
  out.max = num(schema.maximum);
  if (schema.exclusiveMinimum === true) out.exMin = out.min !== undefined;
  if (schema.exclusiveMaximum === true) out.exMax = out.max !== undefined;
  const exMin = num(schema.exclusiveMinimum);
  if (exMin !== undefined && (out.min === undefined || exMin >= out.min)) {
    out.min = exMin;
    out.exMin = true;
  }
  const exMax = num(schema.exclusiveMaximum);
  if (exMax !== undefined && (out.max === undefined || exMax <= out.max)) {
    out.max = exMax;
    out.exMax = true;
  }
  return out;
}

/** `dependentRequired` and the array form of draft-04..07 `dependencies`. */
export function dependentRequired(schema: SchemaObject): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const source of [schema.dependencies, schema.dependentRequired]) {
    if (!isObject(source)) continue;
    for (const [key, value] of Object.entries(source)) {
      if (Array.isArray(value)) out[key] = value.filter((v): v is string => typeof v === 'string');
    }
  }
  return out;
}

/** `dependentSchemas` and the schema form of `dependencies`. */
export function dependentSchemas(schema: SchemaObject): Record<string, Schema> {
  const out: Record<string, Schema> = {};
  for (const source of [schema.dependencies, schema.dependentSchemas]) {
    if (!isObject(source)) continue;
    for (const [key, value] of Object.entries(source)) {
      const s = asSchema(value);
      if (s !== undefined) out[key] = s;
    }
  }
  return out;
}

/** Stable structural equality for JSON values (enum/const/uniqueItems). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]));
  }
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** JSON type name of a value, with `integer` for whole numbers. */
export function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}
