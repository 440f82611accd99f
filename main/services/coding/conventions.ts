/**
 * The table's conventions applied to the codes a note yields: combination codes for conditions
 * that occur together, codes absorbed by a combination that names them, symptoms a confirmed
 * diagnosis explains, Excludes1 pairs, and the "use additional code" / "code also" / "code first"
 * links that also decide which of two codes comes first.
 */
import type { CompiledLexicon } from './lexicon.js';
import type { CodeEntry, CodeNotes, CodeTable } from './ports.js';
import type { ParsedTitle } from './words.js';

/** A code the note supports, before ranking. Offsets are UTF-16 positions. */
export interface Candidate {
  entry: CodeEntry;
  role: 'current' | 'history' | 'family' | 'status';
  spans: { start: number; end: number }[];
  /** Position of the first mention (the assessment's order ranks the codes). */
  firstAt: number;
  /** Plain-language reasons the code was chosen (combination, history, ...). */
  why: string[];
  /** How the words led to the code when no convention did ("... is a term of the synonym index; the most specific code ..."). */
  how?: string;
  /** Factors that make up the confidence. */
  evidenceScore: number;
  symptom: boolean;
  /** Named at the head of its sentence ("Left knee pain.", "1. Atypical chest pain"), as a problem is, not in passing. */
  headline: boolean;
  /** Position of the first mention that is a problem's heading (the problem list's order ranks the codes). */
  headAt?: number;
  /** Codes linked through the table's notes. */
  related: string[];
  /** Concepts of the synonym index behind it. */
  concepts: string[];
  /** Every mention so far was in counselling text: dropped unless a finding elsewhere confirms it. */
  discussionOnly: boolean;
  /** Named as the object of a work-up: a finding the visit addresses, not one that supports a diagnosis. */
  workedUp?: boolean;
  /** Named as what the patient is seen for: the reason for the visit. */
  reason?: boolean;
}

/** A code reference in a note: `E11.22`, `N18.-`, a range `N18.1-N18.6`. */
interface CodeRef {
  from: string;
  to: string;
}

const REF = /\b([A-Z][0-9][0-9A-Z](?:\.[0-9A-Z]{1,4})?)(?:\s*-\s*([A-Z][0-9][0-9A-Z](?:\.[0-9A-Z]{1,4})?))?/g;

const refsCache = new WeakMap<readonly string[], CodeRef[]>();

/** Code references in the text of notes ("(N18.1-N18.6)", "(E10.-)"). */
export function codeRefs(notes: readonly string[] | undefined): CodeRef[] {
  if (!notes) return [];
  const cached = refsCache.get(notes);
  if (cached) return cached;
  const out: CodeRef[] = [];
  refsCache.set(notes, out);
  for (const note of notes) {
    for (const m of note.matchAll(REF)) {
      const from = m[1]!.replace('.', '');
      const to = (m[2] ?? m[1]!).replace('.', '');
      out.push({ from, to });
    }
  }
  return out;
}

/** True when a code falls under a reference (prefix or range in table order by code text). */
export function refCovers(ref: CodeRef, code: string): boolean {
  const bare = code.replace('.', '');
  if (bare.startsWith(ref.from) || bare.startsWith(ref.to)) return true;
  return bare.slice(0, ref.from.length) >= ref.from && bare.slice(0, ref.to.length) <= ref.to;
}

const notesCache = new WeakMap<CodeTable, Map<string, CodeNotes>>();

/** Notes of a code and all its ancestors, merged (cached per table: conventions ask for them often). */
export function notesWithAncestors(table: CodeTable, code: string): CodeNotes {
  let cache = notesCache.get(table);
  if (!cache) notesCache.set(table, (cache = new Map()));
  let notes = cache.get(code);
  if (!notes) cache.set(code, (notes = mergeNotes(table, code)));
  return notes;
}

function mergeNotes(table: CodeTable, code: string): CodeNotes {
  const merged: Required<Pick<CodeNotes, 'excludes1' | 'useAdditionalCode' | 'codeAlso' | 'codeFirst'>> = { excludes1: [], useAdditionalCode: [], codeAlso: [], codeFirst: [] };
  for (let e: CodeEntry | undefined = table.get(code); e; e = table.parent(e.code)) {
    const n = table.notes(e.code);
    if (!n) continue;
    for (const k of Object.keys(merged) as (keyof typeof merged)[]) merged[k].push(...(n[k] ?? []));
  }
  return merged;
}

const matchesPrefix = (code: string, pattern: string): boolean => pattern.split('|').some((p) => code.startsWith(p));

