/**
 * One sentence of an encounter filed where it belongs: the clinician's history, exam and results,
 * the assessment and plan by problem, and the patient's answers under the question they answer,
 * each rewritten in clinical register. `composeContent` (compose.ts) reads every sentence through
 * here, in order, with one `Reading` that remembers what came before.
 */
import { contentWords, informativeness, isSmallTalk, kindOf, MIN_WEIGHT } from './classify.js';
import type { Gender } from './rewrite.js';
import { polishSentence } from './clean.js';
import { readsAsConversation } from '../../../services/clinical-language/conversation.js';
import { EXAM_REGIONS } from '../../../services/clinical-language/lexicon.js';
import { answerPolarity } from '../../../services/clinical-language/context.js';
import type { SectionKind } from './sections.js';
import type { Exchanges } from './dialogue.js';
import { drugsNamed } from './medication-facts.js';
import { planFact, vitalFact, type Fact } from './facts.js';
import { diagnosisIn, isProblemName, opensAssessmentAndPlan, problemOpened } from './problems.js';
import {
  hasVerb, isNarration, keepWritten, stripTalk, toAssessmentStatement, toClinicianHistory, toExamStatements, toPatientStatement, toPlanStatement, toResultStatement,
} from './register.js';
import type { ContentItem, NoteContent } from './content.js';
import type { Sentence } from './transcript.js';

const INTRO = /\b(\d+|[a-z]+(-| )?[a-z]*)[- ]years?[- ]old\b|\bpresents?\b|\bpresenting\b|\bhere (today )?for\b|\breferred\b/i;
// Where a spoken exam region files its findings (ACI-Bench and most clinic notes label exam lines so).
const REGION_LABELS: [RegExp, string][] = [
  [/heart|cardiac|cardiovascular|cardio/i, 'Cardiovascular'], [/lung|chest|respiratory|pulmonary/i, 'Respiratory'],
  [/abdom|belly|stomach|gi\b/i, 'Gastrointestinal'], [/neck|thyroid|lymph/i, 'Neck'], [/neuro|reflex|sensation|gait|cranial/i, 'Neurological'],
  [/skin|derm|wound|incision/i, 'Skin'], [/eye|ear|nose|throat|head|heent|mouth/i, 'HEENT'],
  [/back|spine|knee|shoulder|hip|ankle|wrist|elbow|hand|foot|feet|leg|arm|extremit|strength|range of motion|musculo|joint|muscle/i, 'Musculoskeletal'],
];

function examLabel(region: string | undefined, text: string): string | undefined {
  if (region) for (const [re, label] of REGION_LABELS) if (re.test(region)) return label;
  return EXAM_REGIONS.find((e) => e.re.test(text))?.label;
}

