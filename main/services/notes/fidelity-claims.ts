/**
 * The checks that need the encounter understood, not only read word by word (issue 24.5): a
 * diagnosis the note states as confirmed that the encounter does not hold (or holds as possible or
 * ruled out), a side that differs from the side the facts give, a vital sign measured elsewhere
 * presented as today's, and an order (test, imaging, referral) the transcript never gives. The
 * facts come from the encounter room (`EncounterFacts`); the transcript's own words back them up
 * where the facts are silent, so a fact the understanding missed does not make a true note wrong.
 */
import { createPhraseMatcher, CONDITIONS, contextOf, findingPhrases, sentenceSpans, type PhraseMatcher } from '../clinical-language/index.js';
import type { EncounterFacts, Laterality } from '../encounter/types.js';
import { SPECIALTY_ENTRIES, TEST_ENTRIES } from '../encounter/tests.js';
import { findingMentions, sideMentions, stem } from './fidelity-facts.js';
import type { FidelityIssue } from './fidelity-issue.js';
import { sidesFor, type SourceIndex } from './fidelity-sources.js';

interface Span {
  start: number;
  end: number;
}

/** A condition named for its vaccine or screening ("COVID-19 vaccine due") is no diagnosis. */
const NOT_A_DIAGNOSIS = /^\s*(?:vaccin\w*|immuni[sz]ation|booster|shots?|screening|testing|tests?)\b/i;
const CONDITION_MATCHER = createPhraseMatcher(findingPhrases(CONDITIONS), { capitalsUpTo: 3 });
const CONDITION_TERMS = new Set(CONDITIONS.map((c) => c.term));
// In a note a short name counts only in capitals ("PT", "ENT"); in a transcript the recogniser writes everything lower case.
const ORDER_MATCHER: PhraseMatcher<string> = createPhraseMatcher([...TEST_ENTRIES, ...SPECIALTY_ENTRIES], { capitalsUpTo: 4 });
const SAID_ORDER_MATCHER: PhraseMatcher<string> = createPhraseMatcher([...TEST_ENTRIES, ...SPECIALTY_ENTRIES]);

/** The lexicon's condition terms a fact's name holds ("congestive heart failure" -> its term). */
function conditionTerms(name: string): string[] {
  const hits = CONDITION_MATCHER.find(name).map((h) => h.value.term);
  return hits.length > 0 ? hits : [name.toLowerCase()];
}

/**
 * Diagnoses: each condition the note names. Affirmed, it must be one the encounter holds as the
 * patient's; a condition the note only considers ("rule out angina", "possible pneumonia") must
 * at least have been discussed.
 */
export function checkDiagnoses(text: string, index: SourceIndex, facts: EncounterFacts | undefined, free: (s: Span) => boolean): FidelityIssue[] {
  const mentions = findingMentions(text, false).filter(
    (m) => CONDITION_TERMS.has(m.term) && m.polarity !== 'negated' && free(m) && !NOT_A_DIAGNOSIS.test(text.slice(m.end, m.end + 24)),
  );
  if (mentions.length === 0) return [];
  const said = index.findings(new Set(mentions.map((m) => m.term)));
  const certainty = new Map<string, Set<string>>();
  for (const p of facts?.problems ?? []) {
    for (const t of conditionTerms(p.name)) certainty.set(t, (certainty.get(t) ?? new Set()).add(p.certainty));
  }
  const issues: FidelityIssue[] = [];
  for (const m of mentions) {
    const span = { kind: 'diagnosis' as const, start: m.start, end: m.end, text: text.slice(m.start, m.end), action: 'marked' as const };
    const counts = said.get(m.term);
    // Reasons name the condition in the note's own words ("sprain"), not the lexicon's entry it matched.
    const named = span.text.toLowerCase();
    if (!counts) {
      // "Type 2 diabetes" where the transcript says only "diabetes": the type was never said.
      const generic = m.term.replace(/^type [12] /, '').replace(/ mellitus$/, '');
      const saysGeneric = generic !== m.term && index.findings(new Set([generic])).has(generic);
      issues.push({ ...span, reason: saysGeneric ? `the transcript says ${generic}, not ${named}` : `${named} not discussed in the transcript` });
      continue;
    }
    if (m.polarity !== 'affirmed') continue;
    const held = certainty.get(m.term);
    if (held && !held.has('confirmed')) {
      issues.push({ ...span, reason: held.has('probable') ? `the transcript holds ${named} as possible, not confirmed` : `the transcript rules out ${named}` });
    } else if (!held && counts.affirmed === 0 && counts.negated === 0 && counts.historical === 0 && !inHistory(facts, m.term)) {
      issues.push({ ...span, reason: counts.uncertain > 0 ? `the transcript holds ${named} as possible, not confirmed` : `the transcript does not say the patient has ${named}` });
    }
  }
  return issues;
}

