/**
 * Clinical third-person rewriting of English utterances: the patient's "I've had a cough for
 * three days" becomes "She has had a cough for 3 days"; the clinician's "your lungs are clear"
 * becomes "her lungs are clear". Only pronouns and verb agreement change, never the facts.
 */
import { normaliseNumbers } from '../../../services/clinical-language/normalise.js';
import { polishSentence } from './clean.js';

export type Gender = 'female' | 'male' | 'unknown';

interface Pronouns {
  subject: string;
  object: string;
  possessive: string;
  reflexive: string;
}

/** Pronouns for a gender; unknown falls back to "the patient", which keeps singular verbs right. */
export function pronounsFor(gender: Gender): Pronouns {
  if (gender === 'female') return { subject: 'she', object: 'her', possessive: 'her', reflexive: 'herself' };
  if (gender === 'male') return { subject: 'he', object: 'him', possessive: 'his', reflexive: 'himself' };
  return { subject: 'the patient', object: 'the patient', possessive: 'their', reflexive: 'themself' };
}

const MODALS = new Set(['can', 'could', 'will', 'would', 'should', 'might', 'must', 'may', 'shall', 'did', 'was', 'had', 'used', 'also', 'just', 'never', 'always', 'still', 'only', 'really', 'usually', 'sometimes', 'often', 'already', 'even', 'actually', 'probably', 'definitely', 'think', 'guess']);
const IRREGULAR: Record<string, string> = { am: 'is', are: 'is', have: 'has', do: 'does', go: 'goes', "don't": "doesn't", "haven't": "hasn't", "aren't": "isn't", were: 'was', "weren't": "wasn't" };
const ADVERBS = new Set(['first', 'ever', 'also', 'just', 'never', 'always', 'still', 'only', 'really', 'usually', 'sometimes', 'often', 'already', 'even', 'actually', 'probably', 'definitely', 'normally', 'mostly', 'generally', 'kind', 'sort', 'typically', 'rarely', 'occasionally', 'now', 'recently']);

