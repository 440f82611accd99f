/**
 * Scores written notes against the clinicians' references and sums them per split and path for
 * `npm run eval:notes` (scripts/eval-notes.ts): ROUGE, copy share, problems kept, medication-with-
 * dose recall, negation conflicts, unsupported numbers and drugs, length. The measures themselves
 * are in scripts/note-metrics.ts and scripts/rouge.ts.
 */
import { checkFidelity, fidelitySourcesOf, unsupportedNumbers } from '../main/services/notes/fidelity.js';
import { isDrugWord } from '../main/services/clinical-language/index.js';
import type { NoteGenerationInput } from '../main/services/notes/ports.js';
import { understandEncounter, type EncounterFacts } from '../main/services/encounter/index.js';
import { copyShare, kept, medicationRecall, negationConflicts, withinLength } from './note-metrics.js';
import { rougeL, rougeLsum, rougeN, sentenceTokens, tokens } from './rouge.js';

/** One encounter of a data set: its transcript and the clinician's note (or section). */
export interface Encounter {
  id: string;
  transcript: string;
  reference: string;
}

/** What judges problems: Clindoc's coder (categories of a text), and the labelled categories by encounter. */
export interface ProblemJudge {
  categories?: (text: string) => Set<string>;
  labels: ReadonlyMap<string, ReadonlySet<string>>;
}

export interface Totals {
  n: number; r1: number; r2: number; rl: number; rls: number; words: number; refWords: number; lengthOk: number;
  copyTokens: number; copied: number; refCopyTokens: number; refCopied: number;
  probWanted: number; probKept: number; labWanted: number; labKept: number; labRefKept: number;
  dosed: number; found: number; negCompared: number; negConflicts: number;
  numbers: number; notesWithNumbers: number; drugs: number; flags: number; ms: number;
  /** Fidelity flags by kind (register, diagnosis, order...). */
  flagKinds: Map<string, number>;
  /** The same checker on the clinicians' reference notes: its false-alarm floor (a reference may also say more than the transcript). */
  refFlags: number;
  refFlagKinds: Map<string, number>;
  /** Per encounter, what went wrong (for --verbose). */
  details: string[];
}

export const zero = (): Totals => ({
  n: 0, r1: 0, r2: 0, rl: 0, rls: 0, words: 0, refWords: 0, lengthOk: 0, copyTokens: 0, copied: 0, refCopyTokens: 0, refCopied: 0,
  probWanted: 0, probKept: 0, labWanted: 0, labKept: 0, labRefKept: 0, dosed: 0, found: 0, negCompared: 0, negConflicts: 0,
  numbers: 0, notesWithNumbers: 0, drugs: 0, flags: 0, ms: 0, flagKinds: new Map(), refFlags: 0, refFlagKinds: new Map(), details: [],
});

const refCategories = new Map<string, Set<string>>();
const refFlags = new Map<string, string[]>();
// The encounter is read once per transcript, not once per path (as a writer hands its facts to the checker).
const factsOf = new Map<string, EncounterFacts | undefined>();
function encounterFacts(input: NoteGenerationInput): EncounterFacts | undefined {
  if (!factsOf.has(input.transcript)) {
    let facts: EncounterFacts | undefined;
    try {
      facts = understandEncounter({ transcript: input.transcript });
    } catch {
      facts = undefined;
    }
    factsOf.set(input.transcript, facts);
  }
  return factsOf.get(input.transcript);
}

