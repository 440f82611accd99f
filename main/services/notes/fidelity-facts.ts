/**
 * The facts the fidelity checker compares, read the same way from a note and from its sources:
 * drug mentions and the doses or frequencies that belong to them, sides of the body ("left
 * knee"), and findings with their polarity (NegEx/ConText scope through the core's `contextOf`,
 * and a doctor's question answered "no" or "yes"). Numbers, units and frequencies themselves are
 * read by the clinical-language core; nothing here parses a number.
 */
import {
  answerPolarity,
  CONDITIONS,
  contextOf,
  createPhraseMatcher,
  DRUG_PHRASES,
  findingPhrases,
  readSpeakerTag,
  sentenceSpans,
  SYMPTOMS,
  type PhraseMatcher,
} from '../clinical-language/index.js';

/** One drug named in a text; `drug` is the generic (lexicon) or the listed name, lower case. */
export interface DrugMention {
  drug: string;
  surface: string;
  start: number;
  end: number;
}

const DRUG_MATCHER = createPhraseMatcher(DRUG_PHRASES, { capitalsUpTo: 3 });
const listMatchers = new Map<string, PhraseMatcher<string>>();

/** Drugs named in `text`: the core's drug lexicon and the caller's medication list. */
export function drugMentions(text: string, medications: readonly string[] = []): DrugMention[] {
  const key = medications.join('\n').toLowerCase();
  let listed = listMatchers.get(key);
  if (!listed) {
    listed = createPhraseMatcher(medications.map((m) => ({ value: m.toLowerCase(), phrases: [m] })));
    if (listMatchers.size > 50) listMatchers.clear();
    listMatchers.set(key, listed);
  }
  const hits = [...DRUG_MATCHER.find(text), ...listed.find(text)].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: DrugMention[] = [];
  for (const h of hits) {
    const prev = out[out.length - 1];
    if (prev && h.start < prev.end) continue;
    out.push({ drug: h.value.toLowerCase(), surface: h.surface, start: h.start, end: h.end });
  }
  return out;
}

/** How far a dose or frequency may stand after its drug ("metformin, it's five hundred milligrams"). */
const AFTER_DRUG = 150;
/** What may stand between a dose and the drug named after it ("500 mg of metformin"). */
const BEFORE_DRUG = /^\s*(?:of\s+|tablets?\s+of\s+|capsules?\s+of\s+)?$/i;

/**
 * The drug a quantity at `[start, end)` belongs to: the nearest drug named before it (within
 * a clause or two), else one named right after it ("500 mg of metformin"); undefined for none.
 * `limit` keeps the search inside one sentence of a note.
 */
export function drugOf(text: string, drugs: readonly DrugMention[], start: number, end: number, limit?: { start: number; end: number }): DrugMention | undefined {
  let best: DrugMention | undefined;
  for (const d of drugs) {
    if (limit && (d.start < limit.start || d.end > limit.end)) continue;
    if (d.end <= start && start - d.end <= AFTER_DRUG) best = d;
    if (d.start >= end) {
      // "500 mg of metformin": a dose said right before its drug is that drug's, whatever drug was named before it.
      if (BEFORE_DRUG.test(text.slice(end, d.start)) && (!best || /\bof\s*$/i.test(text.slice(end, d.start)))) best = d;
      break;
    }
  }
  return best;
}

/** A side of the body and the words it qualifies ("right lower lobe" -> right, [lobe]). */
export interface SideMention {
  side: 'left' | 'right' | 'bilateral';
  /** Stemmed content words the side qualifies. */
  targets: string[];
  /** The side and the first word it qualifies, as written ("right knee"). */
  phrase: string;
  start: number;
  end: number;
}

