/**
 * Section headings and the fixed words of a note (title, header line, empty-section placeholder,
 * previous-note marker) in the eight note languages. Both note writers render these words by
 * code, so a heading is the same whichever writer produced the note.
 */
import { NOTE_LANGUAGES, type NoteLanguage } from '../../../shared/languages.js';

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

/** One word in each note language, in the order of NOTE_LANGUAGES. */
type InEveryLanguage = readonly [en: string, es: string, fr: string, de: string, it: string, pt: string, ru: string, zh: string];

/**
 * Each fixed word in the eight languages, in the order of NOTE_LANGUAGES (en, es, fr, de, it, pt,
 * ru, zh): one row a term, so a translator reads a term across the languages side by side.
 */
const TERMS: Record<keyof NoteLabels, InEveryLanguage> = {
languageName: ['English', 'Spanish', 'French', 'German', 'Italian', 'Portuguese', 'Russian', 'Chinese (Simplified)'],
  chief_complaint: ['Chief Complaint', 'Motivo de consulta', 'Motif de consultation', 'Hauptbeschwerde', 'Motivo della visita', 'Queixa principal', 'Жалобы', '主诉'],
  hpi: ['History of Present Illness', 'Enfermedad actual', 'Histoire de la maladie', 'Aktuelle Anamnese', 'Anamnesi patologica prossima', 'História da doença atual', 'Анамнез заболевания', '现病史'],
  ros: ['Review of Systems', 'Revisión por sistemas', 'Revue des systèmes', 'Systemanamnese', 'Revisione dei sistemi', 'Revisão de sistemas', 'Обзор систем', '系统回顾'],
  pmh: ['Past Medical History', 'Antecedentes médicos', 'Antécédents médicaux', 'Vorerkrankungen', 'Anamnesi patologica remota', 'Antecedentes médicos', 'Перенесённые заболевания', '既往史'],
  surgical: ['Past Surgical History', 'Antecedentes quirúrgicos', 'Antécédents chirurgicaux', 'Operationen', 'Interventi chirurgici', 'Antecedentes cirúrgicos', 'Операции', '手术史'],
  medications: ['Current Medications', 'Medicación actual', 'Traitement actuel', 'Aktuelle Medikation', 'Terapia in corso', 'Medicação atual', 'Текущая терапия', '当前用药'],
  allergies: ['Allergies', 'Alergias', 'Allergies', 'Allergien', 'Allergie', 'Alergias', 'Аллергии', '过敏史'],
  social: ['Social History', 'Antecedentes sociales', 'Mode de vie', 'Sozialanamnese', 'Anamnesi sociale', 'História social', 'Социальный анамнез', '社会史'],
  family: ['Family History', 'Antecedentes familiares', 'Antécédents familiaux', 'Familienanamnese', 'Anamnesi familiare', 'História familiar', 'Семейный анамнез', '家族史'],
  vitals: ['Vitals', 'Signos vitales', 'Signes vitaux', 'Vitalzeichen', 'Parametri vitali', 'Sinais vitais', 'Показатели жизнедеятельности', '生命体征'],
  exam: ['Physical Examination', 'Exploración física', 'Examen clinique', 'Körperliche Untersuchung', 'Esame obiettivo', 'Exame físico', 'Объективный осмотр', '体格检查'],
  results: ['Results', 'Resultados', 'Résultats', 'Befunde', 'Risultati', 'Resultados', 'Результаты обследований', '检查结果'],
  assessment: ['Assessment', 'Evaluación', 'Évaluation', 'Beurteilung', 'Valutazione', 'Avaliação', 'Оценка', '评估'],
  plan: ['Plan', 'Plan', 'Plan', 'Plan', 'Piano', 'Plano', 'План', '计划'],
  instructions: ['Instructions', 'Instrucciones', 'Consignes', 'Hinweise', 'Istruzioni', 'Orientações', 'Рекомендации', '医嘱'],
  soapTitle: ['SOAP Note', 'Nota SOAP', 'Note SOAP', 'SOAP-Notiz', 'Nota SOAP', 'Nota SOAP', 'SOAP-запись', 'SOAP 病历'],
  noteTitle: ['Clinical Note', 'Nota clínica', 'Note clinique', 'Klinische Notiz', 'Nota clinica', 'Nota clínica', 'Клиническая запись', '临床病历'],
  subjective: ['Subjective', 'Subjetivo', 'Subjectif', 'Subjektiv', 'Soggettivo', 'Subjetivo', 'Субъективно', '主观资料'],
  objective: ['Objective', 'Objetivo', 'Objectif', 'Objektiv', 'Oggettivo', 'Objetivo', 'Объективно', '客观资料'],
  assessment_plan: ['Assessment and Plan', 'Evaluación y plan', 'Évaluation et plan', 'Beurteilung und Plan', 'Valutazione e piano', 'Avaliação e plano', 'Оценка и план', '评估与计划'],
  patient: ['Patient', 'Paciente', 'Patient', 'Patient', 'Paziente', 'Paciente', 'Пациент', '患者'],
  dateOfBirth: ['Date of birth', 'Fecha de nacimiento', 'Date de naissance', 'Geburtsdatum', 'Data di nascita', 'Data de nascimento', 'Дата рождения', '出生日期'],
  date: ['Date', 'Fecha', 'Date', 'Datum', 'Data', 'Data', 'Дата', '日期'],
  // A section the writer found nothing for. Not "Not discussed": that is a statement about the visit a
  // physician would sign, and it was false wherever the writer missed what was said (a reviewer found it
  // over a dictated exam, assessment or plan in 4 of 12 held-out notes).
  notDocumented: [
    'Nothing recorded here; check the transcript.', 'Nada registrado aquí; revise la transcripción.', 'Rien de consigné ici ; vérifier la transcription.',
    'Hier nichts erfasst; bitte das Transkript prüfen.', 'Nulla registrato qui; controllare la trascrizione.', 'Nada registado aqui; verifique a transcrição.',
    'Здесь ничего не записано; проверьте расшифровку.', '此处未记录；请核对转录文本。',
  ],
  fromPreviousNote: ['(from previous note)', '(de la nota anterior)', '(de la note précédente)', '(aus der vorherigen Notiz)', '(dalla nota precedente)', '(da nota anterior)', '(из предыдущей записи)', '（来自上次记录）'],
  context: ['Context provided', 'Contexto aportado', 'Contexte fourni', 'Angegebener Kontext', 'Contesto fornito', 'Contexto fornecido', 'Предоставленный контекст', '提供的背景'],
  instructionsGiven: ['Additional instructions', 'Instrucciones adicionales', 'Consignes supplémentaires', 'Zusätzliche Anweisungen', 'Istruzioni aggiuntive', 'Instruções adicionais', 'Дополнительные указания', '附加说明'],
};

const LABELS = Object.fromEntries(
  NOTE_LANGUAGES.map((language, i) => [language, Object.fromEntries(Object.entries(TERMS).map(([key, words]) => [key, words[i]!])) as unknown as NoteLabels]),
) as Record<NoteLanguage, NoteLabels>;

/** The fixed words of a note in `language`. */
export function noteLabels(language: NoteLanguage): NoteLabels {
  return LABELS[language];
}
