/**
 * The clinical-register gate: a sentence of the clinician's own dictation may stand in a note
 * only when it reads as written clinical prose: a complete clause (a subject and a finite verb,
 * by wink-nlp's part-of-speech tagger), no first or second person, no disfluency, no question,
 * no fragment. Everything else is rendered from facts or listed as unplaced.
 *
 * wink-nlp with its English "lite web" model was chosen over compromise: on ACI-Bench valid it
 * tags 2,000 words in ~57 ms where compromise takes ~450 ms (the 200 ms note budget), with the
 * same accuracy on our clause-completeness fragments (see README, dependencies).
 */
import winkNLP, { type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

let nlp: WinkMethods | undefined;
// The model takes about a second to load: once per process, on first use.
const tagger = (): WinkMethods => (nlp ??= winkNLP(model, ['sbd', 'pos']));

const PERSON = /\b(?:i|i'm|i've|i'd|i'll|me|my|mine|myself|we|we're|we've|we'll|us|our|ours|you|you're|you've|you'll|you'd|your|yours|yourself|let's|let me)\b/i;
const DISFLUENCY = /\b(?:um+|uh+|er|erm|hmm+|mm-hmm|uh-huh|you know|i mean|like,|kinda|sorta|gonna|wanna)\b|\b(\w+)[,\s]+\1\b|\w-\s|\.\.\.|--/i;
const OPENS_FRAGMENT = /^\W*(?:and|but|or|so|because|'cause|which|that|who|whereas|although|though|if|when|unless|then|also|plus|like|as well|no|yes|most|people|some people|everyone|anybody|somebody|they|it|that|this is (?:a|an|the)? ?[a-z]+,)\b|^\W*(?:he|she|the patient) to\b|^\W*the (?:nurse|front desk|staff|doctor|pharmacy)\b/i;
const ENDS_FRAGMENT = /\b(?:the|a|an|and|or|but|of|to|in|on|at|with|for|from|by|is|are|was|were|his|her|their|this|that|some|any|very|so)\W*$/i;
const INTERROGATIVE = /\?\s*$|^\W*(?:is|are|do|does|did|have|has|can|could|would|will|how|what|when|where|why|which|any)\b/i;
// Spoken contractions other than negations ("it's", "that's", "there's", "everything's") and run-on speech.
const SPOKEN = /\b(?:it|that|there|what|everything|something|nothing|this|here|who|where|how)['’](?:s|ll|d|re)\b|\b\w+['’]s been\b|\bgonna\b|\bgotta\b|\b(?:pretty|super|really|totally|basically|honestly|literally|anyway|obviously)\b|^\W*(?:so|well|yeah|okay|oh|now)\b|,\s*so\b/i;
const TALKY = /,\s*(?:again|like|though|too),|\bagain,|\b(?:okay|alright|all right|yeah|yep|gosh|wow|awesome|cool|stuff|thing is|pretty much|a lot of|kind of|sort of|dax|dragon)\b/i;

export type RegisterFailure = 'question' | 'person' | 'disfluency' | 'fragment' | 'no clause' | 'chatter';

/**
 * Why a sentence fails the gate, or undefined when it may stand in a note as written. `pos`,
 * when the caller has tagged the sentence already, saves tagging it again.
 */
export function registerFailure(sentence: string, pos?: readonly string[]): RegisterFailure | undefined {
  const t = sentence.trim();
  if (INTERROGATIVE.test(t)) return 'question';
  if (PERSON.test(t)) return 'person';
  if (DISFLUENCY.test(t)) return 'disfluency';
  if (TALKY.test(t) || SPOKEN.test(t)) return 'chatter';
  // A run-on ("..., and ..., but ..., so ...") is speech, not a written sentence.
  if ((t.match(/,/g) ?? []).length > 2 || t.split(/\s+/).length > 28) return 'chatter';
  const words = t.split(/\s+/).filter(Boolean);
  if (words.length < 3 || OPENS_FRAGMENT.test(t) || ENDS_FRAGMENT.test(t)) return 'fragment';
  if (!(pos ? clauseIn(pos, t) : isClause(t))) return 'no clause';
  return undefined;
}

/** True when the sentence passes the clinical-register gate. */
export function passesRegister(sentence: string): boolean {
  return registerFailure(sentence) === undefined;
}

/** Universal part-of-speech tags of a sentence's tokens. */
export function tagsOf(sentence: string): { words: string[]; pos: string[]; lemmas: string[] } {
  const n = tagger();
  const tokens = n.readDoc(sentence).tokens();
  return { words: tokens.out() as string[], pos: tokens.out(n.its.pos) as string[], lemmas: tokens.out(n.its.lemma as typeof n.its.pos) as string[] };
}

/** A subject (noun or pronoun) before a verb or auxiliary, by part of speech. */
export function isClause(sentence: string): boolean {
  return clauseIn(tagsOf(sentence).pos, sentence);
}

function clauseIn(pos: readonly string[], sentence: string): boolean {
  const verb = pos.findIndex((p, i) => (p === 'VERB' || p === 'AUX') && pos.slice(0, i).some((q) => q === 'NOUN' || q === 'PRON' || q === 'PROPN'));
  if (verb >= 0) return true;
  // "There is ecchymosis": existential subject.
  return /^\W*there (?:is|are|was|were)\b/i.test(sentence);
}
