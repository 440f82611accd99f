/**
 * Words the embedded extractor maps onto schema fields: medication routes, frequencies and
 * doses, and synonym groups for a caller's enum values. Symptoms, conditions and drugs live in
 * `services/clinical-language/` (lexicon.ts, medication-lexicon.ts).
 */
export const ROUTES: [RegExp, string][] = [
  [/\b(?:po|p\.o\.|by mouth|orally|oral)\b/i, 'PO'],
  [/\b(?:iv|i\.v\.|intravenous(?:ly)?)\b/i, 'IV'],
  [/\b(?:im|i\.m\.|intramuscular(?:ly)?)\b/i, 'IM'],
  [/\b(?:subq|sc|s\.c\.|sq|subcutaneous(?:ly)?|sub-q)\b/i, 'SC'],
  [/\b(?:sl|sublingual(?:ly)?|under the tongue)\b/i, 'SL'],
  [/\b(?:topical(?:ly)?|applied to skin)\b/i, 'topical'],
  [/\b(?:inhaled|inhalation|via inhaler|nebulized|neb)\b/i, 'inhaled'],
  [/\b(?:pr|per rectum|rectal(?:ly)?)\b/i, 'PR'],
  [/\b(?:intranasal(?:ly)?|nasal spray|nasally)\b/i, 'intranasal'],
  [/\b(?:transdermal(?:ly)?|patch)\b/i, 'transdermal'],
  [/\b(?:ophthalmic|eye drops?)\b/i, 'ophthalmic'],
];

/** Frequency phrases, longest first; matched case-insensitively on word boundaries. */
export const FREQUENCY_RE = /\b(?:once (?:a|per) day|once daily|twice (?:a|per) day|twice daily|three times (?:a|per) day|three times daily|four times (?:a|per) day|four times daily|every (?:other day|morning|evening|night|day|week|\d+(?:\s*(?:-|to)\s*\d+)?\s*(?:hours?|hrs?|h|days?|weeks?|months?))|(?:once|twice) (?:a|per) week|(?:once )?weekly|monthly|daily|nightly|at bedtime|at night|in the morning|bid|b\.i\.d\.?|tid|t\.i\.d\.?|qid|q\.i\.d\.?|qd|q\.d\.?|qhs|q\.h\.s\.?|qam|qpm|qod|q\d+(?:-\d+)?h(?:rs?)?|q\s?\d+\s?(?:hours?|hrs?)|prn|p\.r\.n\.?|as needed(?: for [a-z ]+?(?=[,.;)]|$))?)(?:\s+(?:prn|as needed))?/i;

export const DOSE_RE = /\b(\d+(?:[.,]\d+)?(?:\s*(?:-|to|\/)\s*\d+(?:\.\d+)?)?)\s*(mg|mcg|µg|ug|g|grams?|mL|ml|cc|units?|u|iu|meq|mEq|puffs?|tablets?|tabs?|capsules?|caps?|drops?|sprays?|patch(?:es)?|%|mg\/kg|mg\/ml)(?![a-z])/i;

/** Synonym groups used to map text onto a caller's enum values (all lower-case). */
export const ENUM_SYNONYMS: string[][] = [
  ['male', 'm', 'man', 'gentleman', 'boy', 'masculine', 'he', 'mr'],
  ['female', 'f', 'woman', 'lady', 'girl', 'feminine', 'she', 'mrs', 'ms'],
  ['yes', 'true', 'y', 'positive', 'present', 'confirmed'],
  ['no', 'false', 'n', 'negative', 'absent', 'denied', 'none'],
  ['mild', 'slight', 'minor', 'low', 'grade 1'],
  ['moderate', 'medium', 'mod', 'grade 2'],
  ['severe', 'serious', 'high', 'intense', 'grade 3', 'significant'],
  ['current', 'current smoker', 'active', 'currently', 'smokes', 'daily smoker'],
  ['former', 'former smoker', 'ex-smoker', 'quit', 'past', 'previous', 'prior', 'history of', 'used to'],
  ['never', 'never smoker', 'non-smoker', 'nonsmoker', 'denies smoking', 'does not smoke', 'lifetime non-smoker'],
  ['acute', 'sudden', 'new'],
  ['chronic', 'long-standing', 'longstanding', 'persistent'],
  ['oral', 'po', 'by mouth', 'orally'],
  ['intravenous', 'iv'],
  ['intramuscular', 'im'],
  ['subcutaneous', 'sc', 'subq', 'sq'],
  ['inhaled', 'inhalation', 'inhaler', 'nebulized'],
  ['topical', 'topically'],
  ['daily', 'once daily', 'qd', 'once a day', 'every day'],
  ['twice daily', 'bid', 'twice a day', 'b.i.d.'],
  ['three times daily', 'tid', 'three times a day', 't.i.d.'],
  ['four times daily', 'qid', 'four times a day'],
  ['as needed', 'prn', 'as required'],
  ['at bedtime', 'qhs', 'nightly', 'at night'],
  ['improving', 'better', 'improved', 'resolving'],
  ['worsening', 'worse', 'deteriorating', 'progressing'],
  ['stable', 'unchanged', 'same'],
  ['left', 'l', 'left-sided'],
  ['right', 'r', 'right-sided'],
  ['bilateral', 'both', 'both sides'],
  ['active', 'ongoing'],
  ['resolved', 'inactive', 'past', 'healed'],
  ['outpatient', 'clinic', 'office'],
  ['inpatient', 'hospital', 'admitted', 'ward'],
  ['emergency', 'er', 'ed', 'emergency department', 'emergency room'],
  ['married', 'wife', 'husband', 'spouse'],
  ['single', 'unmarried'],
  ['divorced'],
  ['widowed', 'widow', 'widower'],
];
