/**
 * Finding what a note says the patient has: concepts of the synonym index and phrases of the
 * table in the sentences the coder reads, each with its context (negated, uncertain, history,
 * family) from the shared clinical-language reader and the words around it.
 */
import { contextOf, type FindingContext } from '../clinical-language/context.js';
import { CONTEXT_TRIGGERS } from '../clinical-language/context-triggers.js';
import type { NoteDocument, NoteSentence } from './document.js';
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

/**
 * Speech about a condition that is not a finding, which the shared context reader does not
 * list (yet): the risks of a procedure ("the risks of heart attack, stroke and death"), what a
 * disease can do ("Lyme disease can cause ..."), a cause only thought likely ("most likely due to
 * rotator cuff tendinopathy"), a test "to determine if he has Lyme disease", an impression the
 * physician offers as belief ("I believe this is an ankle sprain", "appears to be"). Read in the
 * finding's clause, before it. (To move to the encounter understanding when it reads certainty.)
 */
const SPECULATIVE = /\b(?:(?:determine|see|check|know|find out|confirm)\s+(?:if|whether)|risks?\s+(?:of|include|including|such as)|complications?\s+(?:of|such as|including|include)|(?:most\s+)?(?:likely|probably|possibly)\s+(?:due to|secondary to|related to|caused by|from)|(?:i|we)\s+(?:believe|think|suspect|feel)\s+(?:that\s+)?(?:this|it|he|she|they|there|the\s+patient|patient)\s+(?:is|has|have|are|was|may|might|could|had)|(?:appears?|seems?)\s+to\s+(?:be|have)|concern\s+is\s+that|(?:be\s+)?aware\s+of|(?:if|whether)\s+(?:these|this|it|they|the\s+\w+)\s+(?:reveals?|shows?|demonstrates?))\b[^;:]*$/i;
/**
 * More of the outpatient rule that an unconfirmed diagnosis is not coded, in the clause before the
 * finding: a physician's doubt ("I doubt this is", "low suspicion for", "less likely"), a test
 * ordered to look for it ("check a TSH for hypothyroidism", "x-ray to evaluate for fracture": with
 * no possessive, since "for her hypothyroidism" monitors a known one), and a disease the patient
 * fears or wants to avoid ("worried about getting shingles").
 */
const DOUBTED_BEFORE = new RegExp(
  [
    String.raw`\b(?:i|we)\s+(?:(?:would|do)\s+)?doubt\b(?:\s+(?:that\s+)?(?:this|it|he|she|there)\s+(?:is|has|was|represents))?\s+(?:(?:a|an|any)\s+)?(?:[a-z-]+\s+){0,2}$`,
    String.raw`\b(?:low|lower|little)\s+(?:suspicion|likelihood|probability|concern|index\s+of\s+suspicion)\s+(?:for|of)\s+(?:(?:a|an|any)\s+)?(?:[a-z-]+\s+){0,2}$`,
    String.raw`\b(?:less|not)\s+likely\s+(?:to\s+be\s+)?(?:(?:a|an)\s+)?$`,
    String.raw`\b(?:check|checking|checked|order|ordered|ordering|obtain|obtaining|get|getting|send|draw|run|perform|test|testing|screen|screening|evaluate|evaluating|evaluation|assess|assessing|look|looking|work\s*up)\b[^;:.,]{0,40}?\b(?:for|out)\s+(?:(?:a|an|any|possible|potential|signs?\s+of|evidence\s+of)\s+)?$`,
    String.raw`\b(?:worried|concerned|afraid|scared|anxious|fearful|fears?)\s+(?:about|of|that)\s+(?:(?:she|he|they|it)\s+(?:\w+\s+)?(?:has|have|is|may|might|could)\s+)?(?:(?:getting|developing|catching|contracting|having)\s+)?(?:(?:a|an)\s+)?$`,
    String.raw`\b(?:avoid|prevent|preventing|avoiding|reduce\s+(?:the|her|his|their)?\s*risk\s+of)\s+(?:(?:getting|developing|catching|contracting)\s+)?(?:(?:a|an)\s+)?$`,
  ].join('|'),
  'i',
);
/** A known finding named as the object of a work-up ("to evaluate his murmur", "for further evaluation of the murmur"). */
const WORKED_UP = /\b(?:evaluat(?:e|ion)|assess(?:ment)?|work\s*up|investigat(?:e|ion))\s+(?:of\s+)?(?:his|her|their|the|this|that)\s+(?:[a-z-]+\s+){0,2}$/i;
/** What the patient is seen for: "presents today with", "is seen for follow-up of her", "here for evaluation of". */
const REASON = /\b(?:seen|presents?|presenting|presented|here|comes?\s+in|came\s+in|evaluated|referred)\s+(?:today\s+|in\s+clinic\s+|to\s+(?:the\s+)?clinic\s+(?:today\s+)?)?(?:for|with)\s+(?:(?:a|an|her|his|their|the|today|evaluation|follow[-\s]?up|management|complaints?|of)\s+){0,4}(?:[a-z-]+\s+){0,3}$/i;
/** A finding the physician then judges improbable ("pneumonia is less likely", "fracture seems unlikely"). */
const DOUBTED_AFTER = /^\s*(?:is|was|seems|appears|would\s+be)?\s*(?:less\s+likely|unlikely|doubtful|not\s+likely|improbable|low\s+on\s+the\s+differential)\b/i;
/** What a disease does in general ("Lyme disease can cause problems"), said right after the finding. */
const GENERIC_STATEMENT = /^\s*(?:can|could|may|might|will|would)\s+(?:cause|lead to|result in|affect|damage|progress)\b/i;
/** A disease named as the object of a test or a vaccine ("COVID-19 test", "Lyme titer", "hepatitis C RNA"): not a finding. */
const TEST_OF = /^[\s-]*(?:virus\s+)?(?:tests?|testing|screen(?:ing)?|panel|titers?|titres?|antibod(?:y|ies)|antigen|pcr|rna|dna|genotype|swab|vaccines?|vaccinations?|shots?|immunizations?|booster)\b/i;
/** "He used to be on an insulin pump", "she used to smoke": a past state, not a current one. */
const USED_TO = /\bused\s+to\s+(?:be\s+on|be|take|have|use|wear|get)\b[^;:.]*$/i;
/** "smoking history", "cancer history": the finding named as history. */
const HISTORY_AFTER = /^\s*history\b/i;
/** Counselling and education bullets discuss conditions; they add evidence to a code, they do not start one. */
const DISCUSSION = /^\W*(?:patient\s+)?(?:education(?:\s+and\s+counse(?:l)?ling)?|counse(?:l)?ling|patient\s+agreements?|instructions?)\s*:|^\W*(?:i|we)\s+(?:also\s+)?(?:provided\s+(?:\w+\s+)?(?:counse(?:l)?ling|education)|counse(?:l)?led|educated|advised|instructed|cautioned|warned)\b/i;

