/**
 * The patient's account as a clinician writes it: a patient's sentence in the third person
 * ("I've been staying on top of the meds" -> "He has been staying on top of the meds"), with verb
 * agreement fixed by part of speech ("I take" -> "he takes"), kept only when the result passes
 * the clinical-register gate (a complete clause; no first/second person left, no disfluency, no
 * question, no fragment). The clinician's statements about the patient's history are rewritten
 * the same way from the second person.
 */
import { registerFailure, tagsOf } from './register.js';
import { evidenceOf, type Said } from './said.js';
import { stripTalk } from './talk.js';
import type { PatientFacts, Statement } from './types.js';


const CLINICAL =
  /\b(?:pain|hurt\w*|ache\w*|swell\w*|fever|cough\w*|breath\w*|dizz\w*|nause\w*|vomit\w*|tired|fatigue|sleep\w*|blood|pressure|sugar|weight|medication\w*|meds|pills?|dose|taking|took|started|stopped|surgery|doctor|hospital|emergency|diet|exercis\w*|walk\w*|run\w*|work\w*|smok\w*|drink\w*|alcohol|symptoms?|worse|better|transplant\w*|arthritis|cancer|fractur\w*|infection|tear|sprain\w*|allerg\w*|kidney\w*|heart|lungs?|urgency|urin\w*|bowel\w*|skin|numb\w*|tingl\w*|rash|bleed\w*|injur\w*|fell|fall|knee|back|shoulder|hip|ankle|chest|head\w*|stomach|leg|arm|hand|foot|neck|x-ray|mri|test|days?|weeks?|months?|years?|\d+)\b/gi;
const LEAD_INS = /^(?:(?:i know|i see|i understand|i remember|i noticed|i heard(?= that\b)|it looks like|it sounds like|it seems like|so it sounds like|i think)\s+(?:that\s+)?)/i;
const MODAL = /^(?:can|could|will|would|should|may|might|must|did|was|were|had|has|is|does|shall|used|quit|put|set|hit|cut|hurt|let|shut|split|spread|cost|beat|burst|fit|read|got|ran|went|came|began|fell|felt|took|saw|had|said|told|thought|knew|left|lost|broke|woke)$/i;

