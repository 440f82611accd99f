/**
 * Clinical abbreviations as a note writes them: the reading side lower-cases what was said, so a
 * note would otherwise read "Copd", "Mri: Normal" or "Hemoglobin a1c". Only whole words change;
 * a word inside another ("non-hdl" aside, written "non-HDL") or a name in the header is left alone.
 */
const UPPER = [
  'copd', 'gerd', 'mri', 'ct', 'ekg', 'ecg', 'eeg', 'emg', 'hdl', 'ldl', 'tsh', 'cbc', 'bnp', 'psa', 'inr', 'crp', 'esr', 'bmp', 'cmp', 'alt', 'ast',
  'adhd', 'hiv', 'uti', 'dvt', 'ckd', 'chf', 'cad', 'bph', 'ptsd', 'ibs', 'acl', 'mcl', 'ent', 'nsaid', 'hcv', 'ssri', 'ppi', 'icu',
];
const MIXED: Record<string, string> = { a1c: 'A1c', hba1c: 'HbA1c', egfr: 'eGFR', nsaids: 'NSAIDs', 'non-hdl': 'non-HDL', 'nt-probnp': 'NT-proBNP' };
const WORDS = [...Object.keys(MIXED), ...UPPER].sort((a, b) => b.length - a.length);
const ABBREVIATION = new RegExp(String.raw`(?<![\p{L}\p{N}'-])(${WORDS.join('|')})(?![\p{L}\p{N}'-])`, 'giu');

/** The text with each clinical abbreviation written as clinicians write it ("copd" -> "COPD", "a1c" -> "A1c"). */
export function clinicalCase(text: string): string {
  return text.replace(ABBREVIATION, (w) => MIXED[w.toLowerCase()] ?? w.toUpperCase());
}
