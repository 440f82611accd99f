/**
 * The transcript as a list of things said: each sentence with its speaker, whether it asks,
 * the question it answers, its phase of the visit (history, exam, assessment and plan), numbers
 * written as digits, and its offsets in the transcript as given. Talk about the visit (small
 * talk, dictation commands, narration) is marked, not deleted, so what was dropped can be shown.
 */
import { writeNumbers } from '../clinical-language/normalise.js';
import { parseTurns, toSentences, type Role, type Turn } from './transcript.js';
import { isDictationCommand, isNarration, isSmallTalk, stripTalk } from './talk.js';
import type { Evidence, Speaker, Utterance } from './types.js';

export type Phase = 'history' | 'exam' | 'plan';

export interface Said {
  /** Index in the list. */
  i: number;
  /** The sentence as cleaned, numbers in digits, openers and tag questions removed. */
  text: string;
  /** The sentence as cleaned, openers kept: a reply's "yes" or "no" is read from it. */
  spoken: string;
  speaker: Speaker;
  turn: number;
  question: boolean;
  phase: Phase;
  start: number;
  end: number;
  /** Why the sentence is talk about the visit, when it is. */
  talk?: 'small talk' | 'dictation command' | 'narration';
  /** The clinician's question this sentence answers (index), when it opens the patient's reply. */
  answers?: number;
  /** The reply to this question (index of the reply's first sentence). */
  reply?: number;
  /** A spoken number could not be read with certainty: no value from this sentence is written. */
  unclearNumber?: boolean;
}

const speakerOf = (role: Role, dictation: boolean): Speaker =>
  role === 'doctor' ? 'clinician' : role === 'patient' ? 'patient' : role === 'other' ? 'other' : dictation ? 'clinician' : 'unknown';

/** The clinician turning to the exam: said in so many words, or a manoeuvre of the exam announced. Read anywhere in the
 * visit (an exam said after the plan began is still an exam); EXAM_START adds the cues that open the exam phase only. */
