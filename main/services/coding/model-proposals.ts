/**
 * The gate for codes a language model proposes. A proposal is shown only when its code is a
 * billable code of the loaded table, its evidence is really in the text (the span is found, never
 * taken from the model), and the encounter understanding reads its evidence as the patient's
 * present condition (not denied, uncertain, ruled out, past or a relative's), as for the embedded coder. The display is the table's title, never the model's words.
 */
import { assertInNote } from '../encounter/note-facts.js';
import { readDocument } from '../encounter/written-note.js';
import type { IcdSuggestion } from './icd-coder.js';
import { toEvidence } from './offsets.js';
import type { CodeTable } from './ports.js';

/** What a model answers: a code and the words of the text that support it. */
export interface ModelProposal {
  code: string;
  evidence: string;
}

export interface ProposalVerdict {
  accepted: IcdSuggestion[];
  rejected: { code: string; why: string }[];
}

const MAX_PROPOSALS = 40;
/** Below the embedded coder's: a model's proposal passed the checks, it was not derived from the table's words. */
const MODEL_CONFIDENCE = 0.55;

/** Reads the model's answer (`{codes:[{code, evidence}]}` or a bare array); anything else proposes nothing. */
export function readProposals(answer: unknown): ModelProposal[] {
  const list = Array.isArray(answer) ? answer : Array.isArray((answer as { codes?: unknown })?.codes) ? (answer as { codes: unknown[] }).codes : [];
  return list
    .filter((p): p is ModelProposal => typeof (p as ModelProposal)?.code === 'string' && typeof (p as ModelProposal)?.evidence === 'string')
    .slice(0, MAX_PROPOSALS);
}

/** Finds the evidence in the text: exactly, else ignoring case. Returns UTF-16 offsets. */
function locate(text: string, evidence: string): { start: number; end: number } | undefined {
  const needle = evidence.trim();
  if (needle.length < 3) return undefined;
  let at = text.indexOf(needle);
  if (at < 0) at = text.toLowerCase().indexOf(needle.toLowerCase());
  return at < 0 ? undefined : { start: at, end: at + needle.length };
}

/** Checks every proposal; `skip` holds codes already suggested. */
export function checkProposals(text: string, proposals: readonly ModelProposal[], table: CodeTable, skip: ReadonlySet<string>): ProposalVerdict {
  const accepted: IcdSuggestion[] = [];
  const rejected: ProposalVerdict['rejected'] = [];
  const sentences = readDocument(text).sentences;
  for (const p of proposals) {
    const entry = table.get(p.code.trim());
    const reject = (why: string): void => void rejected.push({ code: p.code, why });
    if (!entry) {
      reject(`not a code of ${table.edition}`);
      continue;
    }
    if (!entry.billable) {
      reject('a category heading, not a billable code');
      continue;
    }
    if (skip.has(entry.code) || accepted.some((a) => a.code === entry.code)) continue;
    const span = locate(text, p.evidence);
    if (!span) {
      reject('evidence not found in the text');
      continue;
    }
    const sentence = sentences.find((s) => s.start <= span.start && span.end <= s.end);
    // What the text asserts of the evidence is the encounter understanding's answer, as for the embedded coder.
    const said = sentence ? assertInNote(sentence, span.start, span.end) : undefined;
    if (said?.status === 'denied' || said?.status === 'ruled-out' || said?.status === 'uncertain') {
      reject(said.status === 'denied' ? 'negated in the text' : 'uncertain or ruled out in the text');
      continue;
    }
    if (said?.subject === 'family' && !/^Z8[0-4]/.test(entry.code)) {
      reject("a relative's condition, not the patient's");
      continue;
    }
    if (said?.status === 'historical' && said.subject === 'patient' && !/^Z8[5-7]|^Z9|^I25\.2$/.test(entry.code)) {
      reject('history, not a current condition');
      continue;
    }
    const role: IcdSuggestion['role'] = /^Z8[0-4]/.test(entry.code) ? 'family' : /^Z8[5-7]/.test(entry.code) ? 'history' : /^Z(79|99|68)/.test(entry.code) ? 'status' : 'current';
    accepted.push({
      system: 'ICD-10-CM', code: entry.code, display: entry.title, confidence: MODEL_CONFIDENCE, evidence: toEvidence(text, [span]),
      edition: table.edition, role, rank: 0, related: [], why: ['proposed by the language model; checked against the table, the text and the negation rules'],
      rule: `${entry.code}: proposed by the language model; billable in ${table.edition}, its evidence found in the text, not negated, uncertain, family or past`,
    });
  }
  return { accepted, rejected };
}
