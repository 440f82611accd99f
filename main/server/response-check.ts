import { Ajv, type ValidateFunction } from 'ajv';
import * as formatsModule from 'ajv-formats';
import { NOTE_TEMPLATE_SCHEMA } from '../../shared/note-template-schema.js';

// ajv-formats is CommonJS; its default export arrives as a property (as in services/extraction/schema-registry.ts).
const addFormats = ((formatsModule as unknown as { default: { default?: unknown } }).default.default ??
  (formatsModule as unknown as { default: unknown }).default) as (ajv: Ajv) => Ajv;

/**
 * A success body that does not match its route's success schema: a server bug, never the
 * client's. The message names the operation and the schema path, never a value of the body
 * (which may be patient data), so the error handler may log it.
 */
export class ResponseSchemaError extends Error {
  override readonly name = 'ResponseSchemaError';
}

// allErrors off: the first mismatch is enough to find the bug. Formats on: a `date-time` that is
// not one is as much a broken promise as a missing field.
const responseAjv = addFormats(new Ajv({ allErrors: false, strict: false, coerceTypes: false }));
responseAjv.addSchema(NOTE_TEMPLATE_SCHEMA as unknown as Record<string, unknown>);

const compiled = new WeakMap<object, ValidateFunction>();

/** What the check reads of a route's spec (route-registry's RouteSpec; declared here so neither module imports the other). */
interface CheckedRoute {
  operationId: string;
  envelope: 'standard' | 'data-only' | 'delete' | 'raw';
  success: { schema?: object };
}

/**
 * Checks the answer a route is about to send (`payload`, the JSON text on the wire, envelope
 * included) against its success schema, and throws {@link ResponseSchemaError} on a mismatch.
 * Run only where `validateResponses` is on (the tests' servers): parsing every answer again
 * costs what a production request should not pay.
 */
export function checkResponse(spec: CheckedRoute, payload: string): void {
  const schema = spec.success.schema;
  if (!schema || spec.envelope === 'delete') return;
  let validate = compiled.get(schema);
  if (!validate) {
    validate = responseAjv.compile(schema);
    compiled.set(schema, validate);
  }
  const sent = JSON.parse(payload) as { data?: unknown };
  const data = spec.envelope === 'raw' ? sent : sent.data;
  if (validate(data)) return;
  const first = validate.errors?.[0];
  const where = first ? `${first.instancePath || '(root)'} ${first.message ?? 'is invalid'} (schema ${first.schemaPath})` : 'is invalid';
  throw new ResponseSchemaError(`${spec.operationId}: the success body does not match its schema: ${where}`);
}
