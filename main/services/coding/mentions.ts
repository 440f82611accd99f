/**
 * Naming what a note says in the table's terms: concepts of the synonym index and phrases of the
 * table in the sentences the encounter understanding gives as the visit's scope. Whether each is
 * present, denied, uncertain, historical or a relative's is the encounter understanding's answer
 * (encounter/assertion.ts via note-facts.ts); this module only reads the words around a mention
 * that choose the specific code.
 */
import { CONTEXT_TRIGGERS } from '../clinical-language/context-triggers.js';
import type { FindingAssertion } from '../encounter/assertion.js';
import { assertInNote } from '../encounter/note-facts.js';
import type { NoteSentence } from '../encounter/written-note.js';
import type { CompiledLexicon, ResolvedConcept } from './lexicon.js';
import type { CodeEntry } from './ports.js';
import type { MentionContext } from './specificity.js';
import type { TitleIndex } from './title-index.js';
import { STOP_WORDS, wordsOf, type Word } from './words.js';

export type MentionRole = 'current' | 'history' | 'family';

/** One finding in the text. Offsets are UTF-16 positions in the submitted text. */
export interface Mention {
  concept?: ResolvedConcept;
  /** The table phrase matched, for mentions found through the title index. */
  titleEntry?: CodeEntry;
  start: number;
  end: number;
  sentence: NoteSentence;
  role: MentionRole;
  source: 'synonym' | 'title' | 'weak';
  /** In counselling or education text ("Patient Education and Counseling: ..."): supports a code, never starts one. */
  discussion: boolean;
  /** The mention's own words and the words its concept adds. */
  words: string[];
  /** What the words around it say (for choosing the specific code). */
  context: MentionContext;
  /** The object of a work-up ("an echocardiogram to evaluate his murmur"): a finding the visit addresses, coded even beside diagnoses. */
  workedUp?: boolean;
  /** Named as what the patient is seen for ("presents today with back pain", "seen for follow-up of her asthma"). */
  reason?: boolean;
  /** Site or side words a problem heading took from the lines under it (named in the code's rule). */
  fromLines?: string[];
}

/** A finding the text denies, rules out or leaves uncertain: never coded, counted for the report. */
export interface SetAside {
  start: number;
  end: number;
  conceptId?: string;
  code?: string;
  why: 'negated' | 'uncertain';
}

/** A known finding named as the object of a work-up ("to evaluate his murmur", "for further evaluation of the murmur"). */
const WORKED_UP = /\b(?:evaluat(?:e|ion)|assess(?:ment)?|work\s*up|investigat(?:e|ion))\s+(?:of\s+)?(?:his|her|their|the|this|that)\s+(?:[a-z-]+\s+){0,2}$/i;
/** What the patient is seen for: "presents today with", "is seen for follow-up of her", "here for evaluation of". */
const REASON = /\b(?:seen|presents?|presenting|presented|here|comes?\s+in|came\s+in|evaluated|referred)\s+(?:today\s+|in\s+clinic\s+|to\s+(?:the\s+)?clinic\s+(?:today\s+)?)?(?:for|with)\s+(?:(?:a|an|her|his|their|the|today|evaluation|follow[-\s]?up|management|complaints?|of)\s+){0,4}(?:[a-z-]+\s+){0,3}$/i;
/** Counselling and education bullets discuss conditions; they add evidence to a code, they do not start one. */
const DISCUSSION = /^\W*(?:patient\s+)?(?:education(?:\s+and\s+counse(?:l)?ling)?|counse(?:l)?ling|patient\s+agreements?|instructions?)\s*:|^\W*(?:i|we)\s+(?:also\s+)?(?:provided\s+(?:\w+\s+)?(?:counse(?:l)?ling|education)|counse(?:l)?led|educated|advised|instructed|cautioned|warned)\b/i;

const WINDOW = 6;
const SIDES = ['right', 'left', 'bilateral', 'both'];
const CUT_WORDS = new Set(['and', 'but', 'or', 'plus', 'also', 'then', 'however', 'while', 'which']);
// The one-word negation cues of the clinical-language core: cue words, not qualifiers of the finding.
const NEGATION_CUES = new Set(CONTEXT_TRIGGERS.filter((t) => t.category === 'negated' && !/\s/.test(t.phrase)).map((t) => t.phrase));

