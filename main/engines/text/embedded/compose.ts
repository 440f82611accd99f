/**
 * From transcript to note content: parse, read questions with their answers, route each sentence
 * to its section, and rewrite it in clinical register (history in the third person, the spoken
 * exam as findings by body system, results by test, the plan as orders, counselling and
 * follow-up grouped by the problem they treat). Rendering (headings, order, limits, language)
 * is separate, so every note type shares one reading of the encounter.
 */
import type { NoteLanguage } from '../../../../shared/languages.js';
import { parseTurns, toSentences, type Sentence } from './transcript.js';
import { contentWords, informativeness, isSmallTalk, kindOf, MIN_WEIGHT } from './classify.js';
import { detectGender, type Gender } from './rewrite.js';
import { polishSentence } from './clean.js';
import { writeNumbers } from '../../../services/clinical-language/normalise.js';
import { readsAsConversation } from '../../../services/clinical-language/conversation.js';
import { EXAM_REGIONS } from '../../../services/clinical-language/lexicon.js';
import type { SectionKind } from './sections.js';
import { readExchanges } from './dialogue.js';
import { answerPolarity } from '../../../services/clinical-language/context.js';
import { currentMedications, drugsNamed } from './medication-facts.js';
import { planFact, vitalFact, type Fact } from './facts.js';
import { chiefComplaint, reviewOfSystems, statedSymptoms } from './findings.js';
import { diagnosisIn, isProblemName, opensAssessmentAndPlan, problemOpened } from './problems.js';
import {
  hasVerb, isNarration, keepWritten, stripTalk, toAssessmentStatement, toClinicianHistory, toExamStatements, toPatientStatement, toPlanStatement, toResultStatement,
  type PlanAct,
} from './register.js';

/** What a line of the assessment and plan is: the clinician's reasoning or one kind of plan. */
export type LineAct = PlanAct | 'reasoning';

export interface ContentItem {
  text: string;
  /** Higher is more informative; used when a section must be shortened. */
  weight: number;
  /** Order in the transcript, so shortened sections keep the conversation's order. */
  index: number;
  /** A body-system or topic label ("Respiratory", "Chest x-ray"), as an English key. */
  label?: string;
  /** The problem of the assessment and plan this line belongs to (index into `problems`). */
  problem?: number;
  act?: LineAct;
  /** A structured finding the renderer writes in the note's language. */
  fact?: Fact;
  /** Text taken from the caller (context, previous note), shown as given. */
  caller?: boolean;
}

export type NoteContent = Record<SectionKind, ContentItem[]>;

/** The encounter as the writer read it. */
export interface Encounter {
  content: NoteContent;
  /** Problem names of the assessment and plan, in the order the clinician took them. */
  problems: string[];
  gender: Gender;
  english: boolean;
}

const KINDS: SectionKind[] = ['chief_complaint', 'hpi', 'ros', 'pmh', 'surgical', 'medications', 'allergies', 'social', 'family', 'vitals', 'exam', 'results', 'assessment', 'plan', 'instructions'];

/** An empty content table. */
export function emptyContent(): NoteContent {
  return Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as NoteContent;
}

/** True when the text reads as English (most transcripts); other languages are not rewritten. */
export function looksEnglish(text: string): boolean {
  const sample = text.slice(0, 4000).toLowerCase();
  const words = sample.match(/\p{L}+/gu) ?? [];
  if (words.length === 0) return false;
  const en = words.filter((w) => /^(the|and|you|i|to|a|of|is|it|that|have|for|my|your|with|in|this|on|do|was|what|are|be|not|any|so)$/.test(w)).length;
  return en / words.length > 0.12;
}

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

