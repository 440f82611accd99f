import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as draft04Module from 'ajv-draft-04';
import * as formatsModule from 'ajv-formats';
import draft06Meta from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import { compileSafeRegExp } from '../main/services/extraction/safe-regexp.js';
import { detectDraft } from '../main/services/extraction/schema-walk.js';

const AjvDraft04 = ((draft04Module as unknown as { default: { default?: unknown } }).default.default ??
  (draft04Module as unknown as { default: unknown }).default) as typeof Ajv;
const addFormats = ((formatsModule as unknown as { default: { default?: unknown } }).default.default ??
  (formatsModule as unknown as { default: unknown }).default) as (ajv: InstanceType<typeof Ajv>) => unknown;

/**
 * A second opinion for the evaluation: fresh ajv instances (one compile per schema, nothing
 * shared with the service) judge each answer. Returns true, or the first error.
 */
export function createIndependentValidator(): (schema: unknown, value: unknown) => true | string {
  const regExp = Object.assign((p: string, f: string) => compileSafeRegExp(p, f), { code: 'eval-safe-regexp' });
  const make = (draft: string): InstanceType<typeof Ajv> => {
    const opts = { strict: false, logger: false as const, addUsedSchema: false, code: { regExp } };
    const ajv = draft === '04' ? new AjvDraft04(opts) : draft === '2019' ? (new Ajv2019(opts) as unknown as InstanceType<typeof Ajv>)
      : draft === '2020' ? (new Ajv2020(opts) as unknown as InstanceType<typeof Ajv>) : new Ajv(opts);
    if (draft === '06' || draft === '07') ajv.addMetaSchema(draft06Meta);
    addFormats(ajv);
    return ajv;
  };
  return (schema, value) => {
    try {
      const validate = make(detectDraft(schema)).compile(schema as object);
      if (validate(value)) return true;
      const e = validate.errors?.[0];
      return `${e?.instancePath || '/'} ${e?.message ?? ''} (${e?.schemaPath ?? ''})`;
    } catch (err) {
      return `independent compile failed: ${(err as Error).message.slice(0, 120)}`;
    }
  };
}