/**
 * The words around a mention that qualify it: its clause up to a conjunction or a semicolon,
 * nearer words (no comma between) weighing more; words the encounter understanding reads as negated count as absent.
 */
export function mentionContext(sentence: NoteSentence, words: readonly Word[], from: number, to: number, lexicon: CompiledLexicon, conceptWords: readonly string[]): MentionContext {
  const text = sentence.text;
  const gap = (i: number): string => text.slice(words[i]!.end - sentence.start, words[i + 1]!.start - sentence.start);
  const cutBetween = (i: number): boolean => /[;:()]/.test(gap(i));
  // Qualifiers sit close to what they qualify ("osteoarthritis of the left knee"); further off they belong to something else.
  let left = from;
  while (left > 0 && from - left < WINDOW && !cutBetween(left - 1) && !CUT_WORDS.has(words[left - 1]!.norm)) left--;
  let right = to;
  while (right < words.length && right - to < WINDOW && !cutBetween(right - 1) && !CUT_WORDS.has(words[right]!.norm)) right++;
  const positive = new Map<string, number>();
  const absent = new Set<string>();
  const put = (w: string, weight: number): void => {
    if (STOP_WORDS.has(w)) return;
    if ((positive.get(w) ?? 0) < weight) positive.set(w, weight);
  };
  // A word the encounter understanding reads as negated ("without hyperglycemia", "no retinopathy") is absent.
  const negated = (x: Word): boolean => /^(?:denied|ruled-out)$/.test(assertInNote(sentence, x.start, x.end).status);
  for (let i = left; i < right; i++) {
    const w = words[i]!.norm;
    if (NEGATION_CUES.has(w)) continue;
    if (negated(words[i]!)) {
      absent.add(w);
      continue;
    }
    if (i >= from && i < to) {
      put(w, 1);
      continue;
    }
    const commaBetween = i < from ? /,/.test(text.slice(words[i]!.end - sentence.start, words[from]!.start - sentence.start)) : /,/.test(text.slice(words[to - 1]!.end - sentence.start, words[i]!.start - sentence.start));
    put(w, commaBetween ? 0.8 : 1.2);
  }
  const segStart = words[left]!.start - sentence.start;
  const segEnd = words[right - 1]!.end - sentence.start;
  for (const q of lexicon.qualifierMatcher.find(text.slice(segStart, segEnd))) {
    if (/^(?:denied|ruled-out)$/.test(assertInNote(sentence, sentence.start + segStart + q.start, sentence.start + segStart + q.end).status)) continue;
    // A qualifier states the clinical meaning outright ("poorly controlled" = hyperglycemia): it outweighs loose words.
    for (const w of q.value) put(w, 1.3);
  }
  for (const w of conceptWords) if (!absent.has(w)) put(w, 1);
  for (const [w, weight] of [...positive]) for (const implied of lexicon.implies.get(w) ?? []) put(implied, weight);
  for (const w of absent) positive.delete(w);
  return { positive, absent };
}

/**
 * What the note says of the finding at `[start, end)` (offsets in the submitted text), as the
 * encounter understanding reads it: the patient's current condition, history, family history, or
 * set aside as negated (denied, ruled out) or uncertain.
 */
export function readRole(sentence: NoteSentence, start: number, end: number, concept?: ResolvedConcept): MentionRole | 'negated' | 'uncertain' {
  return roleOf(assertInNote(sentence, start, end, { currentWhenListed: concept?.history === 'current', therapy: concept?.kind === 'status' }));
}

/** The coder's role for what the encounter understanding asserts. */
function roleOf(said: FindingAssertion): MentionRole | 'negated' | 'uncertain' {
  if (said.status === 'denied' || said.status === 'ruled-out') return 'negated';
  if (said.status === 'uncertain') return 'uncertain';
  if (said.subject !== 'patient') return 'family';
  return said.status === 'historical' ? 'history' : 'current';
}

