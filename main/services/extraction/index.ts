import type { LanguageModel } from '../language-model.js';
import { invalidRequest, payloadTooLarge } from '../errors.js';
import { buildFieldTree } from './field-tree.js';
import { buildValue, type BuildContext } from './generator.js';
import { createLlmExtractor } from './llm-path.js';
import { checkExtracted, type ExtractionFlag } from './llm-check.js';
import type { FieldNode, TextExtractor } from './ports.js';
import { SchemaAuditError, SCHEMA_SHAPE_LIMITS } from './schema-audit.js';
import { UnsatisfiableError } from './schema-merge.js';
import { createSchemaRegistry, describeErrors, SchemaRejectedError, type CompiledSchema } from './schema-registry.js';
import { UnsafePatternError } from './safe-regexp.js';
import { isObject } from './schema-walk.js';

export type { FieldNode, TextExtractor } from './ports.js';
export type { ExtractionFlag } from './llm-check.js';

/** What text-to-JSON answers: the value, who read it, and what the check flagged in a model's answer. */
export interface ExtractionResult {
  /** Validates against the caller's schema. */
  data: unknown;
  /** The engine whose reading `data` is: `embedded`, or the language model's engine name (`openai-compatible`, `llama-cpp`). */
  engine: string;
  /** Values of a model's answer the text does not support (removed or marked); empty for the embedded reader. */
  review: ExtractionFlag[];
}

/** Text-to-JSON: answers a value that validates against the caller's schema, or throws a DomainError. */
export interface ExtractionService {
  /** The value alone. `accountId`: whose engine choice the reading follows (composition; the service itself ignores it). */
  extract(text: string, schema: unknown, accountId?: string): Promise<unknown>;
  /** The value with the engine that read it and the check's flags (what `POST /v1/utils/text-to-json` answers). */
  extractChecked(text: string, schema: unknown, accountId?: string): Promise<ExtractionResult>;
}

/** Request limits: beyond them `extract` throws payloadTooLarge (413). */
export const EXTRACTION_LIMITS = {
  /** Longest text accepted, in Unicode code points. */
  maxTextChars: 200_000,
  /** Largest schema accepted, as serialized JSON bytes (the largest public schemas are ~1.3 MB). */
  maxSchemaBytes: 4_000_000,
  /** Deepest nesting of the schema document. */
  maxSchemaDepth: SCHEMA_SHAPE_LIMITS.maxDepth,
};

/** Work units one answer may spend exploring alternatives before giving up (hostile schemas). */
const BUILD_STEPS = 50_000;

export interface ExtractionDeps {
  /**
   * When set, extraction goes through the model first, instructed by `prompt` (the text of
   * `resources/prompts/extraction.md`, read by the composition); the embedded reader is the fallback.
   */
  llm?: { model: LanguageModel; prompt: string };
  /** Text reader used without a model or when the model's answer cannot be repaired (the embedded clinical reader). */
  extractor: TextExtractor;
  /** Compiled schemas kept (LRU, keyed by a hash of the schema). Default 256. */
  schemaCacheSize?: number;
}

/**
 * Creates the text-to-JSON service. Schemas are audited, compiled with ajv for their draft and
 * cached by hash; the text is read by the language model (when configured) or the embedded
 * clinical reader; the result is rebuilt to conform and checked by ajv before it is returned.
 */
export function createExtractionService(deps: ExtractionDeps): ExtractionService {
  const registry = createSchemaRegistry({ cacheSize: deps.schemaCacheSize });
  const reader = deps.extractor;
  const llm = deps.llm ? createLlmExtractor(deps.llm.model, deps.llm.prompt) : undefined;
  const trees = new WeakMap<CompiledSchema, FieldNode>();

  const fieldTree = (compiled: CompiledSchema): FieldNode => {
    let tree = trees.get(compiled);
    if (!tree) {
      tree = buildFieldTree(compiled.schema, compiled.draft, compiled.refs);
      trees.set(compiled, tree);
    }
    return tree;
  };

  const extractChecked = async (text: string, schema: unknown): Promise<ExtractionResult> => {
    if (typeof text !== 'string') throw invalidRequest('text must be a string');
    if (text.length > EXTRACTION_LIMITS.maxTextChars && [...text].length > EXTRACTION_LIMITS.maxTextChars) {
      throw payloadTooLarge(`text is longer than ${EXTRACTION_LIMITS.maxTextChars} characters`);
    }
    if (!isObject(schema) && typeof schema !== 'boolean') throw invalidRequest('schema must be a JSON Schema object');
    const serialized = JSON.stringify(schema);
    if (Buffer.byteLength(serialized) > EXTRACTION_LIMITS.maxSchemaBytes) {
      throw payloadTooLarge(`schema is larger than ${EXTRACTION_LIMITS.maxSchemaBytes} bytes`);
    }
    const compiled = compile(registry, schema, serialized);
    const tree = fieldTree(compiled);
    if (llm && deps.llm) {
      const answer = await llm.extract(text, compiled, tree);
      if (answer !== undefined) {
        const repaired = compiled.validate(answer) ? { ok: true as const, value: answer } : tryConform(compiled, answer);
        if (repaired.ok) {
          // A model's answer is a proposal: held to the text as a note is (invented values out, contradictions listed).
          const checked = checkExtracted(repaired.value, text, (v) => compiled.validate(v) as boolean);
          return { data: checked.data, engine: deps.llm.model.name, review: checked.review };
        }
      }
    }
    const hints = reader.extract(text, tree);
    return { data: conform(compiled, hints), engine: 'embedded', review: [] };
  };

  return {
    extractChecked,
    async extract(text: string, schema: unknown): Promise<unknown> {
      return (await extractChecked(text, schema)).data;
    },
  };
}

function compile(registry: ReturnType<typeof createSchemaRegistry>, schema: object | boolean, serialized: string): CompiledSchema {
  try {
    return registry.get(schema as CompiledSchema['schema'], serialized);
  } catch (err) {
    if (err instanceof SchemaRejectedError || err instanceof SchemaAuditError || err instanceof UnsafePatternError) {
      throw invalidRequest(err.message);
    }
    throw err;
  }
}

/** Builds from the hints; then from no hints at all; a schema neither satisfies is a 400. */
function conform(compiled: CompiledSchema, hints: unknown): unknown {
  const first = tryConform(compiled, hints);
  if (first.ok) return first.value;
  const bare = tryConform(compiled, undefined);
  if (bare.ok) return bare.value;
  throw invalidRequest(`schema is unsatisfiable: ${bare.reason ?? first.reason}`);
}

function tryConform(compiled: CompiledSchema, hints: unknown): { ok: true; value: unknown } | { ok: false; reason: string } {
  const ctx: BuildContext = { draft: compiled.draft, refs: compiled.refs, checker: compiled.checker, steps: BUILD_STEPS };
  let value: unknown;
  try {
    value = buildValue(compiled.schema, hints, ctx);
  } catch (err) {
    if (err instanceof UnsatisfiableError) return { ok: false, reason: err.message };
    throw err;
  }
  if (compiled.validate(value)) return { ok: true, value };
  return { ok: false, reason: `no value could be built that meets ${describeErrors(compiled.validate.errors)}` };
}
