import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { writeTinyGguf } from '../../scripts/make-tiny-gguf.js';
import { createLlamaCppModel } from '../../main/engines/llm/llama-cpp.js';
import { DomainError } from '../../main/services/errors.js';
import type { LanguageModel } from '../../main/services/language-model.js';
import { createLlmNoteWriter } from '../../main/engines/text/llm/note-writer.js';
import type { NoteTemplate } from '../../shared/note-template.js';

// A random-weight model writes nonsense: these tests check structure (loading, grammar, JSON that
// parses and validates, serialised calls, close), never content.
let dir: string;
let modelPath: string;
let model: LanguageModel;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'clindoc-llm-'));
  modelPath = writeTinyGguf(join(dir, 'tiny.gguf'));
  model = createLlamaCppModel({ modelPath, threads: 1, contextSize: 1024 });
});

afterAll(async () => {
  await model.close?.();
  rmSync(dir, { recursive: true, force: true });
});

const noteSchema = {
  type: 'object',
  properties: {
    chief_complaint: { type: 'string', maxLength: 40 },
    plan: { type: 'array', items: { type: 'string', maxLength: 20 }, maxItems: 3 },
    severity: { enum: ['mild', 'moderate', 'severe'] },
    // Nullable arrays come out as null in node-llama-cpp's raw grammar; the rewrite keeps them arrays.
    allergies: { type: ['array', 'null'], items: { type: 'string', maxLength: 10 }, maxItems: 2 },
    // `required` is ignored by the grammar: validation must still hold.
  },
  required: ['chief_complaint', 'plan', 'severity', 'allergies'],
  additionalProperties: false,
};

describe('llama.cpp in-process language model', () => {
  it('loads lazily: a missing file is only reported, as a 503, when used', async () => {
    const missing = createLlamaCppModel({ modelPath: join(dir, 'absent.gguf'), threads: 1 });
    expect(missing.name).toBe('llama-cpp');
    const err = await missing.complete({ system: 's', user: 'u' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).status).toBe(503);
    // Worded as every model engine words it (engines/models/lazy-model.ts), with the runtime's reason.
    expect((err as DomainError).message).toMatch(/^local language model could not be loaded \(.+\)$/);
    await missing.close?.();
  });

  it('answers a plain prompt and reports when it stopped at the token limit', async () => {
    const result = await model.complete({ system: 'You are terse.', user: 'Say hello.', maxTokens: 12, temperature: 0 });
    expect(typeof result.text).toBe('string');
    expect(['stop', 'length']).toContain(result.finishReason);
  });

  it('constrains answers to JSON that parses and validates against the schema', async () => {
    const validate = new Ajv({ strict: false }).compile(noteSchema);
    for (const [i, user] of ['Cough for three days.', 'Knee pain after a fall.', 'Follow-up for diabetes.'].entries()) {
      const result = await model.complete({
        system: 'Write the note as JSON.',
        user,
        jsonSchema: noteSchema,
        maxTokens: 400,
        temperature: 0.7 + i * 0.1,
      });
      const parsed: unknown = JSON.parse(result.text);
      expect(validate(parsed), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  it('serves concurrent calls one after another on its single context', async () => {
    const schema = { type: 'object', properties: { a: { type: 'string', maxLength: 8 } } };
    const answers = await Promise.all(
      [1, 2, 3].map((n) => model.complete({ system: 's', user: `call ${n}`, jsonSchema: schema, maxTokens: 60 })),
    );
    for (const answer of answers) expect(typeof (JSON.parse(answer.text) as { a: unknown }).a).toBe('string');
  });

  it('drives the note writer end to end: grammar-shaped answer, validated, rendered in the template\'s shape', async () => {
    const template: NoteTemplate = {
      id: 'tiny',
      title: 'Tiny',
      sections: [
        { id: 'cc', type: 'text', prompt: 'Chief complaint', properties: { label: 'CC', detail_level: 'minimal', max_sentences: 1 } },
        {
          id: 'h',
          type: 'heading',
          properties: { level: 2, text: 'Plan' },
          children: [{ id: 'steps', type: 'list', prompt: 'Plan steps', properties: { list_type: 'numeric', max_items: 2, detail_level: 'minimal' } }],
        },
      ],
    };
    // The tiny tokenizer spells most words letter by letter: the note prompt needs a wide window.
    const wide = createLlamaCppModel({ modelPath, threads: 1, contextSize: 8192 });
    const note = await createLlmNoteWriter(wide, { maxTokens: 800 }).write({
      transcript: '[doctor] What brings you in?\n[patient] A cough.',
      noteType: { type: 'note_template', noteTemplate: template, includeJson: true },
      language: 'en',
    });
    expect(note.markdown).toMatch(/^\*\*CC:\*\* |^Nothing recorded here; check the transcript\./);
    expect(note.markdown).toContain('\n\n## Plan\n\n');
    const json = note.json as { CC: unknown; Plan: { steps: unknown } };
    expect(Object.keys(json)).toEqual(['CC', 'Plan']);
    expect(typeof json.CC).toBe('string');
    expect(Array.isArray(json.Plan.steps)).toBe(true);
    expect((json.Plan.steps as unknown[]).length).toBeLessThanOrEqual(2);
    await wide.close?.();
  });

  it('says so when the prompt does not fit the context window', async () => {
    const narrow = createLlamaCppModel({ modelPath, threads: 1, contextSize: 256 });
    const err = await narrow.complete({ system: 'x'.repeat(2000), user: 'u' }).catch((e: unknown) => e);
    expect((err as DomainError).status).toBe(503);
    expect((err as DomainError).message).toMatch(/does not fit/);
    await narrow.close?.();
  });

  it('refuses work after close with a 503', async () => {
    const own = createLlamaCppModel({ modelPath, threads: 1, contextSize: 512 });
    await own.complete({ system: 's', user: 'u', maxTokens: 4 });
    await own.close?.();
    const err = await own.complete({ system: 's', user: 'u' }).catch((e: unknown) => e);
    expect((err as DomainError).status).toBe(503);
  });
});