/** Every mention in the sentences the coder reads, and the findings set aside. */
export function findMentions(scope: readonly NoteSentence[], lexicon: CompiledLexicon, titles: TitleIndex): { mentions: Mention[]; setAside: SetAside[] } {
  const mentions: Mention[] = [];
  const setAside: SetAside[] = [];
  for (const sentence of scope) {
    // A list number ("1. Type 2 diabetes ...") is no stage or type.
    const enumerator = /^\s*\(?\d{1,2}[.)]\s/.exec(sentence.text)?.[0].length ?? 0;
    const words = wordsOf(sentence.text.slice(enumerator), sentence.start + enumerator);
    if (!words.length) continue;
    const wordIndexAt = (abs: number): number => {
      let lo = 0;
      let hi = words.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (words[mid]!.end > abs) hi = mid;
        else lo = mid + 1;
      }
      return lo;
    };
    type Hit = { start: number; end: number; concept?: ResolvedConcept; titleEntry?: CodeEntry; weak: boolean };
    const hits: Hit[] = [];
    const lowered = sentence.text.toLowerCase();
    for (const h of lexicon.conceptMatcher.find(sentence.text)) {
      const concept = lexicon.concepts.get(h.value);
      if (!concept) continue;
      if (concept.weak && !concept.weak.some((cue) => lowered.includes(cue))) continue;
      hits.push({ start: sentence.start + h.start, end: sentence.start + h.end, concept, weak: !!concept.weak });
    }
    for (const t of titles.find(words)) hits.push({ start: words[t.from]!.start, end: words[t.to - 1]!.end, titleEntry: t.entry, weak: false });
    hits.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
    const kept: Hit[] = [];
    for (const h of hits) {
      // Hits come in order of start and kept ones do not overlap: only the last can clash.
      const clash = kept.length && h.start < kept[kept.length - 1]!.end ? kept.length - 1 : -1;
      if (clash < 0) kept.push(h);
      else {
        // The longer span wins; a concept inside a table phrase stays with it ("primary osteoarthritis"
        // keeps the osteoarthritis anchors, so "right knee" can still choose M17.11).
        const k = kept[clash]!;
        const [long, short] = h.end - h.start > k.end - k.start ? [h, k] : [k, h];
        kept[clash] = { ...long, concept: long.concept ?? short.concept };
      }
    }
    for (const h of kept) {
      // In the medication list only long-term drug therapy counts (insulin, anticoagulants).
      if (sentence.section === 'medications' && h.concept?.kind !== 'status') continue;
      const said = assertInNote(sentence, h.start, h.end, { currentWhenListed: h.concept?.history === 'current', therapy: h.concept?.kind === 'status' });
      const role = roleOf(said);
      if (role === 'negated' || role === 'uncertain') {
        setAside.push({ start: h.start, end: h.end, why: role, ...(h.concept ? { conceptId: h.concept.id } : {}), ...(h.titleEntry ? { code: h.titleEntry.code } : {}) });
        continue;
      }
      const near = sentence.text.slice(Math.max(0, h.start - sentence.start - 160), h.start - sentence.start).split(/[;:.]\s/).pop() ?? '';
      const from = wordIndexAt(h.start);
      let to = from;
      while (to < words.length && words[to]!.start < h.end) to++;
      const own = [...words.slice(from, to).map((w) => w.norm), ...(h.concept?.words ?? [])];
      mentions.push({
        ...(h.concept ? { concept: h.concept } : {}), ...(h.titleEntry ? { titleEntry: h.titleEntry } : {}),
        start: h.start, end: h.end, sentence, role, source: h.titleEntry ? 'title' : h.weak ? 'weak' : 'synonym', discussion: DISCUSSION.test(sentence.text),
        ...(WORKED_UP.test(near) ? { workedUp: true } : {}),
        ...(REASON.test(near) ? { reason: true } : {}),
        words: [], context: mentionContext(sentence, words, from, to, lexicon, h.concept?.words ?? []),
      });
      const m = mentions[mentions.length - 1]!;
      m.words = [...new Set(own)].filter((w) => !m.context.absent.has(w) && !STOP_WORDS.has(w));
      // The side is the encounter understanding's reading when the words around the mention name none.
      if (said.laterality && !SIDES.some((w) => m.context.positive.has(w) || m.context.absent.has(w))) m.context.positive.set(said.laterality, 1);
    }
  }
  return { mentions, setAside };
}
