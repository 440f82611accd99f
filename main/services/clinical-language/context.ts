/**
 * NegEx/ConText-style context of a finding: is it negated ("denies chest pain"), uncertain or
 * hypothetical ("possible pneumonia", "rule out PE", "return if the pain gets worse"),
 * historical ("history of MI", "status post appendectomy") or someone else's ("mother had
 * breast cancer")? A trigger's scope runs to the end of its clause: a sentence end, a semicolon
 * or colon, or a terminator such as "but" or "however". The trigger lists are data, in
 * `context-triggers.ts`.
 */
import {
  CATEGORY_TERMINATORS,
  COMMON_TERMINATORS,
  CONTEXT_TRIGGERS,
  NEGATIVE_ANSWERS,
  POSITIVE_ANSWERS,
  PSEUDO_TRIGGERS,
  type ContextCategory,
  type ContextTrigger,
} from './context-triggers.js';
import { alternation, phraseKey, type PhraseHit, type PhraseMatcher } from './phrase-match.js';

/** A trigger found in the sentence that governs the target. */
export interface TriggerHit {
  /** The trigger phrase as listed in `context-triggers.ts`. */
  phrase: string;
  category: ContextCategory;
  /** Offsets of the trigger in the string given to {@link contextOf}. */
  start: number;
  end: number;
}

/** What the sentence says about a finding. All false means: affirmed, current, the patient's own. */
export interface FindingContext {
  negated: boolean;
  /** Possible, probable, suspected, or hypothetical (only to be ruled out, or conditional). */
  uncertain: boolean;
  /** The uncertain kind that is only looked for or conditional ("rule out", "if", "return if"). */
  hypothetical: boolean;
  historical: boolean;
  /** About a relative or another person, not the patient. */
  family: boolean;
  /** The nearest governing trigger, when there is one. */
  trigger?: TriggerHit;
  /** Every governing trigger, nearest first. */
  triggers: TriggerHit[];
}

/** A lexicon match together with its context. */
export type ContextMatch<T> = PhraseHit<T> & { context: FindingContext };

/** Words a finding may stand apart from a backward trigger by ("chest pain was denied"). */
const BACKWARD_GAP_WORDS = new Set(
  ('is was were are be been being has have had all both also now currently today then it they which that about approximately over ' +
    'more than at least some a an couple of few several many one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty').split(' '),
);
const BACKWARD_GAP_MAX_WORDS = 4;
/** Forward scopes stop after this many words, as NegEx bounds its window in long run-on clauses. */
const FORWARD_MAX_WORDS = 30;

const TRIGGERS_BY_KEY = new Map<string, ContextTrigger[]>();
for (const t of CONTEXT_TRIGGERS) TRIGGERS_BY_KEY.set(phraseKey(t.phrase), [...(TRIGGERS_BY_KEY.get(phraseKey(t.phrase)) ?? []), t]);
const PSEUDO_LITERALS = new Set(PSEUDO_TRIGGERS.filter((p): p is string => typeof p === 'string').map(phraseKey));
const PSEUDO_PATTERNS = PSEUDO_TRIGGERS.filter((p): p is RegExp => p instanceof RegExp).map((re) => new RegExp(re.source, 'giu'));
const TRIGGER_RE = alternation([...TRIGGERS_BY_KEY.keys(), ...PSEUDO_LITERALS]);
const CATEGORIES: readonly ContextCategory[] = ['negated', 'uncertain', 'hypothetical', 'historical', 'family'];
const TERMINATOR_RE = new Map(CATEGORIES.map((c) => [c, alternation([...COMMON_TERMINATORS, ...CATEGORY_TERMINATORS[c]])]));

interface Span {
  start: number;
  end: number;
}
interface Analysis {
  triggers: { span: Span; trigger: ContextTrigger }[];
  terminators: Map<ContextCategory, Span[]>;
  boundaries: number[];
}

// Callers ask about several findings of one sentence in a row; the last analysis is kept.
let last: { sentence: string; analysis: Analysis } | undefined;

function analyse(sentence: string): Analysis {
  if (last?.sentence === sentence) return last.analysis;
  const pseudo: Span[] = [];
  for (const re of PSEUDO_PATTERNS) for (const m of sentence.matchAll(re)) pseudo.push({ start: m.index, end: m.index + m[0].length });
  const triggers: Analysis['triggers'] = [];
  for (const m of sentence.matchAll(TRIGGER_RE)) {
    const span = { start: m.index, end: m.index + m[0].length };
    const key = phraseKey(m[0]);
    if (PSEUDO_LITERALS.has(key)) continue;
    if (pseudo.some((p) => p.start < span.end && span.start < p.end)) continue;
    for (const trigger of TRIGGERS_BY_KEY.get(key) ?? []) triggers.push({ span, trigger });
  }
  const terminators = new Map<ContextCategory, Span[]>();
  for (const [category, re] of TERMINATOR_RE) terminators.set(category, [...sentence.matchAll(re)].map((m) => ({ start: m.index, end: m.index + m[0].length })));
  const boundaries: number[] = [];
  for (const m of sentence.matchAll(/[;!?\n]|:(?!\d)|\.(?=\s|$)/g)) boundaries.push(m.index);
  const analysis = { triggers, terminators, boundaries };
  last = { sentence, analysis };
  return analysis;
}