/** Build the note content from a transcript. */
export function composeContent(transcript: string, _language: NoteLanguage, listed: readonly string[] = []): Encounter {
  const turns = parseTurns(transcript);
  // Numbers as digits before classification, so "one twenty over eighty" reads as a vital sign.
  // A number that cannot be read with certainty ("three out of six six") is never written as a
  // guess: the sentence it is in stays out of the note.
  const unclear = new Set<number>();
  const sentences = toSentences(turns).map((s, i) => {
    const written = writeNumbers(s.text);
    if (written.uncertain.length > 0) unclear.add(i);
    return { ...s, text: written.text };
  });
  const english = looksEnglish(transcript);
  const content = emptyContent();
  if (!english) return { content: verbatim(sentences, content), problems: [], gender: 'unknown', english };
  const gender = detectGender(sentences.filter((s) => s.role !== 'patient').map((s) => s.text).join(' '));
  const exchanges = readExchanges(sentences, gender);
  // A dictation (no speaker tags) is the clinician speaking throughout.
  const dictation = turns.every((t) => t.speaker === '');
  const clinician = (s: Sentence): boolean => s.role === 'doctor' || (dictation && s.role !== 'patient');
  const problems: string[] = [];
  let current: number | undefined;
  let planPhase = false;
  const seen: string[][] = [];
  const add = (kind: SectionKind, item: ContentItem, minWords = 2): void => {
    const text = keepWritten(item.text, readsAsConversation);
    if (!text) return;
    const words = contentWords(text);
    if (words.length < minWords || isDuplicate(words, seen)) return;
    // The same order said twice ("order another echocardiogram", then "order an echocardiogram") is one.
    if (item.fact && content[kind].some((o) => o.problem === item.problem && o.fact && sameFact(o.fact, item.fact!))) return;
    seen.push(words);
    content[kind].push({ ...item, text });
  };

  let resultsTurn = -1;
  let planStart = sentences.length;
  const reserve: { kind: SectionKind; item: ContentItem }[] = [];
  const hold = (kind: SectionKind, item: ContentItem): void => {
    if (contentWords(item.text).length >= 1) reserve.push({ kind, item });
  };
  /** The clinician's question a patient sentence answers (the last sentence of the turn before). */
  const questionAnswered = (index: number): Sentence | undefined => {
    const s = sentences[index]!;
    for (let k = index - 1; k >= 0 && k >= index - 4; k--) {
      const p = sentences[k]!;
      if (p.turn === s.turn) continue;
      return p.turn === s.turn - 1 && p.question && p.role !== 'patient' ? p : undefined;
    }
    return undefined;
  };
  sentences.forEach((s, index) => {
    if (exchanges.used.has(index) || unclear.has(index) || isSmallTalk(s.text)) return;
    if (s.question && s.role !== 'patient') return;
    if (clinician(s) && isNarration(s.text)) return;
    // A dependent clause left on its own ("'cause we need to...", "unless she feels differently") says nothing alone.
    if (DEPENDENT.test(s.text)) return;
    let kind = kindOf(s) ?? 'hpi';
    if (clinician(s) && INTRO.test(s.text) && /\b(old|presents?|here for|referred)\b/i.test(s.text) && s.position < 0.25) kind = 'hpi';
    // A result read out goes on in the next sentences of the turn ("I don't see any abnormality there").
    if (kind === 'exam' && resultsTurn === s.turn && !EXAM_REGIONS.some((e) => e.re.test(s.text))) kind = 'results';
    if (kind === 'results') resultsTurn = s.turn;
    const objective = kind === 'exam' || kind === 'results' || kind === 'vitals';
    const weight = informativeness(s.text) + (kind !== 'hpi' && s.role === 'doctor' ? 0.5 : 0);
    let said = s.text;
    if (clinician(s)) {
      const opened = problemOpened(s.text);
      const startsPlan = opensAssessmentAndPlan(s.text) || (!objective && s.position > 0.5 && opened?.name !== undefined && isProblemName(opened.name));
      if (!planPhase && startsPlan) {
        planPhase = true;
        planStart = index;
      }
      if (planPhase) {
        if (opened && (!objective || opened.name === undefined || isProblemName(opened.name))) {
          problems.push(opened.name ?? '');
          current = problems.length - 1;
          said = opened.rest;
        }
        if (current !== undefined && !problems[current]) problems[current] = diagnosisIn(s.text) ?? '';
      }
    }
    const base = { weight, index, ...(planPhase && current !== undefined ? { problem: current } : {}) };
    if (clinician(s) && (planPhase || kind === 'plan' || kind === 'instructions' || kind === 'assessment')) {
      const plans = clauses(said).map((clause) => ({ clause, plan: isNarration(clause) ? null : toPlanStatement(clause, gender) }));
      // In the plan, a test named with no order ("your A1c was 8") is still a result.
      if (objective && plans.every((p) => !p.plan)) return fileObjective(s, kind, base);
      for (const { clause, plan } of plans) {
        // A plan is kept whatever its length: "Weigh daily" is short but no small talk.
        if (plan) {
          const fact = planFact(plan.text);
          add(plan.act === 'advice' || plan.act === 'followup' ? 'instructions' : 'plan', { ...base, weight: Math.max(weight, MIN_WEIGHT + 1), text: plan.text, act: plan.act, ...(fact ? { fact } : {}) });
        }
        else if (plan === undefined && (kind === 'assessment' || planPhase) && informativeness(clause) >= -0.5 && !THIRD_PARTY.test(stripTalk(clause))) {
          add('assessment', { ...base, text: toAssessmentStatement(clause, gender), act: 'reasoning' });
        }
      }
      return;
    }
    // The patient's own account is the history: kept unless it says next to nothing; the budget
    // of each section then keeps the most informative. What says little is held in reserve for a
    // section that would otherwise be empty.
    const floor = s.role === 'patient' ? PATIENT_FLOOR : MIN_WEIGHT;
    const slight = weight < floor || contentWords(s.text).length < (s.role === 'patient' ? 3 : 2);
    if (clinician(s)) {
      if (slight) return;
      if (kind === 'exam' || kind === 'vitals' || kind === 'results') return fileObjective(s, kind, base);
      const intro = INTRO.test(s.text) && /\b(old|presents?|here for|referred)\b/i.test(s.text) && s.position < 0.25;
      const text = toClinicianHistory(s.text, gender);
      if (!hasVerb(text)) return;
      return add(intro ? 'hpi' : kind, { ...base, text, weight: weight + (intro ? 20 : 0) });
    }
    // An answer belongs where its question points ("any diseases in your family?" "my brother has diabetes").
    const asked = questionAnswered(index);
    const askedKind = asked ? kindOf(asked) : undefined;
    let target: SectionKind = HISTORY_KINDS.has(kind) ? kind : 'hpi';
    if (target === 'hpi' && askedKind && askedKind !== 'hpi' && HISTORY_KINDS.has(askedKind)) target = askedKind;
    let text = s.role === 'patient' ? toPatientStatement(resolveDrug(s.text, asked?.text), gender) : polishSentence(stripTalk(s.text));
    if (!FRAGMENT_SUBJECT.test(s.text) && s.text.split(/\s+/).length < 15) {
      // A reply without a subject: the thing asked about ("What type of cancer?" "Skin cancer."), or a report.
      if (target !== 'hpi') {
        // A bare yes or no ("usually no") is no answer to write down as the thing asked about.
        if (answerPolarity(s.text) || informativeness(s.text) < 0.5) return hold(target, { ...base, text: polishSentence(stripTalk(s.text)) });
        text = polishSentence(stripTalk(s.text));
      }
      else if (informativeness(s.text) >= 2) text = polishSentence(`Reports ${text.charAt(0).toLowerCase()}${text.slice(1).replace(/\.$/, '')}`);
      else return hold(target, { ...base, text });
    }
    if (slight) return hold(target, { ...base, text });
    add(target, { ...base, text });
  });

  // Every drug said with its dose is on the medication list, unless a line already gives it.
  for (const { fact, index } of currentMedications(sentences, planStart, listed)) {
    const line = content.medications.find((i) => !i.fact && drugsNamed(i.text, listed).includes(fact.generic) && /\d/.test(i.text));
    // A line that already gives the drug carries the fact, so another language can write it.
    if (line) line.fact = { ...fact, complete: false };
    else content.medications.push({ text: '', fact, weight: 6, index });
  }
  for (const kind of KINDS) {
    if (content[kind].length > 0) continue;
    for (const r of reserve.filter((x) => x.kind === kind).slice(0, 3)) add(kind, r.item);
  }

  function fileObjective(s: Sentence, kind: SectionKind, base: { weight: number; index: number }): void {
    if (kind === 'results') {
      const r = toResultStatement(s.text, gender);
      if (r) add('results', { ...base, text: r.text, ...(r.label ? { label: r.label } : {}) });
      return;
    }
    for (const e of toExamStatements(s.text, gender)) {
      const label = examLabel(e.region, e.text);
      const vital = label === 'Vitals' || kind === 'vitals';
      const fact = vital ? vitalFact(e.text) : undefined;
      add(vital ? 'vitals' : 'exam', { ...base, text: e.text, ...(label && !vital ? { label } : {}), ...(fact ? { fact } : {}) });
    }
  }

  for (const st of exchanges.statements) {
    const s = sentences[st.index]!;
    const kind = kindOf({ ...s, text: st.text, role: 'patient' }) ?? 'hpi';
    // Written from a question and its answer, so short is fine ("This has been going on for 5 weeks").
    add(kind === 'plan' || kind === 'assessment' ? 'hpi' : kind, { text: st.text, weight: informativeness(st.text) + 1, index: st.index }, 1);
  }
  for (const k of KINDS) content[k].sort((a, b) => a.index - b.index);
  const ros = reviewOfSystems([...exchanges.findings, ...statedSymptoms(sentences)]);
  content.ros = ros.map((r) => ({ text: '', fact: r.fact, label: r.fact.system, weight: 5 + r.count, index: r.index }));
  const cc = chiefComplaint(sentences) ?? (problems[0] ? `${problems[0]}.` : undefined);
  if (cc) content.chief_complaint.push({ text: cc, weight: 100, index: 0 });
  // One follow-up: the last said is the one agreed.
  const follow = content.instructions.filter((i) => i.act === 'followup');
  content.instructions = content.instructions.filter((i) => i.act !== 'followup' || i === follow[follow.length - 1]);
  if (exchanges.agreement) content.instructions.push({ text: '', fact: { type: 'agreement' }, weight: 3, index: Number.MAX_SAFE_INTEGER - 3, act: 'advice' });
  return { content, problems: problems.map((p) => p.trim()), gender, english };
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

/** A transcript the rules cannot rewrite (not English): its sentences, routed but as said. */
function verbatim(sentences: Sentence[], content: NoteContent): NoteContent {
  sentences.forEach((s, index) => {
    if (isSmallTalk(s.text) || (s.question && s.role !== 'patient')) return;
    const weight = informativeness(s.text);
    if (contentWords(s.text).length < 2) return;
    content[kindOf(s) ?? 'hpi'].push({ text: polishSentence(s.text), weight, index });
  });
  return content;
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
