/**
 * Section headings and the fixed words of a note (title, header line, empty-section placeholder,
 * previous-note marker) in the eight note languages. Both note writers render these words by
 * code, so a heading is the same whichever writer produced the note.
 */
import type { NoteLanguage } from '../../../shared/languages.js';

/** The clinical sections a note can have, in the usual order of a clinic note. */
export const NOTE_SECTION_KINDS = [
  'chief_complaint', 'hpi', 'ros', 'pmh', 'surgical', 'medications', 'allergies', 'social', 'family', 'vitals', 'exam', 'results',
  'assessment', 'plan', 'instructions',
] as const;
export type NoteSectionKind = (typeof NOTE_SECTION_KINDS)[number];

/** Every fixed word of a note in one language. */
export interface NoteLabels extends Record<NoteSectionKind, string> {
  /** English name of the language, as a prompt names it to a model. */
  languageName: string;
  soapTitle: string;
  noteTitle: string;
  subjective: string;
  objective: string;
  assessment_plan: string;
  patient: string;
  dateOfBirth: string;
  /** Label of the date of the encounter in the header line. */
  date: string;
  /** Placeholder of a section the encounter says nothing about. */
  notDocumented: string;
  /** Appended to facts that come only from the previous note. */
  fromPreviousNote: string;
  /** Label of the caller's context text. */
  context: string;
  instructionsGiven: string;
}

