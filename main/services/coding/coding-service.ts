/**
 * Coding analysis (`POST /v1/coding/analyze`): ICD-10-CM codes and the office E/M level of a
 * text or of a stored note, each with evidence spans into the text analysed.
 */
import { invalidRequest, notFound, payloadTooLarge, DomainError } from '../errors.js';
import { readDocument } from '../encounter/written-note.js';
import { suggestEmLevel, type EmReasoning } from './em-level.js';
import type { IcdCoder, IcdSuggestion } from './icd-coder.js';
import { toEvidence, type EvidenceSpan } from './offsets.js';
import type { CodeProposer, CptTable } from './ports.js';

/** One suggested code as the API answers it. */
export interface CodeView {
  system: 'ICD-10-CM' | 'CPT';
  code: string;
  display: string;
  confidence: number;
  evidence: EvidenceSpan[];
  rank: number;
  /** ICD-10-CM: the edition; CPT: absent. */
  edition?: string;
  /** ICD-10-CM: current, status, history or family. */
  role?: IcdSuggestion['role'];
  related?: string[];
  why?: string[];
  /** ICD-10-CM: the rule or convention that chose the code, in one line. */
  rule?: string;
  /** CPT E/M: how the level was reached. */
  reasoning?: EmReasoning;
  /** True when the display comes from the operator's licensed CPT table. */
  licensedDescriptor?: boolean;
  /** Which engine proposed it: the embedded coder, or a language model whose proposal passed the checks. */
  source?: 'embedded' | 'model';
}

export interface CodingAnalysis {
  codes: CodeView[];
  /** ICD-10-CM edition of the table used. */
  edition: string;
  /** When a stored note was analysed: offsets refer to that note's `payload.markdown`. */
  noteId?: string;
  /** When a visit was analysed: offsets refer to its transcript. */
  visitId?: string;
  /** Findings the text negates, rules out or leaves uncertain, which were therefore not coded. */
  setAside: number;
}

/** The note as the coding service needs it (the notes service's view). */
export interface CodableNote {
  status: string;
  payload?: { markdown: string };
}

/** What the text is: a written text (a note, an assessment) or a visit conversation. */
export interface AnalyzeOptions {
  source?: 'text' | 'transcript';
  /** Whose engine choice the analysis follows (a language model proposes codes only when the account chose one). */
  accountId?: string;
}

export interface CodingService {
  readonly edition: string;
  /** With `source: 'transcript'`, the text is a conversation coded through the encounter understanding (no CPT level). */
  analyzeText(text: string, options?: AnalyzeOptions): Promise<CodingAnalysis>;
  analyzeNote(accountId: string, noteId: string): Promise<CodingAnalysis>;
}

/** Longest text analysed (characters); longer is a 413. About 30,000 words, far beyond a visit note. */
export const MAX_CODING_TEXT = 200_000;

/** The CPT display without a licence: the code's place in the E/M family, in Clindoc's own words. */
const emDisplay = (code: string): string =>
  `Office E/M, ${code.startsWith('992') && Number(code.slice(3)) < 10 ? 'new' : 'established'} patient, level ${code.slice(-1)} (CPT descriptor needs an AMA licence: set CLINDOC_CPT_TABLE)`;

export function createCodingService(deps: {
  coder: () => IcdCoder;
  notes: { get(accountId: string, noteId: string): Promise<CodableNote> };
  cpt?: CptTable;
  proposer?: CodeProposer;
}): CodingService {
  const analyze = async (text: string, source: 'text' | 'transcript' = 'text'): Promise<Omit<CodingAnalysis, 'edition'>> => {
    if (text.length > MAX_CODING_TEXT) throw payloadTooLarge(`${source}: at most ${MAX_CODING_TEXT} characters`);
    const coder = deps.coder();
    if (source === 'transcript') {
      // A conversation is no note: its codes come from the encounter's problems, and no E/M level is read from it.
      const heard = coder.analyzeTranscript(text);
      return { codes: heard.codes.map((c) => ({ ...c, source: 'embedded' as const })), setAside: heard.setAside.length };
    }
    const result = coder.analyze(text);
    let icd = result.codes;
    const codes: CodeView[] = icd.map((c) => ({ ...c, source: 'embedded' as const }));
    if (deps.proposer) {
      const extra = await deps.proposer.propose(text, icd).catch(() => []);
      for (const p of extra) if (!codes.some((c) => c.code === p.code)) codes.push({ ...p, rank: codes.length + 1, source: 'model' });
      icd = [...icd, ...extra];
    }
    const em = suggestEmLevel(text, readDocument(text), icd);
    if (em) {
      const descriptor = deps.cpt?.descriptor(em.code);
      codes.push({
        system: 'CPT', code: em.code, display: descriptor ?? emDisplay(em.code), confidence: em.confidence,
        evidence: [...toEvidence(text, em.spans), ...em.problemEvidence].slice(0, 6), rank: codes.length + 1, reasoning: em.reasoning,
        ...(descriptor ? { licensedDescriptor: true } : {}), source: 'embedded',
      });
    }
    return { codes, setAside: result.setAside.length };
  };
  return {
    get edition() {
      return deps.coder().edition;
    },
    async analyzeText(text, options) {
      const done = await analyze(text, options?.source);
      return { ...done, edition: deps.coder().edition };
    },
    async analyzeNote(accountId, noteId) {
      const note = await deps.notes.get(accountId, noteId);
      if (!note) throw notFound('note');
      if (note.status !== 'STATUS_DONE' || !note.payload) {
        throw new DomainError('conflict', `noteId: the note is ${note.status}; analyze it once GET /v1/notes/{noteId} shows STATUS_DONE`);
      }
      const done = await analyze(note.payload.markdown);
      return { ...done, edition: deps.coder().edition, noteId };
    },
  };
}

const SOURCES = ['text', 'noteId', 'transcript', 'visitId'] as const;

/** Checks the request shape the schema cannot: exactly one of text, noteId, transcript and visitId. */
export function requireOneSource(body: Partial<Record<(typeof SOURCES)[number], unknown>>): void {
  const given = SOURCES.filter((k) => body[k] !== undefined);
  if (!given.length) throw invalidRequest('text: give one of text, noteId, transcript or visitId');
  if (given.length > 1) throw invalidRequest(`${given[1]}: give one of text, noteId, transcript or visitId, not ${given.join(' and ')}`);
}