/** Third-person singular present of a verb ("feel" -> "feels", "try" -> "tries"). */
export function thirdPerson(verb: string): string {
  const lower = verb.toLowerCase();
  if (IRREGULAR[lower]) return IRREGULAR[lower]!;
  if (MODALS.has(lower) || /ed$/.test(lower) || /(ing|s)$/.test(lower) || lower.includes("'")) return verb;
  if (/(sh|ch|x|z|o)$/.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

// Past-tense and non-verb words that follow "I" and must not gain an "s".
const NO_INFLECT = /^(was|had|did|got|went|took|felt|saw|came|made|said|told|thought|knew|began|started|stopped|tried|noticed|used|fell|hurt|broke|ran|put|let|left|lost|gave|found|woke|slept|ate|drank|quit|kept|could|would|should|might|must|can|will|may|shall|\w+ed|\w+'\w+)$/i;

/** Replace "X Y" verb agreement after a new third-person subject. */
function agreeVerbs(text: string, subjectPattern: string, subject: string): string {
  const keep = /^(to|and|or|but|all|guys|first|both|too|either|any|some|in|on|at|for|with|from|a|an|the|that|this|so|if|because|as|when|than|not|no)$/i;
  const re = new RegExp(`\\b${subjectPattern}\\s+((?:(?:${[...ADVERBS].join('|')}|[\\p{L}]+ly)\\s+)*)([\\p{L}']+)`, 'giu');
  return text.replace(re, (_m, adverbs: string, verb: string) => {
    if (keep.test(verb)) return `${subject} ${adverbs}${verb}`;
    const v = NO_INFLECT.test(verb) && !IRREGULAR[verb.toLowerCase()] ? verb : thirdPerson(verb);
    return `${subject} ${adverbs}${v}`;
  });
}

/** Rewrite a patient's own sentence into third person about the patient. */
export function rewritePatientSentence(sentence: string, gender: Gender): string {
  const p = pronounsFor(gender);
  const contracted = replaceEach(` ${sentence} `, [
    [/\bI'm\b/gi, `${p.subject} is`], [/\bI am\b/gi, `${p.subject} is`], [/\bI've\b/gi, `${p.subject} has`], [/\bI'll\b/gi, `${p.subject} will`],
    [/\bI'd\s+(been|had|gone|never|already|just)\b/gi, `${p.subject} had $1`], [/\bI'd\b/gi, `${p.subject} would`],
  ]);
  const mine = gender === 'male' ? 'his' : gender === 'female' ? 'hers' : "the patient's";
  return finish(replaceEach(agreeVerbs(contracted, 'I', p.subject), [
    [/\bI\b/g, p.subject], [/\bmyself\b/gi, p.reflexive], [/\bmy\b/gi, p.possessive], [/\bmine\b/gi, mine], [/\bme\b/gi, p.object],
    [/\b(he|she|the patient) has got\b/gi, '$1 has'],
  ]));
}

/** Verbs and prepositions after which the clinician's "you" is the object ("tell you" -> "tell her"). */
const YOU_AS_OBJECT = /\b(to|for|with|about|tell|give|see|ask|send|call|show|help|let|want|need|get|have|from|on|at|by|asked|told|gave|sent|check|examine|put|keep|make|like|bring|refer|prescribe|start|follow|remind|teach)\s+you\b/gi;

/**
 * Rewrite a clinician's sentence addressed to the patient: "you/your" become the patient;
 * the clinician's own "I" stays (notes are written by the signing clinician).
 */
export function rewriteClinicianSentence(sentence: string, gender: Gender): string {
  const p = pronounsFor(gender);
  const contracted = replaceEach(` ${sentence} `, [
    [/\byou're\b/gi, `${p.subject} is`], [/\byou are\b/gi, `${p.subject} is`], [/\byou've\b/gi, `${p.subject} has`], [/\byou'll\b/gi, `${p.subject} will`],
    [/\byou'd\b/gi, `${p.subject} would`], [/\byou were\b/gi, `${p.subject} was`], [YOU_AS_OBJECT, `$1 ${p.object}`],
  ]);
  return finish(replaceEach(agreeVerbs(contracted, 'you', p.subject), [
    [/\byou\b/gi, p.subject], [/\byourself\b/gi, p.reflexive], [/\byour\b/gi, p.possessive],
    [/\bI'm\b/gi, 'I am'], [/\bwe're\b/gi, 'we are'], [/\bI'll\b/gi, 'I will'], [/\bwe'll\b/gi, 'we will'],
    [/\blet's\b/gi, 'we will'], [/\bI'd\b/gi, 'I would'], [/\bwe've\b/gi, 'we have'], [/\bI've\b/gi, 'I have'],
  ]));
}

/** Applies each replacement in turn, as a chain of `String.replace` calls would. */
function replaceEach(text: string, rules: Array<[RegExp, string]>): string {
  return rules.reduce((t, [re, by]) => t.replace(re, by), text);
}

function finish(text: string): string {
  let t = normaliseNumbers(text);
  t = t.replace(/\bdon't\b/gi, 'do not').replace(/\bdoesn't\b/gi, 'does not').replace(/\bdidn't\b/gi, 'did not');
  t = t.replace(/\bcan't\b/gi, 'cannot').replace(/\bwon't\b/gi, 'will not').replace(/\bisn't\b/gi, 'is not');
  t = t.replace(/\bhasn't\b/gi, 'has not').replace(/\bhaven't\b/gi, 'have not').replace(/\bwasn't\b/gi, 'was not');
  // "it's been" is "it has been"; other 's after a pronoun is "is".
  t = t.replace(/\b(it|that|there|he|she|what|who|here|everything|nothing|something)['’]s\s+(been|had|got|gotten)\b/gi, '$1 has $2');
  t = t.replace(/\b(it|that|there|he|she|what|who|here|everything|nothing|something)['’]s\b/gi, '$1 is');
  t = t.replace(/\b(they|we)['’]re\b/gi, '$1 are').replace(/\b(they|we|would|could|should|might|must)['’]ve\b/gi, '$1 have');
  t = t.replace(/\b(they|we|it|that|there|he|she)['’]ll\b/gi, '$1 will').replace(/\b(they|we|it|he|she|that)['’]d\b/gi, '$1 would');
  t = t.replace(/\b(should|could|would|must|might|need|are|were|does|did|do|has|have|had|is|was)n['’]t\b/gi, '$1 not');
  t = t.replace(/\bgonna\b/gi, 'going to').replace(/\bwanna\b/gi, 'want to').replace(/\bgotta\b/gi, 'have to');
  t = t.replace(/\bkinda\b/gi, 'kind of').replace(/\byeah\b/gi, 'yes');
  return polishSentence(t);
}

/**
 * Guess the patient's gender from how the clinician refers to them ("Mrs. Cooper", "she"), so
 * pronouns in the note match; unknown when the transcript does not say.
 */
export function detectGender(doctorText: string): Gender {
  const t = ` ${doctorText.toLowerCase()} `;
  // Said outright ("a 57-year-old male", "Mrs. Cooper") outweighs pronouns, which may be someone else's.
  const strongFemale = (t.match(/\b(?:year[- ]old|yo) (?:female|woman|lady|girl)\b|\b(?:mrs|ms|miss)\b/g) ?? []).length;
  const strongMale = (t.match(/\b(?:year[- ]old|yo) (?:male|man|gentleman|boy)\b|\bmr\b/g) ?? []).length;
  const female = (t.match(/\b(she|her|hers|herself|mrs|ms|miss|woman|female|lady|girl)\b/g) ?? []).length + 3 * strongFemale;
  const male = (t.match(/\b(he|him|his|himself|mr|man|male|gentleman|boy|guy)\b/g) ?? []).length + 3 * strongMale;
  if (female >= 1 && female > male * 1.5) return 'female';
  if (male >= 1 && male > female * 1.5) return 'male';
  return 'unknown';
}
