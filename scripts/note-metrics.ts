/**
 * What `npm run eval:notes` measures in a note beyond ROUGE, each a pure function of texts so a
 * unit test can make it fail (test/eval/note-metrics.test.ts):
 *
 * - copy share: how much of a note is the transcript's words copied in runs;
 * - problems kept: diagnosis categories found in the note against those of the reference;
 * - medication-with-dose recall: drugs the reference gives with a dose that the note names;
 * - negation conflicts: findings one text states present and the other absent (the
 *   clinical-language core's ConText reads both);
 * - untranslated share: words of a note left inside "[en, not translated: …]" markers.
 */
import {
  clinicalPhrases,
  CONDITIONS,
  contextOf,
  createPhraseMatcher,
  DRUG_PHRASES,
  findingPhrases,
  readDoses,
  sentenceSpans,
  splitSentences,
  SYMPTOMS,
} from '../main/services/clinical-language/index.js';
import type { NoteLanguage } from '../shared/languages.js';
import { tokens } from './rouge.js';

/** The run length that counts as copying: six words in a row are rarely a coincidence in prose. */
export const COPY_RUN = 6;

/**
 * Share of `note`'s tokens (lower-case alphanumeric) that sit inside a run of `run` tokens which
 * also occurs, in that order, in `source`. Returns counts so a split can be summed.
 */
export function copyShare(note: string, source: string, run = COPY_RUN): { tokens: number; copied: number } {
  const n = tokens(note);
  const s = tokens(source);
  const grams = new Set<string>();
  for (let i = 0; i + run <= s.length; i++) grams.add(s.slice(i, i + run).join(' '));
  const covered = new Uint8Array(n.length);
  for (let i = 0; i + run <= n.length; i++) {
    if (grams.has(n.slice(i, i + run).join(' '))) covered.fill(1, i, i + run);
  }
  return { tokens: n.length, copied: covered.reduce((a, b) => a + b, 0) };
}

/** ICD-10-CM categories (first three characters) of a list of codes. */
export function categoriesOf(codes: readonly string[]): Set<string> {
  return new Set(codes.map((c) => c.slice(0, 3).toUpperCase()));
}

/** How many of `wanted` are in `found`: the problems of a reference a note keeps. */
export function kept(wanted: ReadonlySet<string>, found: ReadonlySet<string>): { wanted: number; kept: number } {
  return { wanted: wanted.size, kept: [...wanted].filter((c) => found.has(c)).length };
}

const drugMatcher = createPhraseMatcher(DRUG_PHRASES);
const DOSE_UNIT_KINDS = new Set(['mass', 'dose', 'volume']);

/**
 * Drugs the reference note gives with a dose ("lisinopril 20 mg"), by generic name, and whether
 * the note names each (any of its names). A dose within six words after the name counts.
 */
export function medicationRecall(note: string, reference: string): { dosed: number; found: number } {
  const dosed = new Set<string>();
  for (const sentence of splitSentences(reference, { lineBreaks: true })) {
    const doses = readDoses(sentence).filter((d) => DOSE_UNIT_KINDS.has(d.unit.kind));
    for (const hit of drugMatcher.find(sentence)) {
      const after = (d: { start: number }): number => sentence.slice(hit.end, d.start).split(/\s+/).filter(Boolean).length;
      if (doses.some((d) => d.start >= hit.end && after(d) <= 6)) dosed.add(hit.value);
    }
  }
  const ours = new Set(drugMatcher.find(note).map((h) => h.value));
  return { dosed: dosed.size, found: [...dosed].filter((g) => ours.has(g)).length };
}

const findingMatcher = createPhraseMatcher(findingPhrases([...SYMPTOMS, ...CONDITIONS]), { capitalsUpTo: 3 });

/**
 * What a note states about each finding of the core's lexicon: `present` when it affirms it and
 * never negates it, `absent` when it negates it and never affirms it. A finding only asked about,
 * uncertain, hypothetical, historical or a relative's states nothing; one stated both ways is left
 * out (a note may say "chest pain ... no chest pain at rest").
 */
export function findingStates(text: string): Map<string, 'present' | 'absent'> {
  const counts = new Map<string, { present: number; absent: number }>();
  for (const s of sentenceSpans(text, { lineBreaks: true })) {
    if (/\?\s*$/.test(s.text)) continue;
    for (const hit of findingMatcher.find(s.text)) {
      const c = contextOf(s.text, hit.start, hit.end);
      if (c.uncertain || c.hypothetical || c.historical || c.family) continue;
      const entry = counts.get(hit.value.term) ?? { present: 0, absent: 0 };
      if (c.negated) entry.absent++;
      else entry.present++;
      counts.set(hit.value.term, entry);
    }
  }
  const out = new Map<string, 'present' | 'absent'>();
  for (const [term, c] of counts) {
    if (c.present > 0 && c.absent === 0) out.set(term, 'present');
    else if (c.absent > 0 && c.present === 0) out.set(term, 'absent');
  }
  return out;
}

/** Findings both texts state, and those the note states the other way from the reference. */
export function negationConflicts(note: string, reference: string): { compared: number; conflicts: string[] } {
  const ours = findingStates(note);
  const theirs = findingStates(reference);
  let compared = 0;
  const conflicts: string[] = [];
  for (const [term, state] of ours) {
    const other = theirs.get(term);
    if (!other) continue;
    compared++;
    if (other !== state) conflicts.push(`${term}: note ${state}, reference ${other}`);
  }
  return { compared, conflicts };
}

/** Words as a reader counts them: a Chinese character is one word, elsewhere a run of letters or digits. */
export function wordsOf(text: string): string[] {
  return text.match(/\p{Script=Han}|[\p{L}\p{N}]+/gu) ?? [];
}

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Words of a note written in `language` that stand inside the writer's "[en, not translated: …]"
 * markers (the marker's own label is not counted), and the note's words in all.
 */
export function untranslatedShare(markdown: string, language: NoteLanguage): { words: number; untranslated: number } {
  const label = escapeRe(clinicalPhrases(language).untranslated);
  const marker = new RegExp(`\\[[a-z]{2,3}, ${label}: ([^\\]]*)\\]`, 'gu');
  let untranslated = 0;
  const bare = markdown.replace(marker, (_m, inner: string) => {
    untranslated += wordsOf(inner).length;
    return ` ${inner} `;
  });
  return { words: wordsOf(bare).length, untranslated };
}

/** Whether a note's length (tokens) is within `tolerance` of the reference's. */
export function withinLength(noteTokens: number, referenceTokens: number, tolerance = 0.3): boolean {
  return Math.abs(noteTokens - referenceTokens) <= tolerance * referenceTokens;
}
