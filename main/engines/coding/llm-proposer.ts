import type { LanguageModel } from '../../services/language-model.js';
import { checkProposals, readProposals } from '../../services/coding/model-proposals.js';
import type { CodeProposer, CodeTable } from '../../services/coding/ports.js';

/** The model reads at most this much of a note: a visit note is far shorter. */
const MAX_TEXT_CHARS = 30_000;

const SYSTEM = `You are a certified outpatient medical coder. Read the clinical text and list ICD-10-CM codes
for the patient's current conditions that the text states, with the exact words of the text that
support each code. Rules: code only what is affirmed (never denied, ruled out, possible, probable or
suspected findings); a relative's condition is a family history Z code; a past resolved condition is a
personal history Z code; give the most specific billable code; copy the evidence word for word.
Answer JSON only: {"codes":[{"code":"E11.9","evidence":"type 2 diabetes"}]}.`;

const SCHEMA = {
  type: 'object',
  properties: { codes: { type: 'array', items: { type: 'object', properties: { code: { type: 'string' }, evidence: { type: 'string' } }, required: ['code', 'evidence'] } } },
  required: ['codes'],
};

/**
 * Model-assisted coding: the configured language model proposes codes the embedded coder may have
 * missed; `checkProposals` keeps only those that exist in the table, are supported by words really
 * in the text and pass the negation rules. A model failure proposes nothing.
 */
export function createLlmCodeProposer(model: LanguageModel, table: () => CodeTable): CodeProposer {
  return {
    async propose(text, embedded) {
      if (!text.trim()) return [];
      const already = embedded.map((c) => c.code).join(', ') || 'none';
      const user = `Codes already found (do not repeat): ${already}\n\nClinical text:\n${text.slice(0, MAX_TEXT_CHARS)}`;
      let answer: unknown;
      try {
        const result = await model.complete({ system: SYSTEM, user, jsonSchema: SCHEMA, temperature: 0, maxTokens: 800 });
        answer = JSON.parse(result.text.replace(/^```(?:json)?\s*|\s*```$/g, ''));
      } catch {
        return [];
      }
      return checkProposals(text, readProposals(answer), table(), new Set(embedded.map((c) => c.code))).accepted;
    },
  };
}
