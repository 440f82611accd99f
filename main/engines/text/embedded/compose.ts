/**
 * From transcript to note content: parse, read questions with their answers, route each sentence
 * to its section, and rewrite it in clinical register (history in the third person, the spoken
 * exam as findings by body system, results by test, the plan as orders, counselling and
 * follow-up grouped by the problem they treat). Rendering (headings, order, limits, language)
 * is separate, so every note type shares one reading of the encounter.
 */
import type { NoteLanguage } from '../../../../shared/languages.js';
import { parseTurns, toSentences, type Sentence } from './transcript.js';
import { contentWords, informativeness, isSmallTalk, kindOf } from './classify.js';
import { detectGender } from './rewrite.js';
import { polishSentence } from './clean.js';
import { writeNumbers } from '../../../services/clinical-language/normalise.js';
import { readExchanges } from './dialogue.js';
import { currentMedications, drugsNamed } from './medication-facts.js';
import { chiefComplaint, reviewOfSystems, statedSymptoms } from './findings.js';
import { emptyContent, KINDS, type Encounter, type NoteContent } from './content.js';
import { add, readSentence, type Reading } from './read-sentence.js';

export { emptyContent, type ContentItem, type Encounter, type LineAct, type NoteContent } from './content.js';

/** True when the text reads as English (most transcripts); other languages are not rewritten. */
export function looksEnglish(text: string): boolean {
  const sample = text.slice(0, 4000).toLowerCase();
  const words = sample.match(/\p{L}+/gu) ?? [];
  if (words.length === 0) return false;
  const en = words.filter((w) => /^(the|and|you|i|to|a|of|is|it|that|have|for|my|your|with|in|this|on|do|was|what|are|be|not|any|so)$/.test(w)).length;
  return en / words.length > 0.12;
}

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
  // A dictation (no speaker tags) is the clinician speaking throughout.
  const dictation = turns.every((t) => t.speaker === '');
  const r: Reading = {
    sentences, unclear, content, gender, exchanges: readExchanges(sentences, gender),
    clinician: (s) => s.role === 'doctor' || (dictation && s.role !== 'patient'),
    problems: [], current: undefined, planPhase: false, planStart: sentences.length, resultsTurn: -1, seen: [], reserve: [],
  };
  sentences.forEach((s, index) => readSentence(r, s, index));
  addSpokenMedications(r, listed);
  for (const kind of KINDS) {
    if (content[kind].length > 0) continue;
    for (const held of r.reserve.filter((x) => x.kind === kind).slice(0, 3)) add(r, kind, held.item);
  }
  for (const st of r.exchanges.statements) {
    const s = sentences[st.index]!;
    const kind = kindOf({ ...s, text: st.text, role: 'patient' }) ?? 'hpi';
    // Written from a question and its answer, so short is fine ("This has been going on for 5 weeks").
    add(r, kind === 'plan' || kind === 'assessment' ? 'hpi' : kind, { text: st.text, weight: informativeness(st.text) + 1, index: st.index }, 1);
  }
  for (const k of KINDS) content[k].sort((a, b) => a.index - b.index);
  finishSections(r);
  return { content, problems: r.problems.map((p) => p.trim()), gender, english };
}

/** Every drug said with its dose is on the medication list, unless a line already gives it. */
function addSpokenMedications(r: Reading, listed: readonly string[]): void {
  for (const { fact, index } of currentMedications(r.sentences, r.planStart, listed)) {
    const line = r.content.medications.find((i) => !i.fact && drugsNamed(i.text, listed).includes(fact.generic) && /\d/.test(i.text));
    // A line that already gives the drug carries the fact, so another language can write it.
    if (line) line.fact = { ...fact, complete: false };
    else r.content.medications.push({ text: '', fact, weight: 6, index });
  }
}

/** The sections read from the whole encounter: review of systems, chief complaint, one follow-up, agreement. */
function finishSections(r: Reading): void {
  const { content, exchanges, sentences } = r;
  const ros = reviewOfSystems([...exchanges.findings, ...statedSymptoms(sentences)]);
  content.ros = ros.map((x) => ({ text: '', fact: x.fact, label: x.fact.system, weight: 5 + x.count, index: x.index }));
  const cc = chiefComplaint(sentences) ?? (r.problems[0] ? `${r.problems[0]}.` : undefined);
  if (cc) content.chief_complaint.push({ text: cc, weight: 100, index: 0 });
  // One follow-up: the last said is the one agreed.
  const follow = content.instructions.filter((i) => i.act === 'followup');
  content.instructions = content.instructions.filter((i) => i.act !== 'followup' || i === follow[follow.length - 1]);
  if (exchanges.agreement) content.instructions.push({ text: '', fact: { type: 'agreement' }, weight: 3, index: Number.MAX_SAFE_INTEGER - 3, act: 'advice' });
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
