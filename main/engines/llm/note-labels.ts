/**
 * Fixed words of an LLM-written note in the eight note languages: SOAP headings, the header line,
 * the empty-section placeholder and the carried-forward marker. The model writes the content in
 * the target language; these words are rendered by code so they are always the same.
 */
import type { NoteLanguage } from '../../../shared/languages.js';

export interface NoteLabels {
  /** English name of the language, as the prompt names it to the model. */
  languageName: string;
  subjective: string;
  objective: string;
  assessment: string;
  plan: string;
  patient: string;
  dateOfBirth: string;
  date: string;
  notDocumented: string;
  /** Appended to facts that come only from the previous note. */
  fromPreviousNote: string;
}

const LABELS: Record<NoteLanguage, NoteLabels> = {
  en: {
    languageName: 'English',
    subjective: 'Subjective',
    objective: 'Objective',
    assessment: 'Assessment',
    plan: 'Plan',
    patient: 'Patient',
    dateOfBirth: 'Date of birth',
    date: 'Date',
    notDocumented: 'Not documented.',
    fromPreviousNote: '(from previous note)',
  },
  es: {
    languageName: 'Spanish',
    subjective: 'Subjetivo',
    objective: 'Objetivo',
    assessment: 'Evaluación',
    plan: 'Plan',
    patient: 'Paciente',
    dateOfBirth: 'Fecha de nacimiento',
    date: 'Fecha',
    notDocumented: 'No documentado.',
    fromPreviousNote: '(de la nota anterior)',
  },
  fr: {
    languageName: 'French',
    subjective: 'Subjectif',
    objective: 'Objectif',
    assessment: 'Évaluation',
    plan: 'Plan',
    patient: 'Patient',
    dateOfBirth: 'Date de naissance',
    date: 'Date',
    notDocumented: 'Non documenté.',
    fromPreviousNote: '(de la note précédente)',
  },
  de: {
    languageName: 'German',
    subjective: 'Subjektiv',
    objective: 'Objektiv',
    assessment: 'Beurteilung',
    plan: 'Plan',
    patient: 'Patient',
    dateOfBirth: 'Geburtsdatum',
    date: 'Datum',
    notDocumented: 'Nicht dokumentiert.',
    fromPreviousNote: '(aus der vorherigen Notiz)',
  },
  it: {
    languageName: 'Italian',
    subjective: 'Soggettivo',
    objective: 'Oggettivo',
    assessment: 'Valutazione',
    plan: 'Piano',
    patient: 'Paziente',
    dateOfBirth: 'Data di nascita',
    date: 'Data',
    notDocumented: 'Non documentato.',
    fromPreviousNote: '(dalla nota precedente)',
  },
  pt: {
    languageName: 'Portuguese',
    subjective: 'Subjetivo',
    objective: 'Objetivo',
    assessment: 'Avaliação',
    plan: 'Plano',
    patient: 'Paciente',
    dateOfBirth: 'Data de nascimento',
    date: 'Data',
    notDocumented: 'Não documentado.',
    fromPreviousNote: '(da nota anterior)',
  },
  ru: {
    languageName: 'Russian',
    subjective: 'Субъективно',
    objective: 'Объективно',
    assessment: 'Оценка',
    plan: 'План',
    patient: 'Пациент',
    dateOfBirth: 'Дата рождения',
    date: 'Дата',
    notDocumented: 'Не задокументировано.',
    fromPreviousNote: '(из предыдущей записи)',
  },
  zh: {
    languageName: 'Chinese (Simplified)',
    subjective: '主观资料',
    objective: '客观资料',
    assessment: '评估',
    plan: '计划',
    patient: '患者',
    dateOfBirth: '出生日期',
    date: '日期',
    notDocumented: '未记录。',
    fromPreviousNote: '（来自上次记录）',
  },
};

/** Labels for a note language. */
export function noteLabels(language: NoteLanguage): NoteLabels {
  return LABELS[language];
}
