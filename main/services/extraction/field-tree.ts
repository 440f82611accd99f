import type { FieldKind, FieldNode } from './ports.js';
import { effectiveSchema } from './schema-merge.js';
import { isObject, restItems, typesOf, type Draft, type RefResolver, type Schema, type SchemaObject } from './schema-walk.js';

const MAX_FIELD_DEPTH = 8;
const MAX_FIELDS = 2000;

/**
 * Describes what the caller asked for as a plain tree (names, instructions, kinds, enums), with
 * references followed and alternatives reduced to their most informative non-null branch.
 */
export function buildFieldTree(schema: Schema, draft: Draft, refs: RefResolver): FieldNode {
  let count = 0;
  const visit = (node: Schema | undefined, name: string, depth: number): FieldNode => {
    count++;
    let s: Schema;
    try {
      s = node === undefined ? true : effectiveSchema(node, draft, refs);
    } catch {
      s = true;
    }
    if (typeof s === 'boolean') return { name, kind: 'any' };
    s = primaryBranch(s, draft, refs);
    const kind = kindOf(s);
    const out: FieldNode = { name, kind };
    if (typeof s.description === 'string') out.description = s.description;
    if (typeof s.title === 'string') out.title = s.title;
    if (typeof s.format === 'string') out.format = s.format;
    if (typeof s.minimum === 'number') out.minimum = s.minimum;
    if (typeof s.maximum === 'number') out.maximum = s.maximum;
    const values = Array.isArray(s.enum) ? s.enum : 'const' in s ? [s.const] : undefined;
    if (values) out.enum = values.filter((v) => v !== null);
    if (depth >= MAX_FIELD_DEPTH || count > MAX_FIELDS) return out;
    if (kind === 'object' && isObject(s.properties)) {
      out.fields = Object.entries(s.properties).map(([key, sub]) => visit(sub as Schema, key, depth + 1));
    } else if (kind === 'array') {
      out.item = visit(restItems(s, draft), '', depth + 1);
    }
    return out;
  };
  return visit(schema, '', 0);
}

/** For `anyOf`/`oneOf`, the first branch that is not just `null` (objects preferred). */
function primaryBranch(s: SchemaObject, draft: Draft, refs: RefResolver): SchemaObject {
  const branches = (Array.isArray(s.anyOf) ? s.anyOf : Array.isArray(s.oneOf) ? s.oneOf : []) as Schema[];
  if (branches.length === 0) return s;
  const resolved = branches
    .map((b) => {
      try {
        return effectiveSchema(b, draft, refs);
      } catch {
        return true;
      }
    })
    .filter((b): b is SchemaObject => isObject(b) && !(typesOf(b)?.length === 1 && typesOf(b)?.[0] === 'null'));
  const pick = resolved.find((b) => kindOf(b) === 'object') ?? resolved[0];
  if (!pick) return s;
  const { anyOf: _a, oneOf: _o, ...rest } = s;
  return { ...pick, ...rest, description: rest.description ?? pick.description };
}

function kindOf(s: SchemaObject): FieldKind {
  const types = (typesOf(s) ?? []).filter((t) => t !== 'null');
  const t = types[0];
  if (t === 'object' || t === 'array' || t === 'string' || t === 'number' || t === 'integer' || t === 'boolean') return t;
  if (isObject(s.properties)) return 'object';
  if (s.items !== undefined) return 'array';
  if (Array.isArray(s.enum)) {
    const first = s.enum.find((v) => v !== null);
    if (typeof first === 'string') return 'string';
    if (typeof first === 'number') return 'number';
    if (typeof first === 'boolean') return 'boolean';
  }
  return 'any';
}