const LABELS: Record<NoteLanguage, NoteLabels> = {
  en: {
    languageName: 'English', chief_complaint: 'Chief Complaint', hpi: 'History of Present Illness', ros: 'Review of Systems',
    pmh: 'Past Medical History', surgical: 'Past Surgical History', medications: 'Current Medications', allergies: 'Allergies',
    social: 'Social History', family: 'Family History', vitals: 'Vitals', exam: 'Physical Examination', results: 'Results',
    assessment: 'Assessment', plan: 'Plan', instructions: 'Instructions', soapTitle: 'SOAP Note', noteTitle: 'Clinical Note',
    subjective: 'Subjective', objective: 'Objective', assessment_plan: 'Assessment and Plan', patient: 'Patient',
    dateOfBirth: 'Date of birth', date: 'Date', notDocumented: 'Not discussed.', fromPreviousNote: '(from previous note)',
    context: 'Context provided', instructionsGiven: 'Additional instructions',
  },
  es: {
    languageName: 'Spanish', chief_complaint: 'Motivo de consulta', hpi: 'Enfermedad actual', ros: 'Revisión por sistemas',
    pmh: 'Antecedentes médicos', surgical: 'Antecedentes quirúrgicos', medications: 'Medicación actual', allergies: 'Alergias',
    social: 'Antecedentes sociales', family: 'Antecedentes familiares', vitals: 'Signos vitales', exam: 'Exploración física',
    results: 'Resultados', assessment: 'Evaluación', plan: 'Plan', instructions: 'Instrucciones', soapTitle: 'Nota SOAP',
    noteTitle: 'Nota clínica', subjective: 'Subjetivo', objective: 'Objetivo', assessment_plan: 'Evaluación y plan',
    patient: 'Paciente', dateOfBirth: 'Fecha de nacimiento', date: 'Fecha', notDocumented: 'No se comentó.',
    fromPreviousNote: '(de la nota anterior)', context: 'Contexto aportado', instructionsGiven: 'Instrucciones adicionales',
  },
  fr: {
    languageName: 'French', chief_complaint: 'Motif de consultation', hpi: 'Histoire de la maladie', ros: 'Revue des systèmes',
    pmh: 'Antécédents médicaux', surgical: 'Antécédents chirurgicaux', medications: 'Traitement actuel', allergies: 'Allergies',
    social: 'Mode de vie', family: 'Antécédents familiaux', vitals: 'Signes vitaux', exam: 'Examen clinique', results: 'Résultats',
    assessment: 'Évaluation', plan: 'Plan', instructions: 'Consignes', soapTitle: 'Note SOAP', noteTitle: 'Note clinique',
    subjective: 'Subjectif', objective: 'Objectif', assessment_plan: 'Évaluation et plan', patient: 'Patient',
    dateOfBirth: 'Date de naissance', date: 'Date', notDocumented: 'Non abordé.', fromPreviousNote: '(de la note précédente)',
    context: 'Contexte fourni', instructionsGiven: 'Consignes supplémentaires',
  },
  de: {
    languageName: 'German', chief_complaint: 'Hauptbeschwerde', hpi: 'Aktuelle Anamnese', ros: 'Systemanamnese',
    pmh: 'Vorerkrankungen', surgical: 'Operationen', medications: 'Aktuelle Medikation', allergies: 'Allergien',
    social: 'Sozialanamnese', family: 'Familienanamnese', vitals: 'Vitalzeichen', exam: 'Körperliche Untersuchung',
    results: 'Befunde', assessment: 'Beurteilung', plan: 'Plan', instructions: 'Hinweise', soapTitle: 'SOAP-Notiz',
    noteTitle: 'Klinische Notiz', subjective: 'Subjektiv', objective: 'Objektiv', assessment_plan: 'Beurteilung und Plan',
    patient: 'Patient', dateOfBirth: 'Geburtsdatum', date: 'Datum', notDocumented: 'Nicht besprochen.',
    fromPreviousNote: '(aus der vorherigen Notiz)', context: 'Angegebener Kontext', instructionsGiven: 'Zusätzliche Anweisungen',
  },
  it: {
    languageName: 'Italian', chief_complaint: 'Motivo della visita', hpi: 'Anamnesi patologica prossima',
    ros: 'Revisione dei sistemi', pmh: 'Anamnesi patologica remota', surgical: 'Interventi chirurgici',
    medications: 'Terapia in corso', allergies: 'Allergie', social: 'Anamnesi sociale', family: 'Anamnesi familiare',
    vitals: 'Parametri vitali', exam: 'Esame obiettivo', results: 'Risultati', assessment: 'Valutazione', plan: 'Piano',
    instructions: 'Istruzioni', soapTitle: 'Nota SOAP', noteTitle: 'Nota clinica', subjective: 'Soggettivo',
    objective: 'Oggettivo', assessment_plan: 'Valutazione e piano', patient: 'Paziente', dateOfBirth: 'Data di nascita',
    date: 'Data', notDocumented: 'Non discusso.', fromPreviousNote: '(dalla nota precedente)', context: 'Contesto fornito',
    instructionsGiven: 'Istruzioni aggiuntive',
  },
  pt: {
    languageName: 'Portuguese', chief_complaint: 'Queixa principal', hpi: 'História da doença atual', ros: 'Revisão de sistemas',
    pmh: 'Antecedentes médicos', surgical: 'Antecedentes cirúrgicos', medications: 'Medicação atual', allergies: 'Alergias',
    social: 'História social', family: 'História familiar', vitals: 'Sinais vitais', exam: 'Exame físico', results: 'Resultados',
    assessment: 'Avaliação', plan: 'Plano', instructions: 'Orientações', soapTitle: 'Nota SOAP', noteTitle: 'Nota clínica',
    subjective: 'Subjetivo', objective: 'Objetivo', assessment_plan: 'Avaliação e plano', patient: 'Paciente',
    dateOfBirth: 'Data de nascimento', date: 'Data', notDocumented: 'Não abordado.', fromPreviousNote: '(da nota anterior)',
    context: 'Contexto fornecido', instructionsGiven: 'Instruções adicionais',
  },
  ru: {
    languageName: 'Russian', chief_complaint: 'Жалобы', hpi: 'Анамнез заболевания', ros: 'Обзор систем',
    pmh: 'Перенесённые заболевания', surgical: 'Операции', medications: 'Текущая терапия', allergies: 'Аллергии',
    social: 'Социальный анамнез', family: 'Семейный анамнез', vitals: 'Показатели жизнедеятельности', exam: 'Объективный осмотр',
    results: 'Результаты обследований', assessment: 'Оценка', plan: 'План', instructions: 'Рекомендации', soapTitle: 'SOAP-запись',
    noteTitle: 'Клиническая запись', subjective: 'Субъективно', objective: 'Объективно', assessment_plan: 'Оценка и план',
    patient: 'Пациент', dateOfBirth: 'Дата рождения', date: 'Дата', notDocumented: 'Не обсуждалось.',
    fromPreviousNote: '(из предыдущей записи)', context: 'Предоставленный контекст', instructionsGiven: 'Дополнительные указания',
  },
  zh: {
    languageName: 'Chinese (Simplified)', chief_complaint: '主诉', hpi: '现病史', ros: '系统回顾', pmh: '既往史', surgical: '手术史',
    medications: '当前用药', allergies: '过敏史', social: '社会史', family: '家族史', vitals: '生命体征', exam: '体格检查', results: '检查结果',
    assessment: '评估', plan: '计划', instructions: '医嘱', soapTitle: 'SOAP 病历', noteTitle: '临床病历', subjective: '主观资料',
    objective: '客观资料', assessment_plan: '评估与计划', patient: '患者', dateOfBirth: '出生日期', date: '日期', notDocumented: '未讨论。',
    fromPreviousNote: '（来自上次记录）', context: '提供的背景', instructionsGiven: '附加说明',
  },
};

/** The fixed words of a note in `language`. */
export function noteLabels(language: NoteLanguage): NoteLabels {
  return LABELS[language];
}
