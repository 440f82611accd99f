import { describe, it, expect } from 'vitest';
import type { CompletionRequest, LanguageModel } from '../../main/services/language-model.js';
import { NOTE, validatesAgainst, embeddedExtraction } from './helpers.js';

/** Test double for the LanguageModel port: answers the given strings in turn and records requests. */
function scriptedModel(answers: (string | Error)[]): LanguageModel & { requests: CompletionRequest[] } {
  const requests: CompletionRequest[] = [];
  return {
    name: 'scripted',
    requests,
    async complete(request) {
      requests.push(request);
      const next = answers.shift() ?? '';
      if (next instanceof Error) throw next;
      return { text: next };
    },
  };
}

const schema = {
  type: 'object',
  required: ['age', 'sex'],
  additionalProperties: false,
  properties: {
    age: { type: 'integer', minimum: 0 },
    sex: { $ref: '#/definitions/sex' },
    allergies: { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'null' }] },
  },
  definitions: { sex: { type: 'string', enum: ['Male', 'Female'] } },
};

describe('extraction through a configured language model', () => {
  it('returns the model answer when it validates, and sends a grammar-safe schema', async () => {
    const model = scriptedModel(['{"age": 70, "sex": "Female", "allergies": ["latex"]}']);
    const answer = await embeddedExtraction(model).extract(NOTE, schema);
    expect(answer).toEqual({ age: 70, sex: 'Female', allergies: ['latex'] });
    const sent = JSON.stringify(model.requests[0]?.jsonSchema);
    expect(sent).not.toMatch(/\$ref|anyOf|allOf|definitions/);
    expect(model.requests[0]?.user).toContain(NOTE);
    expect(model.requests[0]?.system).toMatch(/negat/i);
  });

  it('repairs an answer with wrong types and extra fields', async () => {
    const model = scriptedModel(['```json\n{"age": "70", "sex": "Female", "mood": "ok", "allergies": null}\n```']);
    const answer = await embeddedExtraction(model).extract(NOTE, schema);
    expect(answer).toEqual({ age: 70, sex: 'Female', allergies: null });
    expect(validatesAgainst(schema, answer)).toBe(true);
  });

  it('falls back to the embedded engine when the model answers garbage or fails', async () => {
    for (const reply of ['I cannot help with that.', new Error('engine down')]) {
      const model = scriptedModel([reply]);
      const answer = await embeddedExtraction(model).extract(NOTE, schema);
      expect(answer).toEqual({ age: 67, sex: 'Male', allergies: ['penicillin', 'sulfa'] });
    }
  });
});
