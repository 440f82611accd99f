/**
 * The trigger lists of the NegEx/ConText-style scope reader (see `context.ts`), kept as data so
 * a clinician can read and extend them without touching the matching code. Phrases are
 * lower-case English; spaces match any run of whitespace or a hyphen, and a phrase only matches
 * whole words. Where two triggers overlap the longer one wins ("no history of" negates, it is not
 * read as "history of"), and a pseudo-trigger ("no change", "gram negative") wins over the
 * shorter trigger inside it and does nothing.
 */

/** What a trigger says about the findings in its scope. */
export type ContextCategory = 'negated' | 'uncertain' | 'hypothetical' | 'historical' | 'family';

/**
 * Which way the scope runs: `forward` covers what follows the trigger ("denies | chest pain"),
 * `backward` what precedes it ("chest pain: | denied"), `both` either side.
 */
export type TriggerDirection = 'forward' | 'backward' | 'both';

/** One trigger phrase. */
export interface ContextTrigger {
  phrase: string;
  category: ContextCategory;
  direction: TriggerDirection;
  /**
   * Most words allowed between the trigger and the finding; unset means the whole clause
   * (forward) or the default backward gap. "resolved" negates only the word it stands beside.
   */
  window?: number;
}

const list = (category: ContextCategory, direction: TriggerDirection, phrases: string, window?: number): ContextTrigger[] =>
  phrases
    .split(';')
    .map((p) => p.trim())
    .filter(Boolean)
    .map((phrase) => (window === undefined ? { phrase, category, direction } : { phrase, category, direction, window }));

/** Every trigger, all categories. */
export const CONTEXT_TRIGGERS: readonly ContextTrigger[] = [
  // Negation (NegEx's definite negations, plus the spoken forms of a consultation).
  ...list('negated', 'forward', `no; not; denies; denied; deny; denying; negative for; without; free of; absence of; no evidence of;
    no sign of; no signs of; no symptoms of; no history of; no hx of; no h/o; no complaints of; no new; no further; no longer; no more;
    never; nor; neither; ruled out; rules out; ruling out; ruled out for; fails to reveal; failed to reveal; resolution of;
    doesn't have; does not have; don't have; do not have; didn't have; did not have; hasn't had; has not had; haven't had;
    have not had; hadn't; isn't; wasn't; weren't; aren't; doesn't; don't; didn't; hasn't; haven't; not had; no known;
    unremarkable for; not experiencing; not having; denied any; denies any; not any; none of;
    no one has; no one's; nobody; nobody's; no one ever; no one put; no one gave; no one told`),
  ...list('negated', 'forward', 'absent; resolved', 2),
  // "Non" prefixes the one word it negates: a "non-healing diabetic foot ulcer" is diabetic, a "non-productive cough" a cough.
  ...list('negated', 'forward', 'non', 1),
  ...list('negated', 'backward', `negative; denied; absent; none; ruled out; not present; not seen; not found; resolved; excluded;
    has resolved; have resolved; free; not detected; not identified; not appreciated; not noted`),
  // Uncertainty: the finding is possible, probable or suspected, not established.
  ...list('uncertain', 'forward', `possible; possibly; probable; probably; likely; most likely; suspected; suspect; suspicion of;
    suspicious for; concern for; concerning for; worrisome for; question of; questionable; ? of; may be; may have; might be;
    might have; could be; could have; cannot rule out; can't rule out; cannot exclude; can't exclude; cannot be ruled out;
    not ruled out; not excluded; differential includes; differential diagnosis includes; ddx; versus; vs; consistent with;
    compatible with; suggestive of; suggests; indicative of; presumed; presumptive; equivocal for; not sure if;
    not sure whether; unsure if; uncertain if; thought to be`),
  ...list('uncertain', 'backward', `unlikely; is unlikely; suspected; is suspected; is possible; is likely; is probable; not excluded;
    cannot be excluded; can't be excluded; cannot be ruled out; not ruled out; is questionable; versus; vs; ?; or not`),
  // Hypothetical: named only to be looked for, or as a condition ("if the pain gets worse").
  ...list('hypothetical', 'forward', `rule out; r/o; to rule out; to exclude; evaluate for; evaluation for; eval for; assess for;
    screen for; screening for; work up for; workup for; test for; testing for; check for; look for; watch for; monitor for;
    return if; call if; return for; come back if; if; in case of; in case; should he develop; should she develop; should you develop;
    should there be; warning signs of; prevent; prevention of; prophylaxis for; risk of; at risk for; risk factors for`),
  // History: happened before this episode of care.
  ...list('historical', 'forward', `history of; hx of; h/o; past history of; past medical history of; status post; s/p;
    previous; previously; prior; prior history of; remote history of; known history of; former`),
  ...list('historical', 'backward', `in the past; years ago; year ago; months ago; as a child; as a teenager; in childhood;
    previously; in the remote past`),
  // Someone else's finding: a relative, partner or contact.
  ...list('family', 'forward', `family history of; family history; family hx of; fh of; fhx of; mother; mom; father; dad;
    parents; parent; sister; brother; sibling; siblings; son; daughter; grandmother; grandfather; grandma; grandpa; grandparent;
    grandparents; aunt; uncle; cousin; niece; nephew; wife; husband; partner; spouse; boyfriend; girlfriend; friend; coworker;
    roommate`),
  ...list('family', 'backward', `in mother; in father; in her mother; in his mother; in her father; in his father;
    in the family; in family; runs in the family; runs in her family; runs in his family; in a sibling; in siblings;
    in your family; in my family; in our family; runs in your family; runs in my family; on your mother's side; on my mother's side;
    on your father's side; on my father's side;
    in her sister; in his brother; in her brother; in his sister`),
];

