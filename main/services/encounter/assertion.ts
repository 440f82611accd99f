/**
 * What a sentence asserts of a finding it names, for a written note and a conversation alike:
 * present, denied, uncertain, ruled out or historical; the patient's own or a relative's; and
 * its side. ConText (the clinical-language core's trigger lists) reads the clause; the rules here
 * add what trigger lists cannot say: speech about a condition that is no finding (the risks of a
 * procedure, what a disease can do, a test "to determine if"), a physician's doubt ("I doubt",
 * "low suspicion for", "less likely"), a test ordered to look for a disease, a disease the patient
 * fears, and a past state ("used to", "smoking history"). The coder, the note writer's problems and
 * the fidelity checker read the one answer; none keeps rules of its own.
 */
import { contextOf, type FindingContext } from '../clinical-language/context.js';
import { CONTEXT_TRIGGERS } from '../clinical-language/context-triggers.js';
import { laterality } from './attributes.js';
import type { Laterality, Subject } from './types.js';
import type { SectionKind } from './written-note.js';

/** What is said of the finding. `historical`: the patient had it, not (known to be) now. */
export type AssertionStatus = 'present' | 'denied' | 'uncertain' | 'ruled-out' | 'historical';

export interface FindingAssertion {
  status: AssertionStatus;
  subject: Subject;
  laterality?: Laterality;
}

/** What the reader knows of the finding beyond its sentence. */
export interface AssertionHints {
  /** The note section the sentence sits in, for a written note (a family history section makes it a relative's). */
  section?: SectionKind;
  /** A state that stays current when listed under past history (an amputation, a transplant, a device). */
  currentWhenListed?: boolean;
  /** A therapy or status (long-term drug use): current when the patient is said to be on it, whatever the scope. */
  therapy?: boolean;
  /**
   * Spoken by the clinician in conversation: "I think you have a lumbar strain" is how a physician
   * states a diagnosis aloud, so a first-person belief does not make it uncertain there; in a
   * written note ("I believe this is an ankle sprain") it marks an impression not yet confirmed.
   */
  spoken?: boolean;
}

/** The risks of a procedure, what a disease can do, a test "to determine if", a cause only thought likely: read in the finding's clause, before it. */
const SPECULATIVE = /\b(?:(?:determine|see|check|know|find out|confirm)\s+(?:if|whether)|risks?\s+(?:of|include|including|such as)|complications?\s+(?:of|such as|including|include)|(?:most\s+)?(?:likely|probably|possibly)\s+(?:due to|secondary to|related to|caused by|from)|concern\s+is\s+that|(?:be\s+)?aware\s+of|(?:if|whether)\s+(?:these|this|it|they|the\s+\w+)\s+(?:reveals?|shows?|demonstrates?))\b[^;:]*$/i;
/** An impression written as belief ("I believe this is an ankle sprain", "appears to be"): uncertain in a written note. */
const BELIEF = /\b(?:(?:i|we)\s+(?:believe|think|suspect|feel)\s+(?:that\s+)?(?:this|it|he|she|they|there|the\s+patient|patient)\s+(?:is|has|have|are|was|may|might|could|had)|(?:appears?|seems?)\s+to\s+(?:be|have))\b[^;:]*$/i;
/**
 * The outpatient rule that an unconfirmed diagnosis is not coded, in the clause before the finding:
 * a physician's doubt ("I doubt this is", "low suspicion for", "less likely"), a test ordered to look
 * for it ("check a TSH for hypothyroidism", "x-ray to evaluate for fracture": with no possessive,
 * since "for her hypothyroidism" monitors a known one), and a disease the patient fears or wants to
 * avoid ("worried about getting shingles").
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
/** "History of MI, on aspirin": a drug the patient is on is current whatever scope it sits in. */
const ON_DRUG = /\b(on|takes|taking|continue|continues|continuing|started|start|uses|using)\s+(?:\w+\s+){0,2}$/i;
/** After a comma, a subject or a plan verb opens a clause of its own ("not well controlled, we'll add glipizide"). */
const NEW_CLAUSE = /,\s*(?:and\s+)?(?:we|we'll|we will|i|i'll|i will|he|she|they|will|plan|start|continue|add|increase|recommend)\b/i;
/** Negation triggers that state a diagnosis excluded rather than a symptom denied. */
const EXCLUDED = /\bruled?\s+out\b|\bexclud|\bno\s+(?:evidence|sign)|\bnot\s+(?:an?\s+)?$/i;

/** The text of a finding's clause before it (back to a semicolon, colon or full stop). */
const clauseBefore = (text: string, at: number): string => text.slice(Math.max(0, at - 500), at).split(/[;:.]\s/).pop() ?? '';