export const EXAM_OPENER = /\b(?:on|upon) (?:your |the |his |her )?(?:[a-z]+ )?exam(?:ination)?\b|\bexam(?:ination)?s? (?:shows?|showed|reveals?|revealed|of)\b|\b(?:listen to|take a listen to) (?:your |his |her |the )?(?:heart|lungs|chest)\b|\b(?:do|perform) (?:a |an |your )?(?:quick |brief )?(?:physical )?exam\b|\bexamine (?:you|him|her)\b/i;
/** "The ER doctor's exam showed ...": someone else's exam, another day, is no exam of this visit. */
export const OTHER_EXAM = /^(?!.*\b(?:today|now|i'm going to|i am going to|let me|let's|i'll|i will)\b).*\b(?:doctor's|doctors'|er's|their|they|urgent care|emergency (?:room|department)|er|hospital|last (?:time|visit|week|month)|previous|prior)\b[^.]{0,30}\bexam/i;
const EXAM_PHASE_CUES =
  /\b(?:physical exam(?:ination)?|(?:do|perform) (?:a |an |your |the |my )?(?:quick |brief |full |physical )?exam(?:ination)?|examine you|on (?:physical )?exam(?:ination)?|exam(?:ination)? (?:of|shows|reveals|today)|take a (?:quick )?(?:look|listen)|take a (?:good |close )look at you\b|(?:check|look) (?:your|his|her|the) (?:finger|hand|wrist|elbow|arm|shoulder|neck|back|knee|leg|ankle|foot|feet|toe|hip|skin|rash|throat|ears?|eyes?|chest|belly|abdomen|heart|lungs|wound|incision|mouth|nose) out|let(?:'s| me) (?:go ahead and )?(?:check|examine|look at|feel) (?:your|his|her|the) (?:finger|hand|wrist|elbow|arm|shoulder|neck|back|knee|leg|ankle|foot|feet|toe|hip|skin|rash|throat|ears?|eyes?|chest|belly|abdomen|heart|lungs|wound|incision|mouth|nose)s?\b|listen to your (?:heart|lungs|chest)|(?:vital signs|vitals) (?:today|look|are|were|show)|your (?:lungs|heart|abdomen) (?:sound|are|is)|on (?:your |the |his |her )?[a-z]+ exam(?:ination)?|(?:the |your )?(?:lungs?|heart|abdomen|belly) (?:have|has|sound|sounds|are|is|show|shows)|your (?:temperature|blood pressure|heart rate|pulse|oxygen saturation|oxygen|weight) (?:is|was|today))\b|^exam\b/i;
const EXAM_START = new RegExp(`${EXAM_OPENER.source}|${EXAM_PHASE_CUES.source}`, 'i');
const PLAN_START =
  /\b(?:my |the )?assessment and (?:my )?plan\b|\b(?:my |our )?(?:impression|assessment)\b|\b(?:first|1st) (?:problem|issue)\b|\btalk about (?:my|the|our) (?:assessment|plan|impression)\b|\bwhat we(?:'re| are) going to do\b|\bi(?:'d| would) like to (?:start|begin|try|put you on)\b|\bwe(?:'ll| will) (?:start|begin) (?:you on|with)\b|\bwe(?:'ll| will|'re going to| are going to) (?:stop|continue|increase|decrease|taper|switch)\b|\bi (?:would|'d) (?:recommend|suggest|try)\b|\bfor (?:your|the) (?:first|main) (?:problem|issue|concern)\b|^plan\b|^(?:so |now |okay )*(?:for|regarding|in terms of|as far as|as for|with regards? to) (?:your|his|her|the) [a-z ]{3,40}(?:,|$)/i;

// Said after the exam has begun, weighing causes and options opens the assessment ("other potential causes could be
// anxiety", "we could do an EGD", "let's continue on your current meds"); said in the history they are questions' lead-ins.
const PLAN_AFTER_EXAM = /\b(?:other )?(?:potential|possible) (?:causes?|diagnos[ie]s|etiolog\w+) (?:could|would|might|may|include|are|is)\b|\bwe could (?:do|try|start|order|get|consider|schedule|refer)\b|\b(?:the|another|one) (?:other )?option (?:is|would be)\b|\blet's (?:continue|keep you on|stop|increase|decrease|taper)\b/i;

// A diagnosis said after the exam opens the assessment ("I think this is acute bronchitis").
// What "you have" says in an exam rather than a diagnosis: "you have a decent range of motion", "some swelling".
const EXAM_WORDS = String.raw`(?:an? |some )?(?:(?:little|bit|small|mild|good|full|normal|positive|negative|decreased|limited|some|no|any|once|to|been|had|got|questions|pain|tender\w*|swell\w*|decent|great|excellent|nice|range|reduced|slight|trace|limp|edema|bruis\w*|ecchymosis|effusion|crepitus|laxity|weakness|numbness)\b)`;
const DIAGNOSIS_SAID = new RegExp(String.raw`\b(?:(?:x-?rays?|mri|ct(?: scan)?|ultrasound|imaging|biopsy) (?:shows?|showed|reveals?|revealed|confirms?|confirmed) (?:that (?:you have )?)?(?:an? |some )?(?:[a-z-]+ ){0,3}(?:[a-z]+(?:itis|osis|oma)|fracture|tear|herniation|stenosis|thrombosis|stones?|mass|infection|pneumonia)|i think (?:this|it|you(?!(?:'re| are) doing))|this is (?:most likely|likely|probably)?|you have (?!${EXAM_WORDS})(?:an? )?|consistent with|my (?:diagnosis|impression)|(?:diagnosis|impression) (?:here |today )?(?:is|would be|will be)|sounds like you have (?!${EXAM_WORDS})|looks like you have (?!${EXAM_WORDS})|what (?:i think )?(?:we're|we are|you're|you are) dealing with|what (?:i|we)(?:'m| am|'re| are)?(?: can)? (?:see|seeing|found|finding|noticed?|noticing)(?: [^,.;?]{0,40}?)? is)\b`, 'i');

// "On your back exam, you have a positive straight leg raise": an exam finding said with "you have" is no diagnosis.
const EXAM_SAID = /\b(?:on|upon) (?:(?:your|the|his|her) )?(?:[a-z]+ )?exam(?:ination)?\b/i;

/** Read the transcript into sentences, each with its speaker, phase and offsets. */
export function readSaid(transcript: string): { said: Said[]; utterances: Utterance[]; turns: Turn[]; dictation: boolean } {
  const turns = parseTurns(transcript);
  const dictation = turns.every((t) => t.speaker === '');
  const sentences = toSentences(turns, transcript);
  const said: Said[] = sentences.map((s, i) => {
    const written = writeNumbers(s.text);
    const speaker = speakerOf(s.role, dictation);
    const text = stripTalk(written.text) || written.text;
    const out: Said = { i, text, spoken: written.text, speaker, turn: s.turn, question: s.question, phase: 'history', start: s.start, end: s.end };
    if (written.uncertain.length > 0) out.unclearNumber = true;
    if (isDictationCommand(s.text)) out.talk = 'dictation command';
    else if (isSmallTalk(s.text) || isSmallTalk(text)) out.talk = 'small talk';
    else if (speaker !== 'patient' && isNarration(s.text)) out.talk = 'narration';
    return out;
  });
  markPhases(said);
  linkAnswers(said);
  const utterances = turns.map((t) => ({ speaker: speakerOf(t.role, dictation), label: t.speaker, start: t.start, end: t.end }));
  return { said, utterances, turns, dictation };
}

function markPhases(said: Said[]): void {
  const n = said.length;
  const clinician = (s: Said): boolean => s.speaker === 'clinician' && !s.talk;
  let exam = said.findIndex((s) => s.speaker === 'clinician' && (s.i / Math.max(1, n) > 0.15 || /^exam\b/i.test(s.text)) && EXAM_START.test(s.text) && !OTHER_EXAM.test(s.text));
  // "Let's talk about my assessment and plan" is narration, and the clearest cue there is.
  const strong = /\bassessment and (?:my )?plan\b|\bmy (?:assessment|impression)\b|^plan\b|^(?:assessment|impression|diagnos[ie]s)\s*:/i;
  let plan = said.findIndex((s) => s.speaker === 'clinician' && (s.i / Math.max(1, n) > 0.3 || strong.test(s.text)) && (exam < 0 || s.i > exam) && (strong.test(s.text) || (clinician(s) && !/\?\s*$/.test(s.text) && (PLAN_START.test(s.text) || (exam >= 0 && PLAN_AFTER_EXAM.test(s.text)) || ((exam >= 0 || s.i / Math.max(1, n) > 0.5) && DIAGNOSIS_SAID.test(s.text) && !EXAM_SAID.test(s.text))))));
  // A visit that never announces its plan still gives one: after the exam, in the second half of the visit, the first
  // clinician sentence that orders, continues, or sets the next visit opens it ("keep doing that twice a day",
  // "let's take a look in 6 months").
  if (plan < 0) plan = said.findIndex((s) => clinician(s) && !s.question && s.i / Math.max(1, n) > 0.5 && (exam < 0 || s.i > exam) && PLAN_UNANNOUNCED.test(s.text));
  if (plan < 0) plan = n;
  if (exam < 0 || exam > plan) exam = plan;
  for (const s of said) s.phase = s.i >= plan ? 'plan' : s.i >= exam ? 'exam' : 'history';
}

const PLAN_UNANNOUNCED = /\b(?:keep (?:doing|using|taking) (?:that|it|the|your)|you can (?:keep|continue) (?:using|taking|doing)|let's (?:wait|take a look in|get you|plan on|keep you on|start you on)|(?:come back|see you back|follow up|revisit|recheck) in \d+|i(?:'m| am) going to (?:order|refer|prescribe|start you|send you|put you on)|we(?:'ll| will) (?:order|start you|refer|send you|schedule))\b/i;

/** A patient's reply opens right after a clinician's question in the turn before. */
function linkAnswers(said: Said[]): void {
  for (const s of said) {
    if (s.speaker === 'clinician' || s.i === 0) continue;
    const prev = said[s.i - 1]!;
    if (prev.turn === s.turn || prev.speaker !== 'clinician') continue;
    // The question is the last question of the clinician's turn.
    for (let k = s.i - 1; k >= 0 && said[k]!.turn === prev.turn; k--) {
      if (said[k]!.question) {
        s.answers = k;
        said[k]!.reply = s.i;
        break;
      }
    }
  }
}

/** Evidence of one or more sentences. */
export function evidenceOf(...sentences: (Said | undefined)[]): Evidence[] {
  return sentences.filter((s): s is Said => s !== undefined).map((s) => ({ start: s.start, end: s.end, speaker: s.speaker }));
}