/** Applies the combination rules of the index until none fits (hypertension with CKD -> I12.9 ...). */
export function applyCombinations(table: CodeTable, lexicon: CompiledLexicon, candidates: Map<string, Candidate>): void {
  for (let changed = true; changed; ) {
    changed = false;
    for (const rule of lexicon.combinations) {
      const current = [...candidates.values()].filter((c) => c.role === 'current');
      if (!rule.all.every((p) => current.some((c) => matchesPrefix(c.entry.code, p)))) continue;
      const replaced = current.find((c) => matchesPrefix(c.entry.code, rule.replace));
      const by = table.get(rule.by);
      if (!replaced || !by?.billable || replaced.entry.code === by.code) continue;
      candidates.delete(replaced.entry.code);
      const existing = candidates.get(by.code);
      const merged: Candidate = existing
        ? { ...existing, spans: [...existing.spans, ...replaced.spans], firstAt: Math.min(existing.firstAt, replaced.firstAt) }
        : { ...replaced, entry: by, why: [...replaced.why, rule.why], evidenceScore: replaced.evidenceScore * 0.97 };
      candidates.set(by.code, merged);
      changed = true;
    }
  }
}

/** Drops codes the index's exclusions rule out beside others (long-term insulin with type 1 diabetes). */
export function applyExclusions(lexicon: CompiledLexicon, candidates: Map<string, Candidate>): void {
  const codes = [...candidates.keys()];
  const any = (pattern: string): boolean => codes.some((c) => matchesPrefix(c, pattern));
  for (const rule of lexicon.exclusions) {
    if (!any(rule.when) || (rule.unless && any(rule.unless))) continue;
    for (const c of codes) if (matchesPrefix(c, rule.drop)) candidates.delete(c);
  }
}

/** Codes whose category another code's notes ask to be added ("use additional code", "code also"). */
function asksFor(table: CodeTable, code: string, other: string): boolean {
  const n = notesWithAncestors(table, code);
  const cat = other.replace('.', '').slice(0, 3);
  return [...codeRefs(n.useAdditionalCode), ...codeRefs(n.codeAlso)].some((r) => r.from.slice(0, 3) === cat || refCovers(r, other));
}

/**
 * Drops a code whose required title words a combination code already names ("hypoglycemia"
 * inside "Type 1 diabetes mellitus with hypoglycemia without coma"), unless the combination's
 * notes ask for it as an additional code (the CKD stage after E11.22).
 */
export function absorbIntoCombinations(table: CodeTable, titleOf: (e: CodeEntry) => ParsedTitle, candidates: Map<string, Candidate>): void {
  const current = [...candidates.values()].filter((c) => c.role === 'current');
  for (const b of current) {
    const needed = titleOf(b.entry).items.filter((i) => i.mode === 'required').map((i) => i.word);
    if (!needed.length) continue;
    for (const a of current) {
      if (a === b || !candidates.has(a.entry.code) || a.entry.code.slice(0, 3) === b.entry.code.slice(0, 3)) continue;
      const aWords = new Set(titleOf(a.entry).items.filter((i) => i.mode !== 'absent').map((i) => i.word));
      if (!needed.every((w) => aWords.has(w)) || asksFor(table, a.entry.code, b.entry.code)) continue;
      a.spans.push(...b.spans);
      takePlace(a, b);
      candidates.delete(b.entry.code);
      break;
    }
  }
}

/**
 * A code that stands for another it absorbs or explains takes that one's place in the problem
 * list: a heading "Hyperglycemia." coded as E11.65 ranks where the heading stands.
 */
function takePlace(keeper: Candidate, gone: Candidate): void {
  keeper.headline ||= gone.headline;
  if (gone.headAt !== undefined) keeper.headAt = Math.min(keeper.headAt ?? Infinity, gone.headAt);
  keeper.firstAt = Math.min(keeper.firstAt, gone.firstAt);
  if (gone.reason) keeper.reason = true;
}

/** Drops symptoms a confirmed diagnosis of the note explains (cough with pneumonia). */
export function dropExplainedSymptoms(lexicon: CompiledLexicon, candidates: Map<string, Candidate>): void {
  const diagnoses = [...candidates.values()].filter((c) => c.role === 'current' && !c.symptom);
  for (const c of [...candidates.values()]) {
    if (c.role !== 'current') continue;
    for (const [symptom, explainers] of lexicon.explains) {
      if (!c.entry.code.startsWith(symptom)) continue;
      const by = diagnoses.find((d) => d !== c && explainers.some((p) => d.entry.code.startsWith(p)));
      if (by) {
        takePlace(by, c);
        candidates.delete(c.entry.code);
        break;
      }
    }
  }
}

