/**
 * `npm run eval:coding -- --engine NAME [--max N]`: the coder as Clindoc runs it for an account whose
 * note engine is NAME (an installed or configured language model, or its own server): the embedded
 * coder's codes plus those the model proposes and the checks keep (main/engines/coding/llm-proposer.ts).
 * Codes the first N labelled notes of each split (default 7: a model on a CPU takes seconds a note);
 * the tables are the embedded coder's (scripts/eval-coding.ts).
 */
import { createLlmCodeProposer } from '../main/engines/coding/llm-proposer.js';
import type { CodeTable } from '../main/services/coding/ports.js';
import { createCodingService } from '../main/services/coding/coding-service.js';
import { WARM_UP, type IcdCoder } from '../main/services/coding/icd-coder.js';
import { ACI_SPLITS, type AciCase, type RankedAnswer } from './aci-coding.js';
import { openEngine } from './eval-engine.js';

/** The cases coded with an engine: the first `max` of each split, in the split order (held-out first). */
export function engineCases(cases: AciCase[], max: number): AciCase[] {
  return ACI_SPLITS.flatMap((split) => cases.filter((c) => c.split === split).slice(0, max));
}

/** Codes each note through the coding service with the engine's proposer; undefined for `embedded` (nothing to add). */
export async function answersWithEngine(name: string, cases: AciCase[], coder: IcdCoder, table: CodeTable): Promise<RankedAnswer[] | undefined> {
  const { registry, close } = await openEngine('text', name);
  try {
    const model = registry.languageModel(name);
    if (!model) return undefined;
    const service = createCodingService({
      coder: () => coder,
      notes: { get: () => Promise.reject(new Error('no stored notes in an evaluation')) },
      proposer: createLlmCodeProposer(model, () => table),
    });
    for (const w of WARM_UP) coder.analyze(w); // the coder's indexes, outside the timed notes
    const answers: RankedAnswer[] = [];
    for (const c of cases) {
      const started = performance.now();
      const { codes } = await service.analyzeText(c.note);
      answers.push({
        id: c.id, ms: performance.now() - started,
        codes: codes.filter((x) => x.system !== 'CPT').map((x) => ({ code: x.code, confidence: x.confidence, evidence: x.evidence })),
      });
    }
    return answers;
  } finally {
    await close();
  }
}