/** Third person with verb agreement: "I take" -> "he takes", "my" -> "his". */
export function toThirdPerson(text: string, patient: PatientFacts, from: 'first' | 'second'): string {
  const [subj, obj, poss, refl] = patient.sex === 'female' ? ['she', 'her', 'her', 'herself'] : patient.sex === 'male' ? ['he', 'him', 'his', 'himself'] : ['the patient', 'the patient', "the patient's", 'themselves'];
  let t = stripTalk(text).replace(LEAD_INS, '');
  if (from === 'first') {
    t = t.replace(/\bi'm\b|\bi am\b/gi, `${subj} is`).replace(/\bi've\b/gi, `${subj} has`).replace(/\bi'd\b/gi, `${subj} would`).replace(/\bi'll\b/gi, `${subj} will`)
      .replace(/\bi was\b/gi, `${subj} was`).replace(/\bmyself\b/gi, refl).replace(/\bmy\b/gi, poss).replace(/\bmine\b/gi, poss).replace(/(?<=\b\w+\s)me\b/gi, obj).replace(/\bi\b/gi, subj);
  } else {
    t = t.replace(/\byou(?:'re| are)\b/gi, `${subj} is`).replace(/\byou(?:'ve)\b/gi, `${subj} has`).replace(/\byou(?:'d)\b/gi, `${subj} would`).replace(/\byou(?:'ll)\b/gi, `${subj} will`)
      .replace(/\byou were\b/gi, `${subj} was`).replace(/\byourself\b/gi, refl).replace(/\byour\b/gi, poss).replace(/(?<=\b(?:to|for|with|on|give|tell|see|help|send|let|gave|told)\s)you\b/gi, obj).replace(/\byou\b/gi, subj);
  }
  t = t.replace(/\b(he|she|the patient) (?:do not|don't)\b/gi, '$1 does not').replace(/\b(he|she|the patient) (?:have not|haven't)\b/gi, '$1 has not').replace(/\b(he|she|the patient) can't\b/gi, '$1 cannot')
    .replace(/\b(he|she|the patient) (?:won't)\b/gi, '$1 will not').replace(/\b(he|she|the patient) didn't\b/gi, '$1 did not').replace(/\b(he|she|the patient) wasn't\b/gi, '$1 was not').replace(/\b(he|she|the patient) isn't\b/gi, '$1 is not');
  t = t.replace(/\s+,/g, ',').replace(/,\s*$/, '').trim();
  if (!t) return t;
  t = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** Third-person singular after "he"/"she"/"the patient": the verb the tagger finds next takes -s. */
/** Verbs whose past is their base form: said by a patient they are almost always past ("I hurt my back"). */
const SAME_IN_PAST = /^(?:put|cut|hit|hurt|set|let|read|quit|shut|split|spread|cost|burst|bet|cast|upset)$/i;

/** "the pain", "your cough": one noun after a determiner, not the second of two ("the pain and the swelling"). */
function singularSubject(words: readonly string[], pos: readonly string[], lemmas: readonly string[] | undefined, i: number): boolean {
  if (!lemmas || pos[i] !== 'NOUN' || i === 0 || !/^(?:the|your|his|her|their|this|that|my)$/i.test(words[i - 1]!)) return false;
  // "notice the pain get worse": after a verb or a preposition the noun is an object, not a subject.
  if (i >= 2 && (/^(?:and|or|of|with)$/i.test(words[i - 2]!) || /^(?:VERB|AUX|NOUN|ADP|PROPN)$/.test(pos[i - 2]!))) return false;
  // A plural's lemma is its singular ("symptoms" -> "symptom").
  return lemmas[i]!.toLowerCase() === words[i]!.toLowerCase();
}

export function agree(text: string, tagged: { words: string[]; pos: string[]; lemmas?: string[] } = tagsOf(text)): string {
  const { words, pos, lemmas } = tagged;
  const out = [...words];
  for (let i = 0; i < words.length - 1; i++) {
    if (!/^(?:he|she|patient)$/i.test(words[i]!) && !singularSubject(words, pos, lemmas, i)) continue;
    let j = i + 1;
    while (j < words.length && pos[j] === 'ADV') j++;
    const w = words[j];
    // With lemmas the past and the -s form are told by the lemma ("need" ends in -ed and is no past).
    if (!w || !(pos[j] === 'VERB' || pos[j] === 'AUX') || MODAL.test(w) || (!lemmas && /(?:ed|ing|s)$/i.test(w)) || /ing$/i.test(w) || !/^[a-z]+$/i.test(w)) continue;
    // "She gave", "he laid": a past form (not its own lemma) takes no -s; "I put ice on it" is past too.
    if ((lemmas?.[j] && lemmas[j]!.toLowerCase() !== w.toLowerCase()) || SAME_IN_PAST.test(w)) continue;
    out[j] = /^have$/i.test(w) ? 'has' : /^do$/i.test(w) ? 'does' : /^(?:am|are)$/i.test(w) ? 'is' : /^go$/i.test(w) ? 'goes' : /[^aeiou]y$/i.test(w) ? `${w.slice(0, -1)}ies` : /(?:sh|ch|x|z|o|s)$/i.test(w) ? `${w}es` : `${w}s`;
  }
  // Rebuild with the original spacing: replace tokens in order.
  let result = '';
  let rest = text;
  words.forEach((w, k) => {
    const at = rest.indexOf(w);
    if (at < 0) return;
    result += rest.slice(0, at) + out[k];
    rest = rest.slice(at + w.length);
  });
  return result + rest;
}

/** Thinking aloud and talk about the talk: "I guess", "I wanted to mention", "hopefully", "she's never said anything". */
const MUSING = /\b(?:guess|wonder\w*|suppose|mention\w*|hopefully|i mean|you know|said anything|tell me that when|noticed when|notice when|(?:i|we) thought it was a (?:good|great|bad) idea)\b/i;
/**
 * A pronoun that points back to something said before ("he was taking it", "she had those", "he had that done"):
 * out of its turn the reader cannot tell what it means.
 */
function pointsBack(tagged: { words: string[]; pos: string[] }): boolean {
  // "The pill that helps": a "that" after a noun opens a relative clause and points nowhere.
  // A demonstrative before a word ("this wound", which the tagger may read as a verb) names its own noun:
  // only one standing alone ("she had those a couple years ago") points back. "He had that done" is kept
  // with it, the lesser loss.
  return tagged.words.some((w, i) => {
    if (i === 0) return false;
    if (/^(?:it|them)$/i.test(w)) return tagged.pos[i] === 'PRON';
    // The tagger calls a demonstrative DET or PRON by guess ("had those a couple years ago": DET); the next word decides.
    if (tagged.pos[i] !== 'PRON' && tagged.pos[i] !== 'DET') return false;
    if (!/^(?:those|that|this|these)$/i.test(w) || (/^that$/i.test(w) && tagged.pos[i - 1] === 'NOUN')) return false;
    return !/^(?:NOUN|VERB|ADJ|NUM|PROPN|ADV)$/.test(tagged.pos[i + 1] ?? 'PUNCT');
  });
}

function weightOf(text: string): number {
  return (text.match(CLINICAL) ?? []).length;
}

// A second event told with the first's subject: "I went to the trampoline park and heard a snap and instant pain".
const NEXT_EVENT = /,?\s+and\s+(?:then\s+)?(?=(?:heard|felt|noticed|started|fell|twisted|landed|hurt|injured|rolled|slipped|tripped|developed|woke|took|tried|went to|came in|called)\b)/i;

/**
 * The clauses of one sentence, each able to stand alone: split at a conjunction before a new subject, and (in a clause
 * too long to write whole) at "and" before a second event of the same speaker, which takes the speaker's "I" or "you".
 */
function ownClauses(text: string): string[] {
  const out: string[] = [];
  for (const clause of text.split(/,?\s+(?:and|but|so|because|cause)\s+(?=(?:i|i'm|i've|it|my|you|that|there|he|she)\b)|;\s+|,\s+(?=(?:i|i'm|i've|my|you)\b)/i)) {
    const subject = /^(?:(?:and|but|so|well|yeah|oh|okay)\W+)*(i|you)\b/i.exec(clause.trim())?.[1];
    // Only a clause too long to stand as one sentence is split: "I slipped and fell" stays one event.
    const parts = subject && clause.split(/\s+/).length > 18 ? clause.split(NEXT_EVENT) : [clause];
    out.push(parts[0]!, ...parts.slice(1).map((p) => `${subject} ${p}`));
  }
  return out;
}

/** The patient's account and the clinician's history statements, in clinical register. */
export function readStatements(said: Said[], patient: PatientFacts): Statement[] {
  const out: Statement[] = [];
  for (const s of said) {
    if (s.talk || s.question || s.phase !== 'history' || s.unclearNumber) continue;
    if (s.speaker !== 'patient' && s.speaker !== 'clinician') continue;
    if (weightOf(s.text) < 1 || s.text.split(/\s+/).length < 5) continue;
    // The clinician's own sentences count only when they tell the patient's history ("you had a lobectomy a couple years ago").
    if (s.speaker === 'clinician' && !/\byou(?:'ve| have| had|'re| are| were)\b/i.test(s.text)) continue;
    // Clause by clause: a clinician writes the clause that says something, not the whole turn.
    for (const clause of ownClauses(s.text)) {
      const w = weightOf(clause);
      if (w < 1 || clause.split(/\s+/).length < 4 || MUSING.test(clause)) continue;
      // The patient speaks of themself as "I": a patient's "he is only ten" is about someone else (a son), and so
      // is the clinician's "she" (an aside about a relative); only what the speaker says of the patient is written.
      if (/^(?:(?:and|but|so|well|yeah|oh|um|uh|like)\W+)*(?:he|she|they|he's|she's|they're|his|her|their|him|(?:my|our|your) (?:husband|wife|son|daughter|kids?|children|mother|mom|father|dad|brother|sister|partner|boyfriend|girlfriend|friend|boss|family))\b/i.test(clause.trim())) continue;
      const rough = toThirdPerson(clause, patient, s.speaker === 'patient' ? 'first' : 'second');
      // The cheap checks first; one tagging then serves verb agreement and the clause check.
      if (rough.split(/\s+/).length > 20 || registerFailure(rough, ['NOUN', 'VERB'])) continue;
      // The patient must be the subject: "It was here..." or "They ran an EKG" leave the reader guessing who or what.
      // And the patient it names: a male patient's "she has IBS" is about someone else (his sister, said just before).
      const own = patient.sex === 'female' ? /^(?:she|her)\b/i : patient.sex === 'male' ? /^(?:he|his)\b/i : /^(?:the patient|the patient's)\b/i;
      if (!own.test(rough) || /^(?:he|she|the patient) to\b/i.test(rough)) continue;
      const tagged = tagsOf(rough);
      const text = agree(rough, tagged);
      if (registerFailure(text, tagged.pos) || pointsBack(tagged)) continue;
      out.push({ text, section: 'hpi', weight: w, evidence: evidenceOf(s) });
    }
  }
  return out;
}