/** The text of a finding's clause before it (back to a semicolon, colon or full stop). */
const clauseBefore = (text: string, at: number): string => text.slice(Math.max(0, at - 500), at).split(/[;:.]\s/).pop() ?? '';

const ON_DRUG = /\b(on|takes|taking|continue|continues|continuing|started|start|uses|using)\s+(?:\w+\s+){0,2}$/i;
const WINDOW = 6;
const CUT_WORDS = new Set(['and', 'but', 'or', 'plus', 'also', 'then', 'however', 'while', 'which']);
const NEGATORS = new Set(['no', 'not', 'without', 'denies', 'denied', 'negative', 'non', 'never', 'nor']);

const splitWords = (text: string): string[] => text.toLowerCase().replace(/’/g, "'").split(/[^\p{L}\p{N}']+/u).filter(Boolean);
// First words of every context trigger: a sentence with none of them (and no "?") has no context to read.
const TRIGGER_FIRST_WORDS = new Set(CONTEXT_TRIGGERS.map((t) => splitWords(t.phrase)[0] ?? '?'));
const NO_CONTEXT: FindingContext = { negated: false, uncertain: false, hypothetical: false, historical: false, family: false, triggers: [] };

/** The context reader is the costly step of a long note; most assessment sentences carry no trigger at all. */
function mayHaveContext(sentence: string): boolean {
  return sentence.includes('?') || splitWords(sentence).some((w) => TRIGGER_FIRST_WORDS.has(w));
}

const LONG_SENTENCE = 600;
const CONTEXT_REACH = 300;

/**
 * The part of a sentence the context reader gets for one finding: the whole sentence, or in a
 * run-on text without full stops a window around the finding (scopes reach 30 words at most), so
 * a hostile 200,000-character "sentence" costs linear time, not quadratic.
 */
function contextWindow(text: string, start: number, end: number): { text: string; start: number; end: number } {
  if (text.length <= LONG_SENTENCE) return { text, start, end };
  let from = Math.max(0, start - CONTEXT_REACH);
  let to = Math.min(text.length, end + CONTEXT_REACH);
  while (from > 0 && from < start && !/\s/.test(text[from - 1]!)) from++;
  while (to < text.length && to > end && !/\s/.test(text[to]!)) to--;
  return { text: text.slice(from, to), start: start - from, end: end - from };
}

/** Which sentences the coder reads: the assessment when the note has one, else everything but exam and results. */
export function sentencesInScope(doc: NoteDocument): NoteSentence[] {
  if (doc.hasAssessment) return doc.sentences.filter((s) => s.section === 'assessment' || s.section === 'plan' || s.section === 'medications');
  return doc.sentences.filter((s) => s.section !== 'exam' && s.section !== 'results');
}

/**
 * The words around a mention that qualify it: its clause up to a conjunction or a semicolon,
 * nearer words (no comma between) weighing more; words after "no"/"without" count as absent.
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
  let negating = false;
  for (let i = left; i < right; i++) {
    const w = words[i]!.norm;
    if (i > left && /,/.test(gap(i - 1))) negating = false;
    if (w === 'with') negating = false;
    if (NEGATORS.has(w)) {
      negating = true;
      continue;
    }
    if (negating) {
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
    const before = text.slice(Math.max(0, segStart + q.start - 12), segStart + q.start).toLowerCase();
    if (/\b(no|not|without|denies)\s+$/.test(before)) continue;
    // A qualifier states the clinical meaning outright ("poorly controlled" = hyperglycemia): it outweighs loose words.
    for (const w of q.value) put(w, 1.3);
  }
  for (const w of conceptWords) if (!absent.has(w)) put(w, 1);
  for (const [w, weight] of [...positive]) for (const implied of lexicon.implies.get(w) ?? []) put(implied, weight);
  for (const w of absent) positive.delete(w);
  return { positive, absent };
}

// After a comma, a subject or a plan verb opens a clause of its own ("not well controlled, we'll add glipizide").
const NEW_CLAUSE = /,\s*(?:and\s+)?(?:we|we'll|we will|i|i'll|i will|he|she|they|will|plan|start|continue|add|increase|recommend)\b/i;

/** True when every governing trigger of a category stands before a comma that opens a new clause before the finding. */
function newClauseAfter(ctx: FindingContext, text: string, category: string, relStart: number): boolean {
  const triggers = ctx.triggers.filter((t) => t.category === category);
  return triggers.length > 0 && triggers.every((t) => t.end <= relStart && NEW_CLAUSE.test(text.slice(t.end, relStart)));
}

/** The role a context gives a finding, or why it is set aside. */
function roleOf(ctx: FindingContext, text: string, sentence: NoteSentence, concept: ResolvedConcept | undefined, relStart: number): MentionRole | 'negated' | 'uncertain' {
  if (ctx.negated && !newClauseAfter(ctx, text, 'negated', relStart)) return 'negated';
  if (ctx.uncertain) return 'uncertain';
  if (ctx.family || sentence.section === 'family') return 'family';
  if (ctx.historical || (sentence.section === 'history' && concept?.history !== 'current')) return 'history';
  return 'current';
}

/**
 * What a sentence says of the finding at `[start, end)` (offsets in the submitted text): the
 * patient's current condition, history, family history, or set aside as negated or uncertain.
 */
export function readRole(sentence: NoteSentence, start: number, end: number, concept?: ResolvedConcept, readContext = mayHaveContext(sentence.text)): MentionRole | 'negated' | 'uncertain' {
  const win = contextWindow(sentence.text, start - sentence.start, end - sentence.start);
  const ctx = readContext ? contextOf(win.text, win.start, win.end) : NO_CONTEXT;
  let role = roleOf(ctx, win.text, sentence, concept, win.start);
  const after = win.text.slice(win.end, win.end + 60);
  const before = clauseBefore(win.text, win.start);
  // The coder's own patterns reach a few words back: the clause's last 160 characters are enough.
  const near = before.slice(-160);
  if (role === 'current' && (SPECULATIVE.test(before) || DOUBTED_BEFORE.test(near) || GENERIC_STATEMENT.test(after) || TEST_OF.test(after) || DOUBTED_AFTER.test(after))) role = 'uncertain';
  if (role === 'current' && HISTORY_AFTER.test(after)) role = 'history';
  // "History of MI, on aspirin": a drug the patient is on is current whatever scope it sits in.
  if (role === 'history' && concept?.kind === 'status' && ON_DRUG.test(win.text.slice(Math.max(0, win.start - 60), win.start))) role = 'current';
  if (role === 'current' && USED_TO.test(near)) role = 'history';
  return role;
}

/** Every mention in the sentences the coder reads, and the findings set aside. */
export function findMentions(doc: NoteDocument, lexicon: CompiledLexicon, titles: TitleIndex): { mentions: Mention[]; setAside: SetAside[] } {
  const mentions: Mention[] = [];
  const setAside: SetAside[] = [];
  const scope = sentencesInScope(doc);
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
    const readContext = mayHaveContext(sentence.text);
    for (const h of kept) {
      // In the medication list only long-term drug therapy counts (insulin, anticoagulants).
      if (sentence.section === 'medications' && h.concept?.kind !== 'status') continue;
      const role = readRole(sentence, h.start, h.end, h.concept, readContext);
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
    }
  }
  return { mentions, setAside };
}
