import { NOTE_TEMPLATE_SCHEMA } from '../../shared/note-template-schema.js';
import { templateProblems, type NoteTemplate } from '../../shared/note-template.js';

/**
 * Validates a NoteTemplate exactly as the local API does: its JSON Schema (the same object the
 * server hands to ajv) and then `templateProblems` (depth, levels, unique ids). The renderer's
 * CSP forbids `eval`, which ajv's compiled validators need, so this walks the schema directly;
 * it understands the keywords that schema uses, and a test checks it agrees with ajv word for word
 * (the editor shows the physician the very message the API would answer with).
 */
type Schema = Record<string, unknown>;

const defs = (NOTE_TEMPLATE_SCHEMA as unknown as { $defs: Record<string, Schema> }).$defs;

function typeOk(type: string, v: unknown): boolean {
  switch (type) {
    case 'object': return typeof v === 'object' && v !== null && !Array.isArray(v);
    case 'array': return Array.isArray(v);
    case 'string': return typeof v === 'string';
    case 'boolean': return typeof v === 'boolean';
    case 'integer': return typeof v === 'number' && Number.isInteger(v);
    case 'number': return typeof v === 'number' && Number.isFinite(v);
    default: return true;
  }
}

const show = (v: unknown): string => JSON.stringify(v);

function walk(schema: Schema, value: unknown, path: string, out: string[]): void {
  if (out.length > 0) return; // the API reports the first problem; so do we
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/$defs/', '');
    walk(defs[name]!, value, path, out);
    if (out.length) return;
  }
  if (typeof schema.type === 'string' && !typeOk(schema.type, value)) return void out.push(`${path}: must be ${schema.type}`);
  if ('const' in schema && value !== schema.const) return void out.push(`${path}: must be equal to constant ${show(schema.const)}`);
  if (Array.isArray(schema.enum) && !schema.enum.includes(value)) return void out.push(`${path}: must be equal to one of the allowed values`);
  if (typeof value === 'string') {
    const length = Array.from(value).length;
    if (typeof schema.minLength === 'number' && length < schema.minLength) return void out.push(`${path}: must NOT have fewer than ${schema.minLength} characters`);
    if (typeof schema.maxLength === 'number' && length > schema.maxLength) return void out.push(`${path}: must NOT have more than ${schema.maxLength} characters`);
  }
  if (typeof value === 'number') {
    if (typeof schema.minimum === 'number' && value < schema.minimum) return void out.push(`${path}: must be >= ${schema.minimum}`);
    if (typeof schema.maximum === 'number' && value > schema.maximum) return void out.push(`${path}: must be <= ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof schema.maxItems === 'number' && value.length > schema.maxItems) return void out.push(`${path}: must NOT have more than ${schema.maxItems} items`);
    if (schema.items) value.forEach((item, i) => walk(schema.items as Schema, item, `${path}[${i}]`, out));
  }
  if (typeOk('object', value)) {
    const obj = value as Record<string, unknown>;
    for (const key of (schema.required as string[] | undefined) ?? []) {
      if (!(key in obj)) return void out.push(`${path}.${key}: is required`);
    }
    const props = (schema.properties as Record<string, Schema> | undefined) ?? {};
    for (const [key, sub] of Object.entries(props)) if (key in obj) walk(sub, obj[key], `${path}.${key}`, out);
  }
  for (const part of (schema.allOf as Schema[] | undefined) ?? []) {
    if (part.if) {
      const probe: string[] = [];
      walk(part.if as Schema, value, path, probe);
      if (probe.length === 0 && part.then) walk(part.then as Schema, value, path, out);
    } else walk(part, value, path, out);
  }
}

/** Problems of a template, the first schema problem or every semantic one; empty when valid. */
export function validateTemplate(value: unknown): string[] {
  const out: string[] = [];
  walk(NOTE_TEMPLATE_SCHEMA as unknown as Schema, value, 'template', out);
  if (out.length) return out;
  return templateProblems(value as NoteTemplate).map((p) => `template.${p}`);
}