const splitWords = (text: string): string[] => text.toLowerCase().replace(/’/g, "'").split(/[^\p{L}\p{N}']+/u).filter(Boolean);
// First words of every context trigger: a sentence with none of them (and no "?") has no context to read.
const TRIGGER_FIRST_WORDS = new Set(CONTEXT_TRIGGERS.map((t) => splitWords(t.phrase)[0] ?? '?'));
const NO_CONTEXT: FindingContext = { negated: false, uncertain: false, hypothetical: false, historical: false, family: false, triggers: [] };

// A long note asks about many findings of one sentence in a row: the last sentence's answer is kept.
let lastChecked: { sentence: string; may: boolean } | undefined;
/** The context reader is the costly step of a long note; most assessment sentences carry no trigger at all. */
function mayHaveContext(sentence: string): boolean {
  if (lastChecked?.sentence !== sentence) lastChecked = { sentence, may: sentence.includes('?') || splitWords(sentence).some((w) => TRIGGER_FIRST_WORDS.has(w)) };
  return lastChecked.may;
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

/** True when every governing trigger of a category stands before a comma that opens a new clause before the finding. */
function newClauseAfter(ctx: FindingContext, text: string, category: string, relStart: number): boolean {
  const triggers = ctx.triggers.filter((t) => t.category === category);
  return triggers.length > 0 && triggers.every((t) => t.end <= relStart && NEW_CLAUSE.test(text.slice(t.end, relStart)));
}

/** What ConText and the note's section say, before the rules that read the words around the finding. */
function fromContext(ctx: FindingContext, text: string, relStart: number, hints: AssertionHints): FindingAssertion {
  if (ctx.negated && !newClauseAfter(ctx, text, 'negated', relStart)) {
    const trigger = ctx.triggers.find((t) => t.category === 'negated');
    return { status: trigger && EXCLUDED.test(trigger.phrase) ? 'ruled-out' : 'denied', subject: 'patient' };
  }
  if (ctx.uncertain) return { status: 'uncertain', subject: 'patient' };
  if (ctx.family || hints.section === 'family') return { status: ctx.historical ? 'historical' : 'present', subject: 'family' };
  if (ctx.historical || (hints.section === 'history' && !hints.currentWhenListed)) return { status: 'historical', subject: 'patient' };
  return { status: 'present', subject: 'patient' };
}

/**
 * What `sentence` asserts of the finding at `[start, end)` (offsets in the sentence): its status,
 * whose it is, and the side said nearest to it.
 */
export function assertFinding(sentence: string, start: number, end: number, hints: AssertionHints = {}): FindingAssertion {
  const win = contextWindow(sentence, start, end);
  const ctx = mayHaveContext(sentence) ? contextOf(win.text, win.start, win.end) : NO_CONTEXT;
  const out = fromContext(ctx, win.text, win.start, hints);
  const after = win.text.slice(win.end, win.end + 60);
  const before = clauseBefore(win.text, win.start);
  // The rules reach a few words back: the clause's last 160 characters are enough.
  const near = before.slice(-160);
  const present = (): boolean => out.status === 'present' && out.subject === 'patient';
  const doubted = SPECULATIVE.test(before) || (!hints.spoken && BELIEF.test(before)) || DOUBTED_BEFORE.test(near) || GENERIC_STATEMENT.test(after) || TEST_OF.test(after) || DOUBTED_AFTER.test(after);
  if (present() && doubted) out.status = 'uncertain';
  if (present() && HISTORY_AFTER.test(after)) out.status = 'historical';
  if (out.status === 'historical' && out.subject === 'patient' && hints.therapy && ON_DRUG.test(win.text.slice(Math.max(0, win.start - 60), win.start))) out.status = 'present';
  if (present() && USED_TO.test(near)) out.status = 'historical';
  // Read in the window too: a run-on text must cost linear time.
  const side = laterality(win.text, win.start, win.end);
  if (side) out.laterality = side;
  return out;
}

/** Done at this visit ("will receive his tetanus vaccine in office today", "flu shot given"), not merely due or advised. */
const AT_VISIT = /\b(?:today|in\s+(?:the\s+)?(?:office|clinic)|administered|was\s+given|were\s+given|given\s+today)\b/i;
const NOT_DONE = /\b(?:declin|refus|defer|due\s+for|recommend|advis|next\s+visit|not\s+(?:receive|get|have))/i;

/** True when a sentence says an intervention (a vaccine, an injection) was given at this visit, not declined, deferred or only advised. */
export function givenAtVisit(sentence: string): boolean {
  return AT_VISIT.test(sentence) && !NOT_DONE.test(sentence);
}

/** Tests ordered "to confirm the diagnosis": the diagnosis they are for is not yet established. */
const TO_CONFIRM = /\b(?:to confirm (?:the|this|a|her|his|their) (?:diagnosis|suspicion)|confirmatory (?:test|testing|labs?))\b/i;

/** True when a line orders tests to confirm a diagnosis (its problem is then probable, not confirmed). */
export function ordersTestsToConfirm(line: string): boolean {
  return TO_CONFIRM.test(line);
}