const RELATIVES = '(?:mother|mom|father|dad|parents?|wife|husband|partner|spouse|daughter|son|sister|brother|caregiver|friend)';

/**
 * Phrases that contain a trigger but are no trigger: matched first so the trigger inside them
 * cannot fire. Word-level patterns (a number before "day history") are regular expressions.
 */
export const PSEUDO_TRIGGERS: readonly (string | RegExp)[] = [
  'no increase', 'no change', 'no interval change', 'no significant change', 'no suspicious change', 'not only', 'not necessarily',
  'not cause', 'not caused', 'not drain', 'not certain', 'not extend', 'no further workup', 'not limited to', 'gram negative',
  'without difficulty', 'not been able', 'no one', 'last but not least', 'but not least', 'no problem', 'no problems with', 'not bad', 'not too bad', 'no worries',
  // "I don't know, every time I walk I get this pressure": a discourse opener, not a denial.
  "i don't know", 'i do not know', "i dunno",
  'if needed', 'if necessary', 'as needed', 'if any', 'even if', 'whether or not', 'history of present illness', 'past medical history',
  'medical history', 'surgical history', 'social history', 'history and physical', 'family history:', 'history:', 'prior to',
  'prior to arrival', 'previous visit', 'previous note', 'rule out other', 'child-bearing', 'childbearing', 'old age',
  'years old', 'year old', 'year-old', 'not worse', 'no worse', 'nothing else', 'not improved', 'no relief', 'no better',
  // A relative who brings the patient or gives the history is not the one with the finding.
  new RegExp(`\\b(?:brought in by|brought by|accompanied by|lives with|living with|here with|with|per|according to)\\s+(?:(?:her|his|their|the|my|your)\\s+)?${RELATIVES}\\b`, 'i'),
  new RegExp(`\\b${RELATIVES}\\s+(?:is\\s+|are\\s+)?(?:at (?:the )?bedside|present|here|in the room)\\b`, 'i'),
  /\b(?:\d+|a|one|two|three|four|five|six|seven|eight|nine|ten|several|few|many)[\s-]+(?:day|days|week|weeks|month|months|year|years)[\s-]+history\b/i,
];

/** Words that end every scope: a new clause with its own polarity begins. */
export const COMMON_TERMINATORS: readonly string[] = [
  'but', 'however', 'although', 'though', 'except', 'except for', 'aside from', 'apart from', 'yet', 'nevertheless',
  'still', 'which', 'whereas', 'while', 'otherwise',
];

/** Extra terminators by category, on top of {@link COMMON_TERMINATORS}. */
export const CATEGORY_TERMINATORS: Readonly<Record<ContextCategory, readonly string[]>> = {
  // A positive statement ("denies fever, reports cough", "no fever with cough") ends a negation.
  negated: ['reports', 'report', 'reported', 'endorses', 'endorsed', 'admits', 'admits to', 'complains', 'complains of', 'presents',
    'presented', 'positive for', 'with', 'has', 'notes', 'states', 'describes', 'c/o', 'is having', 'has had', 'now has', 'presenting'],
  uncertain: ['presents', 'presented', 'reports', 'denies', 'confirmed', 'diagnosed with', 'cause of', 'due to', 'secondary to'],
  hypothetical: ['then', 'presents', 'reports', 'denies', 'has', 'currently', 'today'],
  historical: ['now', 'currently', 'presents', 'presented', 'presenting', 'today', 'recently', 'this morning', 'current', 'new',
    'reports', 'complains', 'with'],
  family: ['patient', 'pt', 'he', 'she', 'i', 'me', 'my', 'himself', 'herself', 'the patient', 'reports', 'states', 'says', 'notes',
    'is worried about', 'worried about'],
};

/** Answers that deny what was just asked ("any fever?" "no, not really"). */
export const NEGATIVE_ANSWERS: readonly string[] = [
  'no', 'nope', 'nah', 'not really', 'not that i', 'never', 'none', 'nothing', "i don't", 'i do not', "i haven't", 'i have not',
  "i didn't", 'i did not', "i'm not", 'i am not', 'negative', 'not at all',
];

/** Answers that confirm what was just asked. */
export const POSITIVE_ANSWERS: readonly string[] = [
  'yes', 'yeah', 'yep', 'yup', 'i do', 'i have', 'i did', 'a little', 'a bit', 'sometimes', 'occasionally', 'definitely',
  "i've had", 'i have had', 'uh-huh', 'mm-hmm', 'positive',
];

/**
 * Words that carve an exception out of a finding stated as a whole ("normal cardiac exam except
 * for a soft murmur", "all normal apart from the knee"): what they govern is not normal.
 */
export const EXCEPTION_TRIGGERS: readonly string[] = [
  'except', 'except for', 'excepting', 'with the exception of', 'other than', 'apart from', 'aside from', 'save for', 'but for',
  'excluding',
];
