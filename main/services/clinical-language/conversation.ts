/**
 * Does a sentence of a note still read as conversation? A general detector of spoken register:
 * questions, second person ("your lungs are clear"), first person in the patient's or the
 * talking clinician's voice ("I feel", "let me take a listen"), fillers and greetings ("um",
 * "okay so", "hi"), hedges of speech ("I want to go ahead and", "you know") and contractions.
 * The signing clinician's documentation voice is not conversation: "I advised her to...", "We
 * will order...", "She will contact me" are how clinicians write (ACI-Bench reference notes use
 * them), so they pass. English rules, plus question marks in every language. Shared by the
 * embedded writer (which drops or rewrites what reads as talk) and the notes evaluation.
 */

/** Why a sentence reads as conversation. */
export type ConversationCue =
  | 'question'
  | 'second-person'
  | 'first-person'
  | 'filler'
  | 'greeting'
  | 'hedge'
  | 'contraction'
  | 'device-command';

const QUESTION_MARK = /[?？]\s*["”’')\]]*\s*$/;
// A question whose mark the recogniser dropped: an auxiliary then a pronoun opens the sentence.
const QUESTION_OPENING = /^(?:(?:so|and|but|okay|ok|now|well)[\s,]+)?(?:do|does|did|are|is|was|were|have|has|can|could|would|will|should|any)\s+(?:you|i|we|y'all|ya|he|she|they|the patient)\s+(?:\w+\s+){0,3}?(?:have|has|had|take|taking|feel|feeling|get|getting|notice|noticed|see|know|think|want|need|use|using|go|been|ever|any|still|smoke|drink)\b/i;
const WH_QUESTION = /^(?:(?:so|and|but|okay|ok|now|well)[\s,]+)?(?:how|what|when|where|why|which|who)\b[^.]*\b(?:you|your|i|we)\b/i;
const SECOND_PERSON = /\b(?:you|your|yours|yourself|yourselves|y'all|ya)\b|\byou['’](?:re|ve|ll|d)\b/i;
// Verbs with which the signing clinician documents in the first person.
const DOCUMENTING =
  'advised|advise|recommended|recommend|discussed|discuss|explained|explain|encouraged|encourage|reviewed|review|counseled|counselled|counsel|' +
  'provided|reassured|prescribed|prescribe|ordered|order|referred|refer|suspect|suspected|believe|instructed|informed|examined|performed|' +
  'spent|obtained|educated|emphasized|stressed|agree|agreed|answered|spoke|placed|started|increased|decreased|requested|administered|' +
  'injected|discontinued|stopped|continued|noted|palpated|auscultated|saw|last saw|printed|suggested|applaud|appreciate|denied|' +
  'am concerned|am going to|had a (?:lengthy |long |detailed )?discussion|will|would';
// "The patient and I", "since I last saw": the clinician as a party to the visit, written.
const FIRST_PERSON_I = /(?<!\band )\bI\b(?!['’])/g;
const DOCUMENTING_I = new RegExp(`^\\s*(?:(?:have|had|also|then|personally|independently|did not|do not|have not)\\s+){0,3}(?:${DOCUMENTING})\\b`, 'i');
const PATIENT_VOICE = /\b(?:my|mine|myself)\b(?! office)|\bI['’](?:m|ve|d|ll)\b/i;
const LETS = /\blet['’]?s\b|\blet me\b/i;
const FILLER = /\b(?:um+|uh+|uhm|erm|hmm+|mm+-?hmm+|mhm|uh-huh|huh|kinda|sorta|gonna|wanna|gotta|yeah|yep|yup|nope|y'know)\b|\byou know\b|\bi mean\b/i;
const DISCOURSE_EDGE = /^(?:okay|ok|alright|all right|so|well|oh|now|right|yes|no|great|good|perfect|awesome|wonderful)\s*[,.!]|[,]\s*(?:okay|ok|alright|all right|right)\s*[.?!]?\s*$/i;
const GREETING = /^(?:hi|hello|hey|good (?:morning|afternoon|evening)|thanks?|thank you|bye|goodbye|nice to (?:meet|see)|how are you|take care|welcome|you're welcome)\b/i;
const HEDGE = /\bgo ahead and\b|\bkind of\b|\bsort of\b|\bi think\b|\bi guess\b|\bi feel like\b|\bi want to\b|\bi'?d like to\b|\bi would like to\b|\bi'?m going to\b|\bjust going to\b|\btake a (?:quick )?(?:look|listen)\b/i;
const CONTRACTION = /\b\w+n['’]t\b|\b(?:it|that|there|what|he|she|who|here)['’]s\b|\b\w+['’](?:re|ve|ll|m)\b/i;
const DEVICE = /\b(?:hey,? (?:dragon|dax|computer)|dragon|dax)\b|\bshow me the\b|\bfinali[sz]e the note\b/i;

/**
 * Every reason `sentence` reads as conversation rather than a clinical statement; empty for a
 * clinical statement. `sentence` is one sentence of a note, without its list marker or label.
 */
export function conversationCues(sentence: string): ConversationCue[] {
  const s = sentence.trim();
  const cues = new Set<ConversationCue>();
  if (!s) return [];
  if (QUESTION_MARK.test(s) || QUESTION_OPENING.test(s) || (WH_QUESTION.test(s) && s.split(/\s+/).length < 16)) cues.add('question');
  if (SECOND_PERSON.test(s)) cues.add('second-person');
  if (PATIENT_VOICE.test(s) || LETS.test(s)) cues.add('first-person');
  else {
    for (const m of s.matchAll(FIRST_PERSON_I)) {
      if (!DOCUMENTING_I.test(s.slice(m.index + 1))) {
        cues.add('first-person');
        break;
      }
    }
  }
  if (FILLER.test(s) || DISCOURSE_EDGE.test(s)) cues.add('filler');
  if (GREETING.test(s)) cues.add('greeting');
  if (HEDGE.test(s)) cues.add('hedge');
  if (CONTRACTION.test(s)) cues.add('contraction');
  if (DEVICE.test(s)) cues.add('device-command');
  return [...cues];
}

/** True when `sentence` still reads as talk (see {@link conversationCues}). */
export function readsAsConversation(sentence: string): boolean {
  return conversationCues(sentence).length > 0;
}

/**
 * The sentences of a written note, as the detector and the evaluation count them: headings,
 * list markers and leading "Label:" parts removed, one statement per line or sentence.
 */
export function noteStatements(note: string): string[] {
  const out: string[] = [];
  for (const raw of note.replace(/\r\n?/g, '\n').split('\n')) {
    let line = raw.trim();
    if (!line || /^#{1,6}\s/.test(line)) continue;
    line = line.replace(/^\s*(?:[-*•·]|\d{1,2}[.)])\s+/, '').replace(/\*\*|__/g, '');
    // A heading line: all capitals, or a short bold/colon title with nothing after it.
    if (/^[\p{Lu}\d /&,()'-]{3,60}:?$/u.test(line) && /\p{Lu}{2}/u.test(line)) continue;
    line = line.replace(/^[\p{L}][\p{L} /&()'-]{0,40}:\s+/u, '');
    if (/^[\p{L}][\p{L} /&()'-]{0,40}:$/u.test(line)) continue;
    for (const s of line.split(/(?<=[.!?。！？])\s+/)) if (/[\p{L}]/u.test(s)) out.push(s.trim());
  }
  return out;
}

/**
 * A spoken sentence with the openers and closing tag questions its speaker stacked around it
 * ("okay, so, um, ... , okay?") trimmed, `rounds` times at most. Each reader passes its own lists.
 */
export function trimSpokenEnds(sentence: string, openers: RegExp, closers: RegExp, rounds = 3): string {
  const trimRound = (t: string, left: number): string => {
    const next = t.replace(openers, '').replace(closers, '');
    return next === t || left <= 1 ? next : trimRound(next, left - 1);
  };
  return trimRound(sentence.trim(), rounds).trim();
}