const wordsIn = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}'/]+/gu) ?? [];

/** True when nothing between `from` and `to` closes the trigger's clause for this category. */
function open(a: Analysis, category: ContextCategory, from: number, to: number, sentence: string): boolean {
  // A colon or dash right beside the trigger introduces its list ("Negative for: fever", "fever - denied").
  const lead = /^[\s:,\-–]*/.exec(sentence.slice(from, to))?.[0].length ?? 0;
  if (a.boundaries.some((b) => b >= from + lead && b < to)) return false;
  return !(a.terminators.get(category) ?? []).some((t) => t.start >= from && t.end <= to);
}

function governs(a: Analysis, sentence: string, hit: { span: Span; trigger: ContextTrigger }, start: number, end: number): boolean {
  const { span, trigger } = hit;
  if (span.start < end && start < span.end) return false;
  if (span.end <= start && trigger.direction !== 'backward') {
    const gap = wordsIn(sentence.slice(span.end, start));
    if (gap.length > (trigger.window ?? FORWARD_MAX_WORDS)) return false;
    return open(a, trigger.category, span.end, start, sentence);
  }
  if (span.start >= end && trigger.direction !== 'forward') {
    const gap = wordsIn(sentence.slice(end, span.start));
    if (gap.length > (trigger.window ?? BACKWARD_GAP_MAX_WORDS)) return false;
    if (trigger.window === undefined && !gap.every((w) => BACKWARD_GAP_WORDS.has(w) || /^\d/.test(w))) return false;
    return open(a, trigger.category, end, span.start, sentence);
  }
  return false;
}

/**
 * Context of the finding at `[start, end)` of `sentence`. The sentence may be a whole text:
 * scopes never cross a sentence end, semicolon or colon, so only the finding's clause counts.
 */
export function contextOf(sentence: string, start: number, end: number): FindingContext {
  const a = analyse(sentence);
  const hits = a.triggers
    .filter((h) => governs(a, sentence, h, start, end))
    .map((h) => ({ phrase: h.trigger.phrase, category: h.trigger.category, start: h.span.start, end: h.span.end }))
    .sort((x, y) => distance(x, start, end) - distance(y, start, end));
  const has = (c: ContextCategory): boolean => hits.some((h) => h.category === c);
  const result: FindingContext = {
    negated: has('negated'),
    uncertain: has('uncertain') || has('hypothetical'),
    hypothetical: has('hypothetical'),
    historical: has('historical'),
    family: has('family'),
    triggers: hits,
  };
  if (hits[0]) result.trigger = hits[0];
  return result;
}

const distance = (h: Span, start: number, end: number): number => (h.end <= start ? start - h.end : h.start - end);

/** Every match of a lexicon in `text`, each with its context. */
export function findInContext<T>(text: string, matcher: PhraseMatcher<T>): ContextMatch<T>[] {
  return matcher.find(text).map((hit) => ({ ...hit, context: contextOf(text, hit.start, hit.end) }));
}

/** True when the finding at `[start, end)` of `text` is negated. */
export function isNegated(text: string, start: number, end: number): boolean {
  return contextOf(text, start, end).negated;
}

const NEGATIVE_ANSWER_RE = new RegExp(`^\\s*(?:${[...NEGATIVE_ANSWERS].sort((a, b) => b.length - a.length).map(escape).join('|')})(?![\\p{L}])`, 'iu');
const POSITIVE_ANSWER_RE = new RegExp(`^\\s*(?:${[...POSITIVE_ANSWERS].sort((a, b) => b.length - a.length).map(escape).join('|')})(?![\\p{L}])`, 'iu');

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&').replace(/'/g, "['’]");
}

/**
 * Whether a reply to a yes/no question ("any chest pain?") denies or confirms it, judged by
 * how the reply begins ("no, not really" / "yeah, a little"); undefined when it does neither.
 */
export function answerPolarity(reply: string): 'negative' | 'positive' | undefined {
  if (NEGATIVE_ANSWER_RE.test(reply)) return 'negative';
  if (POSITIVE_ANSWER_RE.test(reply)) return 'positive';
  return undefined;
}
