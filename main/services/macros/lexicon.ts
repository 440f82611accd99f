/**
 * Word lists the macro detector relies on: dictation fillers, spoken trigger words, function
 * words, number words and British spellings. Kept apart from the algorithm so they can grow
 * without touching it. Every entry is lower case and already stripped of diacritics.
 */

import { numberToWords } from '../clinical-language/number-words.js';

/** Single-word hesitations a recogniser transcribes inside a phrase ("normal uh chest exam"). */
export const FILLERS = new Set([
  'uh', 'um', 'er', 'erm', 'ah', 'eh', 'uhm', 'uhh', 'umm', 'ehm', 'hmm', 'hm', 'mm', 'mmm', 'mhm', 'em',
]);

/** Fillers that are also ordinary words: tolerated, at a higher price. */
export const SOFT_FILLERS = new Set(['like', 'okay', 'ok', 'so', 'well']);

/** Two-word fillers. */
export const FILLER_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['you', 'know'],
  ['i', 'mean'],
  ['sort', 'of'],
  ['kind', 'of'],
];

/**
 * Spoken commands that precede a macro ("insert normal chest exam", "dot phrase ros").
 * The detector absorbs them into the span so the expansion replaces the command too.
 * Longest sequences first so "insert macro" wins over "macro".
 */
export const LEADING_TRIGGERS: ReadonlyArray<readonly string[]> = [
  ['insert', 'macro'],
  ['insert', 'template'],
  ['insert', 'the', 'macro'],
  ['insert', 'the', 'template'],
  ['use', 'macro'],
  ['use', 'template'],
  ['apply', 'macro'],
  ['apply', 'template'],
  ['expand', 'macro'],
  ['dot', 'phrase'],
  ['smart', 'phrase'],
  ['quick', 'text'],
  ['auto', 'text'],
  ['insert'],
  ['dot'],
  ['macro'],
  ['template'],
  ['expand'],
  ['paste'],
  ['smartphrase'],
  ['dotphrase'],
  ['quicktext'],
  ['autotext'],
];

/** Words a clinician may say after a macro name ("normal chest exam macro"). */
export const TRAILING_TRIGGERS = new Set(['macro', 'template']);

/**
 * Function words: they weigh less in a match and never anchor a search, because they occur
 * everywhere ("as", "the") and say little about which phrase was dictated.
 */
export const STOP_WORDS = new Set([
  'a', 'an', 'the', 'and', 'or', 'of', 'in', 'on', 'at', 'to', 'for', 'with', 'as', 'by', 'is', 'was',
  'are', 'were', 'be', 'been', 'from', 'per', 'this', 'that', 'it', 'its', 'if', 'but', 'into', 'than',
  'then', 'there', 'their', 'they', 'he', 'she', 'his', 'her', 'we', 'you', 'i', 'my', 'our', 'your',
  'has', 'have', 'had', 'do', 'does', 'did', 'will', 'can', 'may', 'all', 'any', 'so', 'not', 'no',
]);

/**
 * Number words and the digits they are canonicalised to in the other direction: the recogniser
 * writes "2" or "two" at random, so both sides are compared as words.
 */
export const DIGIT_WORDS: ReadonlyMap<string, string> = new Map([
  // One word per digit string, spelled by the clinical-language core: 0-20 and the tens; "100" as "hundred".
  ...[...Array(21).keys(), 30, 40, 50, 60, 70, 80, 90].map((n): [string, string] => [String(n), numberToWords(n)]),
  ['100', 'hundred'],
]);

export const NUMBER_WORDS = new Set(DIGIT_WORDS.values());

/**
 * British spellings whose American form the suffix rules below do not reach. Both the examples
 * and the text go through the same mapping, so a miss only costs an exact match, never a wrong one.
 */
export const BRITISH_TO_AMERICAN: ReadonlyMap<string, string> = new Map(Object.entries({
  grey: 'gray', programme: 'program', programmes: 'programs', aluminium: 'aluminum',
  sulphate: 'sulfate', sulphur: 'sulfur', foetus: 'fetus', foetal: 'fetal', diarrhoea: 'diarrhea',
  gonorrhoea: 'gonorrhea', dyspnoea: 'dyspnea', apnoea: 'apnea', oedema: 'edema', oedematous: 'edematous',
  oesophagus: 'esophagus', oesophageal: 'esophageal', oestrogen: 'estrogen', manoeuvre: 'maneuver',
  manoeuvres: 'maneuvers', counselling: 'counseling', counselled: 'counseled', labelled: 'labeled',
  labelling: 'labeling', travelled: 'traveled', modelling: 'modeling', cancelled: 'canceled',
  signalling: 'signaling', defence: 'defense', licence: 'license', offence: 'offense', pretence: 'pretense',
  practise: 'practice', tyre: 'tire', plough: 'plow', mould: 'mold', moult: 'molt', cheque: 'check',
  enrol: 'enroll', enrolment: 'enrollment', fulfil: 'fulfill', skilful: 'skillful', wilful: 'willful',
  ageing: 'aging', judgement: 'judgment', acknowledgement: 'acknowledgment', storey: 'story',
  catalogue: 'catalog', dialogue: 'dialog', analogue: 'analog', haemorrhoids: 'hemorrhoids',
  orthopaedic: 'orthopedic', orthopaedics: 'orthopedics', paediatric: 'pediatric', paediatrics: 'pediatrics',
  anaesthetic: 'anesthetic', anaesthesia: 'anesthesia', faeces: 'feces', faecal: 'fecal',
}));

/** "-our" words that are spelt the same in American English. */
export const OUR_EXCEPTIONS = new Set([
  'four', 'hour', 'your', 'pour', 'tour', 'sour', 'flour', 'detour', 'devour', 'amour', 'contour',
  'velour', 'scour', 'ours', 'yours', 'hours', 'tours', 'dour', 'fours', 'troubadour', 'paramour',
]);

/**
 * Prefix pairs that turn a word into its opposite or a different finding: "abnormal" is never a
 * misspelling of "normal", nor "hypertension" of "hypotension", whatever the edit distance says.
 * The empty prefix stands for the bare word. Pairs, not a flat list, so that "affect" is not
 * read as "af" + "fect" against "afect" = "a" + "fect".
 */
export const CONTRAST_PREFIX_PAIRS: ReadonlyArray<readonly [string, string]> = [
  ['', 'a'], ['', 'ab'], ['', 'an'], ['', 'un'], ['', 'in'], ['', 'im'], ['', 'il'], ['', 'ir'], ['', 'non'],
  ['', 'dis'], ['', 'de'], ['', 'mis'], ['', 'anti'], ['', 'counter'], ['in', 'de'], ['in', 'ex'], ['im', 'ex'],
  ['hypo', 'hyper'], ['pre', 'post'], ['ante', 'post'], ['intra', 'extra'], ['inter', 'intra'], ['sub', 'supra'],
  ['uni', 'bi'], ['mono', 'poly'], ['brady', 'tachy'], ['micro', 'macro'], ['over', 'under'], ['max', 'min'],
  ['ipsi', 'contra'], ['hypo', 'normo'], ['hyper', 'normo'], ['in', 'out'], ['up', 'down'],
];

/** Negation words: a different word in their place reverses the finding ("new" is not "no"). */
export const NEGATIONS: ReadonlyMap<string, readonly string[]> = new Map([
  ['no', ['know']],
  ['not', ['knot']],
  ['non', []],
  ['without', []],
  ['never', []],
  ['none', ['nun']],
]);
