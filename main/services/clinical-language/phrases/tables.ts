/**
 * Clinical phrase tables of the eight note languages (data; sources in README.md beside this
 * file). A writer renders structured facts with them; what a table lacks stays in the
 * transcript's language, marked.
 */
import type { NoteLanguage } from '../../../../shared/languages.js';
import { DE } from './de.js';
import { EN } from './en.js';
import { ES } from './es.js';
import { FR } from './fr.js';
import { IT } from './it.js';
import { PT } from './pt.js';
import { RU } from './ru.js';
import { ZH } from './zh.js';
import type { ClinicalPhrases } from './types.js';

export type { ClinicalPhrases, DrugAction, PlanLabels, VitalKey } from './types.js';
export { AMOUNT_KEYS, CONDITION_KEYS, EXAM_KEYS, SPECIALTY_KEYS, SYMPTOM_KEYS, TEST_KEYS } from './keys.js';

const TABLES: Record<NoteLanguage, ClinicalPhrases> = { en: EN, es: ES, fr: FR, de: DE, it: IT, pt: PT, ru: RU, zh: ZH };

/** The phrase table of a note language. */
export function clinicalPhrases(language: NoteLanguage): ClinicalPhrases {
  return TABLES[language];
}

/**
 * A term from one of a table's lists (`symptoms`, `conditions`, `tests`, `specialties`,
 * `exam`, `amounts`): English gives the term back as it is; another language gives its entry,
 * or undefined when the table has none (the caller then keeps the English, marked).
 */
export function termIn(
  language: NoteLanguage,
  list: 'symptoms' | 'conditions' | 'tests' | 'specialties' | 'exam' | 'amounts',
  key: string,
): string | undefined {
  const k = key.toLowerCase();
  return TABLES[language][list][k] ?? (language === 'en' ? key : undefined);
}

/** Fills `{slot}` placeholders; an empty slot takes the space before it along. */
export function fillTemplate(template: string, slots: Record<string, string | undefined>): string {
  return template
    .replace(/(\s*)\{(\w+)\}/g, (_m, space: string, name: string) => (slots[name] ? `${space}${slots[name]}` : ''))
    .replace(/\s+([.,。，])/g, '$1')
    .replace(/([，,])\s*([.。])/g, '$2')
    .trim();
}