const SIDES: Readonly<Record<string, SideMention['side']>> = { left: 'left', right: 'right', bilateral: 'bilateral', bilaterally: 'bilateral', both: 'bilateral' };
// Words between a side and what it qualifies, which say nothing about the body part itself.
const MODIFIERS = new Set(
  'side sided lower upper anterior posterior medial lateral proximal distal mid middle inner outer greater lesser superior inferior sides'.split(' '),
);
// Words after "right"/"left" that make them no side at all ("right now", "left the", "that's right.").
const FUNCTION_WORDS = new Set(
  ('the a an of and or to in on at for with now away here there then after before back into about so that this it its is was be been ' +
    'i you he she we they him her them me my your his our their okay ok yes no not up down over just thing things one ones off out ' +
    'when if as by from but also too very really side sided').split(' '),
);
const WORD_OR_MARK = /[\p{L}\p{N}]+(?:['’]\p{L}+)?|[^\s\p{L}\p{N}-]/gu;

/** A word reduced for comparison: lower case, plural ending dropped ("Knees" -> "knee"). */
export const stem = (w: string): string => w.toLowerCase().replace(/(?<=[a-z]{3})(es|s)$/, '');

/** Sides of the body named in `text`, each with the words it qualifies; "right now" and "she left" are not sides. */
export function sideMentions(text: string): SideMention[] {
  const toks = [...text.matchAll(WORD_OR_MARK)].map((m) => ({ w: m[0].toLowerCase(), start: m.index, end: m.index + m[0].length }));
  const isWord = (k: number): boolean => /^[\p{L}\p{N}]/u.test(toks[k]?.w ?? '');
  const out: SideMention[] = [];
  for (let i = 0; i < toks.length; i++) {
    const side = SIDES[toks[i]!.w];
    if (!side) continue;
    let k = i + 1;
    // "left and right knees": both sides qualify the words after the second.
    if ((toks[k]?.w === 'and' || toks[k]?.w === 'or') && SIDES[toks[k + 1]?.w ?? '']) k += 2;
    while (isWord(k) && MODIFIERS.has(toks[k]!.w)) k++;
    const targets: string[] = [];
    let last = i;
    while (targets.length < 2 && isWord(k) && !FUNCTION_WORDS.has(toks[k]!.w) && !SIDES[toks[k]!.w]) {
      if (targets.length === 0) last = k;
      targets.push(stem(toks[k++]!.w));
    }
    let first = i;
    // "pain in the knee on the right": the side looks back to what it places.
    if (targets.length === 0 && side !== 'bilateral' && toks[i - 1]?.w === 'the' && /^(on|to|in|at)$/.test(toks[i - 2]?.w ?? '')) {
      for (let j = i - 3; j >= 0 && targets.length < 2 && isWord(j); j--) {
        if (FUNCTION_WORDS.has(toks[j]!.w) || MODIFIERS.has(toks[j]!.w)) continue;
        targets.push(stem(toks[j]!.w));
        if (first === i) first = j;
      }
    }
    // "pain to palpation of your elbows bilaterally": said after, "bilaterally" places the words just before it.
    if (targets.length === 0 && toks[i]!.w === 'bilaterally') {
      for (let j = i - 1; j >= 0 && j >= i - 3 && targets.length < 1 && isWord(j); j--) {
        if (FUNCTION_WORDS.has(toks[j]!.w) || MODIFIERS.has(toks[j]!.w)) continue;
        targets.push(stem(toks[j]!.w));
        first = j;
      }
    }
    if (targets.length === 0) continue;
    const start = toks[first]!.start;
    const end = toks[last]!.end;
    out.push({ side, targets, phrase: text.slice(start, end), start, end });
  }
  return out;
}

/** A finding and what the text says about it. */
export interface FindingMention {
  /** The lexicon's name for it ("shortness of breath" for "SOB" and "short of breath"). */
  term: string;
  start: number;
  end: number;
  /** Affirmed, negated, or neither (hypothetical, a relative's, historical, an unanswered question). */
  polarity: 'affirmed' | 'negated' | 'neutral';
  /** Neutral because hedged or only to be ruled out ("possible pneumonia", "rule out angina"). */
  hedged?: boolean;
  /** Neutral because it is the patient's history ("past medical history of hypertension"). */
  historical?: boolean;
}

const FINDING_MATCHER = createPhraseMatcher(findingPhrases([...SYMPTOMS, ...CONDITIONS]), { capitalsUpTo: 3 });
const SPOKEN = SYMPTOMS.filter((s) => s.spoken).map((s) => ({ term: s.term, re: new RegExp(s.spoken!.source, 'giu') }));

function findingsIn(text: string, spoken: boolean): { term: string; start: number; end: number }[] {
  const hits = FINDING_MATCHER.find(text).map((h) => ({ term: h.value.term, start: h.start, end: h.end }));
  for (const { term, re } of spoken ? SPOKEN : []) {
    for (const m of text.matchAll(re)) {
      const span = { term, start: m.index, end: m.index + m[0].length };
      const overlapping = hits.filter((h) => h.start < span.end && span.start < h.end);
      // The longer reading names the finding: "swelling in your legs" is leg swelling, not edema.
      const covers = overlapping.length > 0 && overlapping.every((h) => span.start <= h.start && h.end <= span.end && h.end - h.start < span.end - span.start);
      if (covers) hits.splice(0, hits.length, ...hits.filter((h) => !overlapping.includes(h)));
      if (overlapping.length === 0 || covers) hits.push(span);
    }
  }
  return hits.sort((a, b) => a.start - b.start);
}

// Words that open a spoken question when the recogniser wrote no question mark ("have you had any fever").
const ASKS = /^(?:(?:okay|ok|and|so|alright|all right|um|uh|now|well|then|also|but|great|good|right)[\s,]+)*(?:do|does|did|have|has|had|are|is|was|were|any|anything|how about|what about|can|could|would|will|how|what|when|where)\b/i;
const ANY_BEFORE = /\bany(?:thing)?(?:\s+[^\s.?!;]+){0,10}\s+$/iu;

/** "…, okay?" asks for agreement with what was said, not about it. */
const TAG_QUESTION = /(?:^|[\s,])(?:okay|ok|right|alright|all right|yeah|yes|correct)\s*\?\s*$/i;
const isQuestion = (sentence: string): boolean => /\?\s*$/.test(sentence) && !TAG_QUESTION.test(sentence);
const NEAR_NEGATION_WORDS = 8;
const AFFIRMING = /\b(?:i do|there is|there's|there are|just|has|have|had|see|seen|appreciate|notice|noticed|feel|felt|reports?|shows?)\b/i;
const NEW_QUESTION = /\b(?:do|does|did|have|has|are|is|any)\s+(?:you|he|she|they|your|his|her)\b/i;
/** A finding answered in one word right after it ("diarrhea, no."). */
const TERSE_NO = /^\s*,?\s*(?:no|none|negative)\s*[.?!]?\s*$/i;
const NEGATIVE_WORD = /\b(?:no|not|cannot|can't|never|none|without|denies|denied|negative|unable)\b/i;

function wordsBetween(text: string, a: { start: number; end: number }, b: { start: number; end: number }): number {
  const gap = a.end <= b.start ? text.slice(a.end, b.start) : text.slice(b.end, a.start);
  return gap.split(/\s+/).filter((w) => /\p{L}/u.test(w)).length;
}

/**
 * "do n't", "have n't" as the recogniser writes them become "don't ", "haven't " (same length, so
 * offsets hold) for the negation reader.
 */
export const joinContractions = (text: string): string => text.replace(/(\p{L}) n't\b/gu, "$1n't ");

/**
 * Findings named in `text` with their polarity. A finding in a question takes the polarity of
 * the reply on the next line ("[doctor] any fever? [patient] no" -> fever negated); a "yes" to a
 * question naming several findings does not say which, so they stay neutral. `only` limits the
 * answer to the findings (lexicon terms) a caller asks about. `conversation` (a transcript, not a
 * note) also reads symptoms in patients' words ("threw up"; in a note "hearing" is not hearing
 * loss) and questions and their answers.
 */
export function findingMentions(raw: string, conversation = true, only?: ReadonlySet<string>): FindingMention[] {
  const text = joinContractions(raw);
  const found = findingsIn(text, conversation);
  // Reading a finding's context is the costly part: only the findings asked about are read.
  const wanted = only ? found.filter((f) => only.has(f.term)) : found;
  if (wanted.length === 0) return [];
  const spans = sentenceSpans(text, { lineBreaks: true });
  const out: FindingMention[] = [];
  let k = 0;
  for (const f of wanted) {
    while (k < spans.length - 1 && spans[k]!.end <= f.start) k++;
    const s = spans[k]!;
    const local = { start: f.start - s.start, end: f.end - s.start };
    const said = readSpeakerTag(s.text)?.text ?? s.text;
    const question = isQuestion(s.text);
    const asked = question || ASKS.test(said) || ANY_BEFORE.test(s.text.slice(0, local.start));
    const c = contextOf(s.text, local.start, local.end);
    const negation = c.triggers.find((t) => t.category === 'negated');
    // In run-on speech a negation's scope can reach a finding a dozen words on ("i don't hear a
    // murmur ... on your knee i do see edema"): only a near one is trusted, a far one says nothing.
    // A bare "no" or "not" negates what follows it closely; "no, just a headache" is an answer.
    const short = negation !== undefined && /^(no|not)$/i.test(negation.phrase);
    // "it hasn't helped okay and do you have any nausea": a question begun after the negation ends it.
    const requestioned = negation !== undefined && negation.end <= local.start && NEW_QUESTION.test(s.text.slice(negation.end, local.start));
    // "no fevers, maybe some chills": a clause that turns after a comma is outside the negation.
    const turned = negation !== undefined && negation.end <= local.start && /,\s*(?:maybe|but|just|only|though|although|except|a little|a bit|some|mostly)\b/i.test(s.text.slice(negation.end, local.start));
    const far = negation !== undefined && (requestioned || turned || wordsBetween(s.text, negation, local) > (short ? 4 : NEAR_NEGATION_WORDS) || (short && /^\s*(?:,|just\b|only\b|but\b)/.test(s.text.slice(negation.end))));
    // Past a far negation, "i do see", "there is", "you've seen" state the finding again.
    const restated = far && negation.end <= local.start && AFFIRMING.test(s.text.slice(negation.end, local.start));
    // "non-small cell lung cancer", "non-cardiac chest pain": a prefix, not a negation.
    if (negation && /^non$/i.test(negation.phrase) && c.triggers.filter((t) => t.category === 'negated').length === 1) c.negated = false;
    let polarity: FindingMention['polarity'];
    if (c.hypothetical || c.family || c.historical) polarity = 'neutral';
    else if ((c.negated && !far && !question) || TERSE_NO.test(s.text.slice(local.end))) polarity = 'negated';
    // In a note a question ("Any rash?") or "for any fever" states nothing either way.
    else if (asked) polarity = conversation ? answerTo(text, spans, k, found, s, f.term) : 'neutral';
    // "Cannot recall a fever": a negative word the trigger lists do not hold; not an affirmation.
    else if (restated && !c.uncertain) polarity = 'affirmed';
    else if (c.uncertain || far || NEGATIVE_WORD.test(s.text.slice(0, local.start))) polarity = 'neutral';
    else polarity = 'affirmed';
    const hedged = polarity === 'neutral' && (c.uncertain || c.hypothetical) && !c.family && !c.historical;
    const historical = polarity === 'neutral' && c.historical && !c.family && !c.negated;
    out.push({ term: f.term, start: f.start, end: f.end, polarity, ...(hedged ? { hedged } : {}), ...(historical ? { historical } : {}) });
  }
  return out;
}

/** The polarity a reply on the next line gives to a question's findings. */
function answerTo(text: string, spans: readonly { text: string; start: number; end: number }[], k: number, found: readonly { term: string; start: number; end: number }[], s: { start: number; end: number }, term?: string): FindingMention['polarity'] {
  const next = spans[k + 1];
  // Only a reply on a new line (or after a speaker tag) answers; the asker going on does not.
  const tagged = next ? readSpeakerTag(next.text) : null;
  if (!next || !(tagged || text.slice(s.end, next.start).includes('\n'))) return 'neutral';
  // An answer that names the finding itself ("no fevers, maybe some chills") is read on its own words.
  if (term !== undefined && found.some((f) => f.term === term && f.start >= next.start && f.end <= next.end)) return 'neutral';
  const answer = answerPolarity(tagged ? tagged.text : next.text);
  if (answer === 'negative') return 'negated';
  const named = new Set(found.filter((f) => f.start >= s.start && f.end <= s.end).map((f) => f.term));
  return answer === 'positive' && named.size === 1 ? 'affirmed' : 'neutral';
}

/**
 * Whether a text is mostly English. Number words, frequencies, sides and negation are read in
 * English only; for other sources those checks would flag true statements, so they are skipped.
 */
export function looksEnglish(text: string): boolean {
  const english = (text.match(/\b(the|and|you|your|is|it|of|to|have|with|my|i|was|for|on|in|take|over)\b/gi) ?? []).length;
  const other =
    (text.match(/(?<![\p{L}])(el|la|los|las|que|y|le|les|et|est|der|die|das|und|ist|il|che|di|não|você|и|в|не|что|на)(?![\p{L}])/giu) ?? []).length +
    (text.match(/[\u3040-\u30ff\u4e00-\u9fff]/g) ?? []).length / 2;
  // No cue either way (a short line of drug names and numbers) reads as English, the reader's language.
  return english >= other;
}