// Tuned on ACI-Bench train and valid: the patient's sentences need less salience than the clinician's.
const PATIENT_FLOOR = 0;
// Someone other than the patient or the clinician doing something ("the nurse will come in").
const THIRD_PARTY = /^(?:she|he|they|the nurse|the front desk|someone|somebody|my (?:nurse|assistant|staff)|our (?:nurse|staff))\b/i;
// Sections a patient's answer can belong to.
const HISTORY_KINDS = new Set<SectionKind>(['hpi', 'pmh', 'surgical', 'medications', 'allergies', 'social', 'family']);
const DEPENDENT = /^\W*(?:because|['’]?cause|unless|which|so that|whereas|although)\b/i;
const FRAGMENT_SUBJECT = /\b(i|i'm|i've|i'd|it|it's|he|she|we|they|there|this|that|my \w+|you)\b/i;

/** The encounter as it is read sentence by sentence: what was filed, and where the plan stands. */
export interface Reading {
  sentences: Sentence[];
  /** Sentences with a number that could not be read with certainty. */
  unclear: Set<number>;
  content: NoteContent;
  gender: Gender;
  exchanges: Exchanges;
  clinician: (s: Sentence) => boolean;
  problems: string[];
  /** The problem of the assessment and plan being talked about. */
  current: number | undefined;
  planPhase: boolean;
  /** The sentence that opened the assessment and plan (the medication list reads only before it). */
  planStart: number;
  /** The turn in which a result was last read out. */
  resultsTurn: number;
  /** Content words of every line filed, so a restatement is not filed twice. */
  seen: string[][];
  /** Lines that say little, kept for a section that would otherwise be empty. */
  reserve: { kind: SectionKind; item: ContentItem }[];
}

/** What every line of one sentence carries: its weight, its place, its problem in the plan. */
type Base = { weight: number; index: number; problem?: number };

export function add(r: Reading, kind: SectionKind, item: ContentItem, minWords = 2): void {
  const text = keepWritten(item.text, readsAsConversation);
  if (!text) return;
  const words = contentWords(text);
  if (words.length < minWords || isDuplicate(words, r.seen)) return;
  // The same order said twice ("order another echocardiogram", then "order an echocardiogram") is one.
  if (item.fact && r.content[kind].some((o) => o.problem === item.problem && o.fact && sameFact(o.fact, item.fact!))) return;
  r.seen.push(words);
  r.content[kind].push({ ...item, text });
}

function hold(r: Reading, kind: SectionKind, item: ContentItem): void {
  if (contentWords(item.text).length >= 1) r.reserve.push({ kind, item });
}

/** The clinician introducing the patient early on ("a 54-year-old who presents for..."). */
function introduces(s: Sentence): boolean {
  return INTRO.test(s.text) && /\b(old|presents?|here for|referred)\b/i.test(s.text) && s.position < 0.25;
}

/** Files one sentence where it belongs, rewritten in clinical register, or leaves it out. */
export function readSentence(r: Reading, s: Sentence, index: number): void {
  if (r.exchanges.used.has(index) || r.unclear.has(index) || isSmallTalk(s.text)) return;
  if (s.question && s.role !== 'patient') return;
  if (r.clinician(s) && isNarration(s.text)) return;
  // A dependent clause left on its own ("'cause we need to...", "unless she feels differently") says nothing alone.
  if (DEPENDENT.test(s.text)) return;
  let kind = kindOf(s) ?? 'hpi';
  if (r.clinician(s) && introduces(s)) kind = 'hpi';
  // A result read out goes on in the next sentences of the turn ("I don't see any abnormality there").
  if (kind === 'exam' && r.resultsTurn === s.turn && !EXAM_REGIONS.some((e) => e.re.test(s.text))) kind = 'results';
  if (kind === 'results') r.resultsTurn = s.turn;
  const objective = kind === 'exam' || kind === 'results' || kind === 'vitals';
  const weight = informativeness(s.text) + (kind !== 'hpi' && s.role === 'doctor' ? 0.5 : 0);
  const said = r.clinician(s) ? followProblems(r, s, index, objective) : s.text;
  const base: Base = { weight, index, ...(r.planPhase && r.current !== undefined ? { problem: r.current } : {}) };
  if (r.clinician(s) && (r.planPhase || kind === 'plan' || kind === 'instructions' || kind === 'assessment')) return filePlan(r, s, kind, said, base, objective);
  // The patient's own account is the history: kept unless it says next to nothing; the budget
  // of each section then keeps the most informative. What says little is held in reserve for a
  // section that would otherwise be empty.
  const floor = s.role === 'patient' ? PATIENT_FLOOR : MIN_WEIGHT;
  const slight = weight < floor || contentWords(s.text).length < (s.role === 'patient' ? 3 : 2);
  if (r.clinician(s)) {
    if (slight) return;
    if (kind === 'exam' || kind === 'vitals' || kind === 'results') return fileObjective(r, s, kind, base);
    const intro = introduces(s);
    const text = toClinicianHistory(s.text, r.gender);
    if (!hasVerb(text)) return;
    return add(r, intro ? 'hpi' : kind, { ...base, text, weight: weight + (intro ? 20 : 0) });
  }
  fileAnswer(r, s, index, kind, base, slight);
}

/**
 * Follows the clinician into the assessment and plan and from problem to problem; gives what the
 * sentence says once the problem it opens is named ("Hypertension: continue lisinopril").
 */
function followProblems(r: Reading, s: Sentence, index: number, objective: boolean): string {
  let said = s.text;
  const opened = problemOpened(s.text);
  const startsPlan = opensAssessmentAndPlan(s.text) || (!objective && s.position > 0.5 && opened?.name !== undefined && isProblemName(opened.name));
  if (!r.planPhase && startsPlan) {
    r.planPhase = true;
    r.planStart = index;
  }
  if (r.planPhase) {
    if (opened && (!objective || opened.name === undefined || isProblemName(opened.name))) {
      r.problems.push(opened.name ?? '');
      r.current = r.problems.length - 1;
      said = opened.rest;
    }
    if (r.current !== undefined && !r.problems[r.current]) r.problems[r.current] = diagnosisIn(s.text) ?? '';
  }
  return said;
}

/** A clinician's sentence of the assessment and plan: orders and advice, or reasoning. */
function filePlan(r: Reading, s: Sentence, kind: SectionKind, said: string, base: Base, objective: boolean): void {
  const plans = clauses(said).map((clause) => ({ clause, plan: isNarration(clause) ? null : toPlanStatement(clause, r.gender) }));
  // In the plan, a test named with no order ("your A1c was 8") is still a result.
  if (objective && plans.every((p) => !p.plan)) return fileObjective(r, s, kind, base);
  for (const { clause, plan } of plans) {
    // A plan is kept whatever its length: "Weigh daily" is short but no small talk.
    if (plan) {
      const fact = planFact(plan.text);
      add(r, plan.act === 'advice' || plan.act === 'followup' ? 'instructions' : 'plan', { ...base, weight: Math.max(base.weight, MIN_WEIGHT + 1), text: plan.text, act: plan.act, ...(fact ? { fact } : {}) });
    }
    else if (plan === undefined && (kind === 'assessment' || r.planPhase) && informativeness(clause) >= -0.5 && !THIRD_PARTY.test(stripTalk(clause))) {
      add(r, 'assessment', { ...base, text: toAssessmentStatement(clause, r.gender), act: 'reasoning' });
    }
  }
}

/** A spoken exam finding, vital sign or result, filed by body system or test. */
function fileObjective(r: Reading, s: Sentence, kind: SectionKind, base: Base): void {
  if (kind === 'results') {
    const result = toResultStatement(s.text, r.gender);
    if (result) add(r, 'results', { ...base, text: result.text, ...(result.label ? { label: result.label } : {}) });
    return;
  }
  for (const e of toExamStatements(s.text, r.gender)) {
    const label = examLabel(e.region, e.text);
    const vital = label === 'Vitals' || kind === 'vitals';
    const fact = vital ? vitalFact(e.text) : undefined;
    add(r, vital ? 'vitals' : 'exam', { ...base, text: e.text, ...(label && !vital ? { label } : {}), ...(fact ? { fact } : {}) });
  }
}

/** The clinician's question a patient sentence answers (the last sentence of the turn before). */
function questionAnswered(sentences: Sentence[], index: number): Sentence | undefined {
  const s = sentences[index]!;
  for (let k = index - 1; k >= 0 && k >= index - 4; k--) {
    const p = sentences[k]!;
    if (p.turn === s.turn) continue;
    return p.turn === s.turn - 1 && p.question && p.role !== 'patient' ? p : undefined;
  }
  return undefined;
}

/** The patient's sentence (or another speaker's): history, filed where the question it answers points. */
function fileAnswer(r: Reading, s: Sentence, index: number, kind: SectionKind, base: Base, slight: boolean): void {
  // An answer belongs where its question points ("any diseases in your family?" "my brother has diabetes").
  const asked = questionAnswered(r.sentences, index);
  const askedKind = asked ? kindOf(asked) : undefined;
  let target: SectionKind = HISTORY_KINDS.has(kind) ? kind : 'hpi';
  if (target === 'hpi' && askedKind && askedKind !== 'hpi' && HISTORY_KINDS.has(askedKind)) target = askedKind;
  let text = s.role === 'patient' ? toPatientStatement(resolveDrug(s.text, asked?.text), r.gender) : polishSentence(stripTalk(s.text));
  if (!FRAGMENT_SUBJECT.test(s.text) && s.text.split(/\s+/).length < 15) {
    // A reply without a subject: the thing asked about ("What type of cancer?" "Skin cancer."), or a report.
    if (target !== 'hpi') {
      // A bare yes or no ("usually no") is no answer to write down as the thing asked about.
      if (answerPolarity(s.text) || informativeness(s.text) < 0.5) return hold(r, target, { ...base, text: polishSentence(stripTalk(s.text)) });
      text = polishSentence(stripTalk(s.text));
    }
    else if (informativeness(s.text) >= 2) text = polishSentence(`Reports ${text.charAt(0).toLowerCase()}${text.slice(1).replace(/\.$/, '')}`);
    else return hold(r, target, { ...base, text });
  }
  if (slight) return hold(r, target, { ...base, text });
  add(r, target, { ...base, text });
}

/**
 * "Are you taking the lisinopril?" "Yes, I take it every morning": the reply's "it" is the drug
 * the question named (only when the question names one drug and the reply none).
 */
function resolveDrug(reply: string, question: string | undefined): string {
  if (!question) return reply;
  const asked = drugsNamed(question);
  if (asked.length !== 1 || drugsNamed(reply).length > 0) return reply;
  const spoken = question.match(/\b[\p{L}-]+\b/gu)?.find((w) => drugsNamed(w).includes(asked[0]!)) ?? asked[0]!;
  return reply.replace(/\b(take|taking|took|use|using|used|on|started|stopped|tolerating|tolerate)\s+(it|that|them|those)\b/i, `$1 ${spoken}`);
}

/** A clinician's long turn split where a new intention starts ("..., and I want you to ..."), conditions kept whole. */
function clauses(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(/,?\s+(?:and|but|so|also|then)\s+(?=(?:i|we|you|let's|let me)\b)|,\s+(?=(?:i|we|let's|let me)\b)|;\s+/i)) {
    if (!piece.trim()) continue;
    const prev = out[out.length - 1];
    if (prev !== undefined && /^\W*(?:if|when|once|after|before|until|unless)\b/i.test(prev) && !prev.includes(',')) out[out.length - 1] = `${prev}, ${piece}`;
    else out.push(piece);
  }
  return out;
}

function sameFact(a: Fact, b: Fact): boolean {
  const key = (f: Fact): string => JSON.stringify({ ...f, complete: undefined, drug: 'drug' in f ? f.drug.toLowerCase() : undefined });
  return key(a) === key(b);
}

function isDuplicate(words: string[], seen: string[][]): boolean {
  const set = new Set(words);
  return seen.some((other) => {
    if (Math.min(set.size, other.length) < 4 && set.size !== other.length) return false;
    let shared = 0;
    for (const w of other) if (set.has(w)) shared++;
    return shared / Math.min(set.size, other.length) > 0.8 && Math.abs(set.size - other.length) < 4;
  });
}