/** Whether the facts hold the condition as the patient's own past medical history. */
function inHistory(facts: EncounterFacts | undefined, term: string): boolean {
  return (facts?.history ?? []).some((h) => h.kind === 'medical' && h.presence !== 'denied' && conditionTerms(h.term).includes(term));
}

/** Every laterality the facts give, with the stemmed words of what it qualifies. */
function factSides(facts: EncounterFacts): { side: Laterality; words: string[] }[] {
  const out: { side: Laterality; words: string[] }[] = [];
  const add = (side: Laterality | undefined, ...texts: (string | undefined)[]): void => {
    if (!side) return;
    const words = texts.flatMap((t) => (t ?? '').toLowerCase().match(/\p{L}+/gu) ?? []).map(stem);
    if (words.length > 0) out.push({ side, words });
  };
  for (const s of facts.symptoms) add(s.laterality, s.location, s.term);
  for (const h of facts.history) add(h.laterality, h.term);
  for (const e of facts.exam) add(e.laterality, e.region, e.finding);
  for (const r of facts.results) add(r.laterality, r.test, r.finding);
  for (const p of facts.problems) {
    add(p.laterality, p.name);
    for (const i of p.plan) add(i.laterality, i.target, i.text);
  }
  for (const i of facts.plan) add(i.laterality, i.target, i.text);
  return out;
}

/**
 * Sides: a side the note gives to a body part or problem that the facts give only the other side
 * of; and a problem the facts place on one side that the note never places on any.
 */
export function checkSidesAgainstFacts(text: string, facts: EncounterFacts, index: SourceIndex, free: (s: Span) => boolean): FidelityIssue[] {
  const sides = factSides(facts);
  const issues: FidelityIssue[] = [];
  const noteSides = sideMentions(text);
  for (const m of noteSides) {
    if (!free(m) || m.side === 'bilateral') continue;
    // Where the transcript itself puts this side on this part ("my right knee hurts" as well as the left), the side stands.
    if (sidesFor(index, m.targets).some((s) => s.side === m.side)) continue;
    const related = sides.filter((s) => s.words.some((w) => m.targets.includes(w)));
    if (related.length > 0 && !related.some((s) => s.side === m.side || s.side === 'bilateral')) {
      issues.push({ kind: 'laterality', start: m.start, end: m.end, text: m.phrase, action: 'marked', reason: `the transcript says ${related[0]!.side}, not ${m.side}` });
    }
  }
  // A problem with a side that the note names only without one ("knee pain" for "right knee pain").
  for (const p of facts.problems) {
    if (!p.laterality || p.laterality === 'bilateral') continue;
    const words = (p.name.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => !['left', 'right'].includes(w));
    // Each gap may skip one word, so a name's paths double with each word: a name longer than a problem's
    // is not looked for (a transcript-made name of many words would hold the thread, issue 29).
    if (words.length === 0 || words.length > 8) continue;
    const name = new RegExp(`\\b${words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('\\W+(?:\\w+\\W+)?')}\\b`, 'gi');
    const hits = [...text.matchAll(name)].map((h) => ({ start: h.index, end: h.index + h[0].length }));
    if (hits.length === 0) continue;
    const placed = hits.some((h) => /\b(?:left|right|bilateral|both)\b/i.test(text.slice(Math.max(0, h.start - 40), h.end + 40)));
    const first = hits.find(free);
    if (!placed && first) {
      issues.push({ kind: 'laterality', ...first, text: text.slice(first.start, first.end), action: 'marked', reason: `the side is missing: the transcript says ${p.laterality}` });
    }
  }
  return issues;
}

const ELSEWHERE_WORDS = /\b(?:home|emergency|er|ed|hospital|urgent care|ambulance|ems|outside|pharmacy|previous(?:ly)?|prior|earlier|reported|at the time|elsewhere|last (?:visit|week|month))\b/i;
const SOURCE_WORDS: Record<string, string> = { home: 'at home', emergency: 'in the emergency room', elsewhere: 'elsewhere' };