/** A "history of" code gives way when the note codes the same condition as current ("previous kidney stone" beside a recurrent one). */
export function dropHistoryOfCurrent(candidates: Map<string, Candidate>): void {
  const current = new Set([...candidates.values()].filter((c) => c.role === 'current').flatMap((c) => c.concepts));
  for (const c of [...candidates.values()]) if (c.role === 'history' && c.concepts.some((id) => current.has(id))) candidates.delete(c.entry.code);
}

/**
 * In an assessment that states diagnoses, a symptom mentioned in passing ("reports fatigue and
 * dizziness") supports a problem and is not a problem of its own; one named as a problem, or
 * worked up for itself ("an echocardiogram to evaluate his murmur"), stays.
 */
export function dropSupportingSymptoms(candidates: Map<string, Candidate>): void {
  if (![...candidates.values()].some((c) => c.role === 'current' && !c.symptom)) return;
  for (const c of [...candidates.values()]) {
    if (c.role !== 'current' || !c.symptom || c.headline) continue;
    if (!c.workedUp) candidates.delete(c.entry.code);
    else c.why.push('a finding the visit works up for itself, coded beside the diagnoses');
  }
}

/**
 * Within one category keeps the specific code over the unspecified one ("Streptococcal
 * pharyngitis" over "Acute pharyngitis, unspecified"), and resolves Excludes1 pairs in favour of
 * the better supported code.
 */
export function resolveConflicts(table: CodeTable, titleOf: (e: CodeEntry) => ParsedTitle, candidates: Map<string, Candidate>): void {
  const list = [...candidates.values()].filter((c) => c.role === 'current');
  for (const a of list) {
    for (const b of list) {
      if (a === b || !candidates.has(a.entry.code) || !candidates.has(b.entry.code)) continue;
      const sameCategory = a.entry.code.slice(0, 3) === b.entry.code.slice(0, 3);
      // "... without complications" cannot stand beside a complication of the same category (E11.9 and E11.65).
      const aWithout = titleOf(a.entry).items.some((i) => i.mode === 'absent' && /^complication/.test(i.word));
      const aVague = titleOf(a.entry).unspecified || titleOf(a.entry).other || aWithout;
      if (sameCategory && aVague && !titleOf(b.entry).unspecified && !asksFor(table, b.entry.code, a.entry.code) && !otherSides(titleOf(a.entry), titleOf(b.entry))) {
        b.spans.push(...a.spans);
        b.firstAt = Math.min(a.firstAt, b.firstAt);
        candidates.delete(a.entry.code);
        continue;
      }
      const excluded = codeRefs(notesWithAncestors(table, a.entry.code).excludes1).some((r) => refCovers(r, b.entry.code));
      if (excluded && !sameCategory) {
        // An Excludes1 note says where the condition is classified instead ("allergic rhinitis with asthma (J45.909)"
        // under J30): that code stands for both. Only when the notes exclude each other does the better evidence decide.
        const mutual = codeRefs(notesWithAncestors(table, b.entry.code).excludes1).some((r) => refCovers(r, a.entry.code));
        const loser = mutual ? (a.evidenceScore >= b.evidenceScore ? b : a) : a;
        const keeper = loser === a ? b : a;
        keeper.spans.push(...loser.spans);
        takePlace(keeper, loser);
        if (!keeper.why.length && keeper.how) keeper.why.push(keeper.how);
        keeper.why.push(`Excludes1: ${loser.entry.code} is not coded beside it, it stands for both`);
        candidates.delete(loser.entry.code);
      }
    }
  }
}

const SIDES = ['right', 'left', 'bilateral'];
const sidesOf = (t: ParsedTitle): string[] => t.items.filter((i) => i.mode === 'required' && SIDES.includes(i.word)).map((i) => i.word);
/** Both titles name a side and not the same one: two conditions (a left tear beside right tendinopathy), not one said twice. */
function otherSides(a: ParsedTitle, b: ParsedTitle): boolean {
  const [x, y] = [sidesOf(a), sidesOf(b)];
  return x.length > 0 && y.length > 0 && !x.some((w) => y.includes(w));
}

/** Fills `related` from the notes and returns the order constraints "code first" sets (etiology -> manifestation). */
export function linkPairs(table: CodeTable, candidates: Map<string, Candidate>): [string, string][] {
  const before: [string, string][] = [];
  const all = [...candidates.values()];
  for (const c of all) {
    const n = notesWithAncestors(table, c.entry.code);
    const pairs = [...codeRefs(n.useAdditionalCode), ...codeRefs(n.codeAlso), ...codeRefs(n.codeFirst)];
    const first = codeRefs(n.codeFirst);
    for (const o of all) {
      if (o === c) continue;
      if (pairs.some((r) => refCovers(r, o.entry.code))) c.related.push(o.entry.code);
      if (first.some((r) => refCovers(r, o.entry.code))) before.push([o.entry.code, c.entry.code]);
    }
  }
  return before;
}
