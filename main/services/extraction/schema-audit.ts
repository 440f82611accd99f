import { isObject } from './schema-walk.js';

/** Thrown when a schema uses something Clindoc refuses up front; the message names it and its path. */
export class SchemaAuditError extends Error {}

/** Hard limits on schema shape, checked before any compilation. */
export const SCHEMA_SHAPE_LIMITS = { maxDepth: 64, maxNodes: 200_000 };

/**
 * Keywords that constrain validity in drafts Clindoc does not implement (draft-03) or that
 * need request-time data (`$data`). Ignoring them would silently accept answers their authors
 * meant to forbid, so they are refused. Names outside the JSON Schema vocabulary are
 * annotations under every draft and are ignored, as the specification requires.
 */
const REFUSED_KEYWORDS: Record<string, string> = {
  extends: 'draft-03 `extends` (use allOf)',
  disallow: 'draft-03 `disallow` (use not)',
  divisibleBy: 'draft-03 `divisibleBy` (use multipleOf)',
  $data: '`$data` references',
};

/**
 * Lower bounds that force a large answer. Past these no extraction from a text of at most
 * 200,000 characters is meant; building such an answer would stall the server or exhaust its
 * memory (found by the hostile-input fuzz run), so the schema is refused up front.
 */
export const MIN_BOUND_LIMITS: Record<string, number> = { minLength: 10_000, minItems: 1_000, minProperties: 1_000, minContains: 1_000 };

/**
 * Nested lower bounds multiply (1,000 objects of 1,000 properties of 1,000 properties...): past
 * this many forced values the answer could not come from a text, and building it would stall.
 */
export const MAX_FORCED_VALUES = 200_000;

/**
 * Validation keywords of 2019-09/2020-12 that draft-04/06/07 validators ignore. A schema that
 * declares an older draft yet uses them would have them silently ignored, so it is refused.
 */
export const NEWER_DRAFT_KEYWORDS = new Set([
  'prefixItems', 'dependentRequired', 'dependentSchemas', 'unevaluatedProperties', 'unevaluatedItems', 'minContains', 'maxContains',
  '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor',
]);

/** Keywords whose values are data, not schemas: their contents are not walked. */
const DATA_KEYWORDS = new Set(['enum', 'const', 'default', 'examples', 'example', 'required']);
/** Keywords that map names to subschemas: their keys are property names, not keywords. */
const MAP_KEYWORDS = new Set(['properties', 'patternProperties', 'definitions', '$defs', 'dependencies', 'dependentSchemas']);

/**
 * Walks the schema once: depth and size limits, refused keywords (with their JSON pointer),
 * and draft-03 `required: true`.
 */
export function auditSchema(schema: unknown, draft?: string): void {
  const older = draft === '04' || draft === '06' || draft === '07';
  let nodes = 0;
  const visit = (node: unknown, path: string, depth: number, forced = 1): void => {
    if (++nodes > SCHEMA_SHAPE_LIMITS.maxNodes) throw new SchemaAuditError(`schema has more than ${SCHEMA_SHAPE_LIMITS.maxNodes} nodes`);
    if (depth > SCHEMA_SHAPE_LIMITS.maxDepth) throw new SchemaAuditError(`schema nests deeper than ${SCHEMA_SHAPE_LIMITS.maxDepth} levels at ${path || '/'}`);
    if (Array.isArray(node)) {
      node.forEach((item, i) => visit(item, `${path}/${i}`, depth + 1));
      return;
    }
    if (!isObject(node)) return;
    let inner = forced;
    for (const key of ['minItems', 'minProperties']) {
      const bound = node[key];
      if (typeof bound === 'number' && bound > 1) inner *= bound;
    }
    if (inner > MAX_FORCED_VALUES) {
      throw new SchemaAuditError(`nested minItems/minProperties at ${path || '/'} force more than ${MAX_FORCED_VALUES} values`);
    }
    for (const [key, value] of Object.entries(node)) {
      const at = `${path}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
      if (Object.hasOwn(MIN_BOUND_LIMITS, key) && typeof value === 'number' && value > MIN_BOUND_LIMITS[key]!) {
        throw new SchemaAuditError(`${key} ${value} at ${at} is above the ${MIN_BOUND_LIMITS[key]} Clindoc accepts`);
      }
      if (older && NEWER_DRAFT_KEYWORDS.has(key)) {
        throw new SchemaAuditError(`keyword ${key} at ${at} is not part of draft-${draft} (the declared $schema); declare https://json-schema.org/draft/2020-12/schema to use it`);
      }
      if (Object.hasOwn(REFUSED_KEYWORDS, key)) throw new SchemaAuditError(`unsupported keyword ${REFUSED_KEYWORDS[key]} at ${at}`);
      if (key === 'required' && typeof value === 'boolean') throw new SchemaAuditError(`unsupported draft-03 boolean \`required\` at ${at} (use a required array on the parent)`);
      if (DATA_KEYWORDS.has(key)) continue;
      if (MAP_KEYWORDS.has(key) && isObject(value)) {
        for (const [name, sub] of Object.entries(value)) visit(sub, `${at}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, depth + 2, inner);
        continue;
      }
      if (typeof value === 'object' && value !== null) visit(value, at, depth + 1, inner);
    }
  };
  visit(schema, '', 0);
}
