import type { LanguageModel } from '../language-model.js';
import type { FieldNode } from './ports.js';
import type { CompiledSchema } from './schema-registry.js';

/** Model answers beyond this many characters are not parsed (runaway generations). */
const MAX_ANSWER_CHARS = 200_000;

/**
 * Extraction through a language model. The caller's schema is rewritten into the subset that
 * llama.cpp-style JSON grammars honour (plain objects, arrays, primitive types and enums; no
 * `$ref`, `anyOf`, bounds or patterns), because grammars silently mishandle the rest. The
 * answer is only a proposal: the service validates it and repairs it with the schema builder.
 * `system` is the instruction text (`resources/prompts/extraction.md`, read by the composition).
 */
export function createLlmExtractor(model: LanguageModel, system: string) {
  return {
    /** Returns the parsed answer, or `undefined` when the model failed or answered non-JSON. */
    async extract(text: string, compiled: CompiledSchema, tree: FieldNode): Promise<unknown> {
      const grammarSchema = grammarSchemaFor(tree);
      const user = [
        'JSON Schema of the answer (descriptions are the instructions):',
        JSON.stringify(compiled.schema).slice(0, 60_000),
        '',
        'Clinical text:',
        text,
      ].join('\n');
      let answer: string;
      try {
        const result = await model.complete({ system, user, jsonSchema: grammarSchema, temperature: 0 });
        answer = result.text;
      } catch {
        // An engine failure must not fail the request: the embedded reader answers instead.
        return undefined;
      }
      return parseJsonAnswer(answer);
    },
  };
}

/** Rewrites the field tree into a grammar-safe schema (every property emitted, nullable leaves). */
export function grammarSchemaFor(node: FieldNode): Record<string, unknown> {
  switch (node.kind) {
    case 'object': {
      const properties: Record<string, unknown> = {};
      for (const field of node.fields ?? []) properties[field.name] = grammarSchemaFor(field);
      return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
    }
    case 'array':
      return { type: 'array', items: node.item ? grammarSchemaFor(node.item) : { type: 'string' } };
    case 'any':
      return { type: ['string', 'null'] };
    default: {
      const values = node.enum?.filter((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
      if (values && values.length > 0) return { enum: [...values, null] };
      const base: Record<string, unknown> = { type: [node.kind, 'null'] };
      if (node.kind === 'string' && (node.format === 'date' || node.format === 'date-time' || node.format === 'time')) {
        return { oneOf: [{ type: 'string', format: node.format }, { type: 'null' }] };
      }
      return base;
    }
  }
}

/** Parses a model answer: plain JSON, JSON inside code fences, or the first JSON value in prose. */
export function parseJsonAnswer(answer: string): unknown {
  const trimmed = answer.slice(0, MAX_ANSWER_CHARS).trim();
  const fenced = /```(?:json)?\s*([\s\S]*?)```/i.exec(trimmed);
  const candidates = [trimmed, fenced?.[1]?.trim()];
  const start = trimmed.search(/[[{]/);
  if (start >= 0) {
    const closer = trimmed[start] === '{' ? '}' : ']';
    const end = trimmed.lastIndexOf(closer);
    if (end > start) candidates.push(trimmed.slice(start, end + 1));
  }
  for (const candidate of candidates) {
    if (!candidate) continue;
    try {
      return JSON.parse(candidate) as unknown;
    } catch {
      // try the next reading
    }
  }
  return undefined;
}
