/**
 * Rewrites a JSON Schema into the subset node-llama-cpp's JSON-schema grammar honours.
 * Its grammar silently mishandles `anyOf`/`allOf`/`not` (always null), nullable object and array
 * unions (always null), unknown `format`s (empty string), `pattern`, numeric bounds, `uniqueItems`,
 * `if/then/else` and `#/definitions` refs. The rewrite loosens those into what it can generate;
 * the caller still validates the answer against the ORIGINAL schema (ajv), so nothing is lost.
 */

type Json = Record<string, unknown>;

const DROPPED = new Set([
  'pattern',
  'patternProperties',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'uniqueItems',
  'if',
  'then',
  'else',
  'not',
  'required',
  'dependentRequired',
  'dependentSchemas',
  '$schema',
  '$id',
  'examples',
  'default',
  'title',
]);
const GRAMMAR_FORMATS = new Set(['date', 'time', 'date-time']);
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Returns a copy of `schema` that node-llama-cpp's grammar generator handles faithfully.
 * @param schema any JSON Schema (draft 7 / 2020-12 style)
 */
export function toGrammarSchema(schema: Json): Json {
  const defs = { ...(isObject(schema.$defs) ? schema.$defs : {}), ...(isObject(schema.definitions) ? schema.definitions : {}) };
  const root = rewrite(schema);
  delete root.definitions;
  if (Object.keys(defs).length > 0) {
    root.$defs = Object.fromEntries(Object.entries(defs).map(([k, v]) => [k, isObject(v) ? rewrite(v) : v]));
  }
  return root;
}

function rewrite(node: Json): Json {
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (DROPPED.has(key) || key === '$defs' || key === 'definitions') continue;
    if (key === '$ref' && typeof value === 'string') out.$ref = value.replace('#/definitions/', '#/$defs/');
    else if (key === 'format') {
      if (typeof value === 'string' && GRAMMAR_FORMATS.has(value)) out.format = value;
    } else if (key === 'properties' && isObject(value)) {
      out.properties = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, isObject(v) ? rewrite(v) : v]));
    } else if ((key === 'items' || key === 'additionalProperties') && isObject(value)) {
      out[key] = rewrite(value);
    } else if (key === 'additionalProperties') {
      // `false` is already the grammar's behaviour (only listed properties); `true` means free-form.
      if (value === true && !isObject(node.properties)) out.additionalProperties = true;
    } else if (key === 'prefixItems' && Array.isArray(value)) {
      out.prefixItems = value.map((v) => (isObject(v) ? rewrite(v) : v));
    } else if (key === 'anyOf' || key === 'oneOf') {
      out.oneOf = (value as unknown[]).filter(isObject).map(rewrite);
    } else if (key === 'allOf') {
      Object.assign(out, mergeAll((value as unknown[]).filter(isObject).map(rewrite)));
    } else if (key === 'type' && Array.isArray(value)) {
      out.type = rewriteTypeList(value as string[]);
    } else out[key] = value;
  }
  return out;
}

/** `["object","null"]` and `["array","null"]` always yield null in the grammar: keep the structured type. */
function rewriteTypeList(types: string[]): string | string[] {
  const structured = types.filter((t) => t === 'object' || t === 'array');
  if (structured.length > 0) return structured[0]!;
  return types.length === 1 ? types[0]! : types;
}

/** A shallow merge of `allOf` branches: properties united, last scalar keyword wins. */
function mergeAll(branches: Json[]): Json {
  const merged: Json = {};
  for (const branch of branches) {
    for (const [k, v] of Object.entries(branch)) {
      if (k === 'properties' && isObject(v)) merged.properties = { ...(isObject(merged.properties) ? merged.properties : {}), ...v };
      else merged[k] = v;
    }
  }
  return merged;
}