/** Vital signs measured elsewhere (home, emergency room) that the note gives without saying so, as if today's. */
export function checkVitalSources(text: string, facts: EncounterFacts, transcript: string, free: (s: Span) => boolean): FidelityIssue[] {
  const today = new Set(facts.vitals.filter((v) => v.source === 'today').map((v) => v.value.replace(/\s+/g, '')));
  const issues: FidelityIssue[] = [];
  const sentences = sentenceSpans(text, { lineBreaks: true });
  for (const v of facts.vitals) {
    const value = v.value.replace(/\s+/g, '').replace(/%$/, '');
    if (v.source === 'today' || today.has(v.value.replace(/\s+/g, '')) || !/\d/.test(value)) continue;
    // Only a value the transcript places elsewhere in so many words counts: the reader's default for an unplaced value is no evidence.
    const said = v.evidence.map((e) => transcript.slice(e.start, e.end)).join(' ');
    if (v.source === 'elsewhere' && !ELSEWHERE_WORDS.test(said)) continue;
    // Not part of a longer number; a full stop after it ends the sentence.
    const re = new RegExp(`(?<![\\d.])${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?!\\d|\\.\\d)`, 'g');
    for (const m of text.matchAll(re)) {
      const span = { start: m.index, end: m.index + m[0].length };
      const sentence = sentences.find((s) => s.start <= span.start && span.end <= s.end);
      if (!free(span) || (sentence && ELSEWHERE_WORDS.test(sentence.text))) continue;
      issues.push({ kind: 'vital', ...span, text: m[0], action: 'marked', reason: `the transcript gives this as measured ${SOURCE_WORDS[v.source] ?? 'elsewhere'}, not today` });
    }
  }
  return issues;
}

const ORDER_CUE = /\b(?:order(?:ed|ing)?|obtain|schedul(?:e|ed)|refer(?:red|ral)?|arrange|request(?:ed)?|will (?:get|check|do|send)|check|send (?:for|to)|recommend(?:ed)?|start|begin|initiate|plan(?:ned)?)\b/i;
const PLAN_HEADING = /^(?:#{1,6}\s*)?(?:\*\*)?(?:assessment\s+and\s+plan|plan|a\/p|orders?)\b/i;

/**
 * Orders: a test, imaging study or referral the note orders (in a plan section, or with an order
 * word) that the transcript never names, or only rules out.
 */
export function checkOrders(text: string, sources: readonly string[], free: (s: Span) => boolean, planned = false): FidelityIssue[] {
  const issues: FidelityIssue[] = [];
  // `planned`: the whole text is a plan (a text-to-JSON field named for orders).
  let inPlan = planned;
  let offset = 0;
  const sourceHits = new Map<string, { negated: number; said: number }>();
  const saidOf = (target: string): { negated: number; said: number } => {
    let got = sourceHits.get(target);
    if (got) return got;
    got = { negated: 0, said: 0 };
    for (const source of sources) {
      for (const s of sentenceSpans(source, { lineBreaks: true })) {
        for (const h of SAID_ORDER_MATCHER.find(s.text)) {
          // "x-ray" ordered where the transcript said "chest x-ray": one test.
          if (h.value !== target && !h.value.includes(target) && !target.includes(h.value)) continue;
          got.said++;
          if (contextOf(s.text, h.start, h.end).negated) got.negated++;
        }
      }
    }
    sourceHits.set(target, got);
    return got;
  };
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (/^#{1,6}\s/.test(trimmed) || /^[A-Z][A-Z /&]{2,}:?$/.test(trimmed)) inPlan = PLAN_HEADING.test(trimmed.replace(/^#+\s*/, ''));
    for (const s of sentenceSpans(line)) {
      if (!inPlan && !ORDER_CUE.test(s.text)) continue;
      for (const h of ORDER_MATCHER.find(s.text)) {
        const span = { start: offset + s.start + h.start, end: offset + s.start + h.end };
        // A label ("Patient Education and Counseling:") names a part of the plan, not an order.
        if (!free(span) || /^\s*:/.test(s.text.slice(h.end)) || contextOf(s.text, h.start, h.end).negated) continue;
        const said = saidOf(h.value);
        const base = { kind: 'order' as const, ...span, text: text.slice(span.start, span.end), action: 'marked' as const };
        if (said.said === 0) issues.push({ ...base, reason: `${h.value} not discussed in the transcript` });
        else if (said.negated === said.said) issues.push({ ...base, reason: `the transcript says no ${h.value}` });
      }
    }
    offset += line.length + 1;
  }
  return issues;
}
