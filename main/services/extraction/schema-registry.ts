import { createHash } from 'node:crypto';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as draft04Module from 'ajv-draft-04';
import * as formatsModule from 'ajv-formats';
import draft06Meta from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import { createChecker, type Checker } from './checker.js';
import { createAjvRegExpEngine } from './safe-regexp.js';
import { auditSchema } from './schema-audit.js';
import { createRefResolver, detectDraft, isObject, type Draft, type RefResolver, type Schema } from './schema-walk.js';

type AjvLike = InstanceType<typeof Ajv>;

/** A caller schema, compiled once: ajv's validator plus what the builder needs to read it. */
export interface CompiledSchema {
  readonly schema: Schema;
  readonly draft: Draft;
  readonly validate: ValidateFunction;
  readonly refs: RefResolver;
  readonly checker: Checker;
}

/** Raised for schemas that are invalid, unsupported or unresolvable; the message says why. */
export class SchemaRejectedError extends Error {}

// ajv-draft-04 and ajv-formats are CommonJS; their default export arrives as a property.
const AjvDraft04 = ((draft04Module as unknown as { default: { default?: unknown } }).default.default ??
  (draft04Module as unknown as { default: unknown }).default) as typeof Ajv;
const addFormats = ((formatsModule as unknown as { default: { default?: unknown } }).default.default ??
  (formatsModule as unknown as { default: unknown }).default) as (ajv: AjvLike) => AjvLike;

/**
 * Holds one ajv instance per draft and an LRU of compiled schemas keyed by a hash of the
 * schema text, so repeated requests with the same schema skip compilation.
 */
export function createSchemaRegistry(options: { cacheSize?: number } = {}) {
  const cacheSize = options.cacheSize ?? 256;
  const regExp = createAjvRegExpEngine();
  const instances = new Map<Draft, AjvLike>();
  const cache = new Map<string, CompiledSchema>();

  const ajvFor = (draft: Draft): AjvLike => {
    let ajv = instances.get(draft);
    if (ajv) return ajv;
    const opts = {
      strict: false, allErrors: false, logger: false as const, addUsedSchema: false, ownProperties: true,
      validateFormats: true, code: { regExp }, allowUnionTypes: true,
    };
    if (draft === '04') ajv = new AjvDraft04(opts);
    else if (draft === '2019') ajv = new Ajv2019(opts) as unknown as AjvLike;
    else if (draft === '2020') ajv = new Ajv2020(opts) as unknown as AjvLike;
    else {
      ajv = new Ajv(opts);
      ajv.addMetaSchema(draft06Meta);
    }
    addFormats(ajv);
    instances.set(draft, ajv);
    return ajv;
  };

  return {
    /**
     * Returns the compiled form of `schema`, compiling and caching it on first sight.
     * Throws SchemaRejectedError with a reason fit for a 400.
     */
    get(schema: Schema, serialized: string): CompiledSchema {
      const key = createHash('sha256').update(serialized).digest('hex');
      const hit = cache.get(key);
      if (hit) {
        cache.delete(key);
        cache.set(key, hit);
        return hit;
      }
      let draft = detectDraft(schema);
      auditSchema(schema, isObject(schema) && typeof schema.$schema === 'string' ? draft : undefined);
      let validate: ValidateFunction;
      try {
        validate = ajvFor(draft).compile(schema as object);
      } catch (err) {
        // Undeclared schemas written with draft-04's `id` read as draft-04 (what their authors used).
        const undeclared = !(typeof schema === 'object' && typeof schema.$schema === 'string');
        if (!undeclared || !/keyword "id"/.test(String((err as Error).message))) throw new SchemaRejectedError(describeCompileError(err));
        draft = '04';
        try {
          validate = ajvFor(draft).compile(schema as object);
        } catch (retryErr) {
          throw new SchemaRejectedError(describeCompileError(retryErr));
        }
      }
      const refs = createRefResolver(schema, draft);
      const compiled: CompiledSchema = { schema, draft, validate, refs, checker: createChecker(draft, refs) };
      cache.set(key, compiled);
      if (cache.size > cacheSize) {
        const [oldest, entry] = cache.entries().next().value as [string, CompiledSchema];
        cache.delete(oldest);
        ajvFor(entry.draft).removeSchema(entry.schema as object);
      }
      return compiled;
    },
    /** Number of compiled schemas held (for tests and metrics). */
    size: (): number => cache.size,
  };
}

export type SchemaRegistry = ReturnType<typeof createSchemaRegistry>;

function describeCompileError(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  if (/can't resolve reference|missingRef/i.test(message)) {
    const ref = /reference (\S+)/.exec(message)?.[1] ?? '';
    return `schema has a $ref that cannot be resolved inside the document${ref ? ` (${ref})` : ''}; external references are not fetched`;
  }
  if (message.startsWith('schema is invalid')) return message.replace(/^schema is invalid: data/, 'schema is invalid: schema');
  if (/pattern|regular expression|Invalid regular/i.test(message)) return `schema has a pattern that cannot be used: ${message.slice(0, 200)}`;
  return `schema cannot be compiled: ${message.slice(0, 200)}`;
}

/** Formats the first ajv error of a rejected answer (paths only: values never appear). */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  const e = errors?.[0];
  if (!e) return 'unknown validation error';
  return `${e.instancePath || '/'} ${e.message ?? 'is invalid'} (${e.schemaPath})`;
}
