import type { Static } from '@sinclair/typebox';
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { CodeSuggestion as CodeSuggestionSchema } from '../../shared/api/coding.js';
import type { ApiClient } from '../api/client.js';
import type { VisitCode, VisitState } from './visit-store.js';

/** A suggestion of `POST /v1/coding/analyze`, typed by the server's own schema. */
export type CodeSuggestion = Static<typeof CodeSuggestionSchema>;

export type Decision = 'accepted' | 'rejected';

export interface CodesState {
  status: 'idle' | 'analysing' | 'done' | 'error';
  error?: string;
  /** The exact text the suggestions' offsets refer to (the note's markdown when it was analysed). */
  analysedText?: string;
  suggestions: CodeSuggestion[];
  edition?: string;
  /** Findings the coder set aside as negated, ruled out or uncertain. */
  setAside: number;
  /** The suggestion whose evidence is shown in the note (its key): chosen by Show evidence or by focus. */
  active?: string;
  /** The suggestion under the pointer: shown while hovered, over `active`. */
  hover?: string;
  /** Asks the API for suggestions on `text` (the note as the physician sees it). */
  suggest(text: string): Promise<void>;
  setActive(key: string | undefined): void;
  setHover(key: string | undefined): void;
  /** Accepts a suggestion: it joins the visit's codes, saved at once. */
  accept(s: CodeSuggestion): Promise<void>;
  /** Rejects a suggestion: it leaves the visit's codes if it was accepted, and is kept as rejected with the visit. */
  reject(s: CodeSuggestion): Promise<void>;
  /** Takes back an accept or a reject. */
  undecide(s: CodeSuggestion): Promise<void>;
  /** Forgets the suggestions (another visit or another note). */
  clear(): void;
}

/** The key that names a suggestion in the panel and in the visit's codes. */
export const codeKey = (c: { system: string; code: string }): string => `${c.system}|${c.code}`;

/** Where a code stands in the visit: accepted, rejected, or undecided. */
export function decisionOf(visit: { codes: readonly VisitCode[]; rejectedCodes: readonly VisitCode[] }, c: { system: string; code: string }): Decision | undefined {
  const key = codeKey(c);
  if (visit.codes.some((a) => codeKey(a) === key)) return 'accepted';
  return visit.rejectedCodes.some((r) => codeKey(r) === key) ? 'rejected' : undefined;
}

export interface CodesDeps {
  client(): ApiClient | undefined;
  /** The open visit: accepted and rejected codes are stored there, saved with If-Match like every visit change. */
  visits: StoreApi<VisitState>;
}

/**
 * Coding suggestions for the note on screen and the physician's decisions. The offsets of each
 * suggestion refer to `analysedText`, which is exactly the text sent, so the highlight is drawn
 * over the same characters the coder read; once the note changes, the panel asks for a new run.
 */
export function createCodesStore(deps: CodesDeps): StoreApi<CodesState> {
  const toVisitCode = (s: CodeSuggestion): VisitCode => ({ system: s.system, code: s.code, display: s.display.slice(0, 500) });
  /** Saves the visit's decisions with `s` moved to `decision` (undefined: undecided). */
  const decide = async (s: CodeSuggestion, decision: Decision | undefined): Promise<void> => {
    const { codes, rejectedCodes, setCodeDecisions } = deps.visits.getState();
    const key = codeKey(s);
    const others = (list: VisitCode[]): VisitCode[] => list.filter((c) => codeKey(c) !== key);
    if (decisionOf({ codes, rejectedCodes }, s) === decision) return;
    await setCodeDecisions(
      decision === 'accepted' ? [...others(codes), toVisitCode(s)] : others(codes),
      decision === 'rejected' ? [...others(rejectedCodes), toVisitCode(s)] : others(rejectedCodes),
    );
  };

  const store = createStore<CodesState>()((set) => ({
    status: 'idle',
    suggestions: [],
    setAside: 0,
    async suggest(text) {
      const client = deps.client();
      if (!client) return set({ status: 'error', error: 'Not connected to the local API.' });
      set({ status: 'analysing', error: undefined, active: undefined, hover: undefined });
      try {
        const result = await client.analyzeCoding(text);
        set({ status: 'done', analysedText: text, suggestions: result.codes, edition: result.edition, setAside: result.setAside });
      } catch (err) {
        set({ status: 'error', error: `Codes could not be suggested: ${(err as Error).message}` });
      }
    },
    setActive(key) {
      set({ active: key });
    },
    setHover(key) {
      set({ hover: key });
    },
    accept: (s) => decide(s, 'accepted'),
    reject: (s) => decide(s, 'rejected'),
    undecide: (s) => decide(s, undefined),
    clear() {
      set({ status: 'idle', error: undefined, analysedText: undefined, suggestions: [], edition: undefined, setAside: 0, active: undefined, hover: undefined });
    },
  }));
  // Another visit opened (or a new one started): its suggestions are not this one's.
  deps.visits.subscribe((s, prev) => {
    if (s.currentId !== prev.currentId && prev.currentId !== undefined) store.getState().clear();
  });
  return store;
}

/**
 * Splits `text` into pieces around code-point spans, for drawing `<mark>` elements. Offsets
 * count code points (as the API does), not UTF-16 units, so a character outside the Basic
 * Multilingual Plane (an emoji, a rare CJK character) before the evidence shifts nothing.
 * Overlapping or out-of-range spans are clipped.
 */
export function splitByCodePoints(text: string, spans: readonly { start_char: number; end_char: number }[]): { text: string; marked: boolean }[] {
  const points = Array.from(text);
  const sorted = [...spans].sort((a, b) => a.start_char - b.start_char);
  const out: { text: string; marked: boolean }[] = [];
  let at = 0;
  for (const span of sorted) {
    const start = Math.max(at, Math.min(span.start_char, points.length));
    const end = Math.max(start, Math.min(span.end_char, points.length));
    if (end <= start) continue;
    if (start > at) out.push({ text: points.slice(at, start).join(''), marked: false });
    out.push({ text: points.slice(start, end).join(''), marked: true });
    at = end;
  }
  if (at < points.length) out.push({ text: points.slice(at).join(''), marked: false });
  return out;
}