/** Adds one written note's scores to `t`. `note` is the writer's output before the note service's check. */
export function score(t: Totals, e: Encounter, input: NoteGenerationInput, note: string, ms: number, judge: ProblemJudge): void {
  const c = tokens(note);
  const r = tokens(e.reference);
  t.n++;
  t.ms += ms;
  t.r1 += rougeN(c, r, 1);
  t.r2 += rougeN(c, r, 2);
  t.rl += rougeL(c, r);
  t.rls += rougeLsum(sentenceTokens(note), sentenceTokens(e.reference));
  t.words += c.length;
  t.refWords += r.length;
  if (withinLength(c.length, r.length)) t.lengthOk++;

  const copy = copyShare(note, e.transcript);
  t.copyTokens += copy.tokens;
  t.copied += copy.copied;
  const refCopy = copyShare(e.reference, e.transcript);
  t.refCopyTokens += refCopy.tokens;
  t.refCopied += refCopy.copied;

  const problems: string[] = [];
  if (judge.categories) {
    const theirs = refCategories.get(e.reference) ?? judge.categories(e.reference);
    refCategories.set(e.reference, theirs);
    const ours = judge.categories(note);
    const k = kept(theirs, ours);
    t.probWanted += k.wanted;
    t.probKept += k.kept;
    const labels = judge.labels.get(e.id);
    if (labels) {
      const l = kept(labels, ours);
      t.labWanted += l.wanted;
      t.labKept += l.kept;
      t.labRefKept += kept(labels, theirs).kept;
      problems.push(...[...labels].filter((x) => !ours.has(x)).map((x) => `label ${x} lost`));
    }
  }

  const m = medicationRecall(note, e.reference);
  t.dosed += m.dosed;
  t.found += m.found;
  const neg = negationConflicts(note, e.reference);
  t.negCompared += neg.compared;
  t.negConflicts += neg.conflicts.length;

  const sources = fidelitySourcesOf(input);
  const numbers = unsupportedNumbers(note, sources);
  t.numbers += numbers.length;
  if (numbers.length > 0) t.notesWithNumbers++;
  const sourceWords = new Set(tokens(input.transcript));
  t.drugs += new Set(tokens(note.replace(/^#.*$/gm, '')).filter((w) => isDrugWord(w) && !sourceWords.has(w))).size;
  const facts = encounterFacts(input);
  const review = checkFidelity({ markdown: note }, facts ? { ...sources, facts } : sources).review;
  t.flags += review.length;
  for (const f of review) t.flagKinds.set(f.kind, (t.flagKinds.get(f.kind) ?? 0) + 1);
  const refReview = refFlags.get(e.reference) ?? checkFidelity({ markdown: e.reference }, facts ? { ...sources, facts } : sources).review.map((f) => f.kind);
  refFlags.set(e.reference, refReview);
  t.refFlags += refReview.length;
  for (const k of refReview) t.refFlagKinds.set(k, (t.refFlagKinds.get(k) ?? 0) + 1);

  const wrong = [...neg.conflicts, ...numbers.map((x) => `unsupported ${x.kind} "${x.text}"`), ...problems];
  if (wrong.length > 0) t.details.push(`${e.id}: ${wrong.join('; ')}`);
}

const pct = (a: number, b: number): string => (b ? ((100 * a) / b).toFixed(1) : '-');
const ratio = (a: number, b: number): string => (b ? `${(a / b).toFixed(2)} (${a}/${b})` : '-');

export const TABLE_HEADER =
  '| path | R-1 | R-2 | R-L | R-Lsum | copy % | problems kept (coder) | labels found | med+dose recall | neg. conflicts / compared | unsup. numbers (notes) | unsup. drugs | flags | len ±30% | words ours/ref | ms/note |\n' +
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|';

/** One table row for a path. */
export function row(name: string, t: Totals): string {
  const f = (x: number): string => ((100 * x) / t.n).toFixed(2);
  return `| ${name} | ${f(t.r1)} | ${f(t.r2)} | ${f(t.rl)} | ${f(t.rls)} | ${pct(t.copied, t.copyTokens)} | ${ratio(t.probKept, t.probWanted)} | ${ratio(t.labKept, t.labWanted)} | ${ratio(t.found, t.dosed)} | ${t.negConflicts} / ${t.negCompared} | ${t.numbers} (${t.notesWithNumbers}/${t.n}) | ${t.drugs} | ${t.flags} | ${t.lengthOk}/${t.n} | ${Math.round(t.words / t.n)}/${Math.round(t.refWords / t.n)} | ${(t.ms / t.n).toFixed(1)} |`;
}

/** The fidelity checker's flags by kind, most frequent first. */
export function flagLine(name: string, t: Totals, reference = false): string {
  const kinds = [...(reference ? t.refFlagKinds : t.flagKinds)].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`);
  return `  ${name} flags by kind: ${kinds.length ? kinds.join(', ') : 'none'}`;
}

/** The reference notes' own row: their copy share and the labels the coder finds in them (the ceiling). */
export function referenceRow(t: Totals): string {
  return `| reference | - | - | - | - | ${pct(t.refCopied, t.refCopyTokens)} | 1.00 | ${ratio(t.labRefKept, t.labWanted)} | - | - | - | - | ${t.refFlags} | - | ${Math.round(t.refWords / t.n)} | - |`;
}
