/**
 * Localised headings and fixed phrases for the eight note languages. The embedded writer
 * translates only what it generates itself (headings, labels, "denies"/"reports" findings,
 * symptom and body-system names, placeholders); sentences taken from the transcript keep the
 * transcript's language, since translating free text needs a language model.
 */
import type { NoteLanguage } from '../../../../shared/languages.js';
import type { SectionKind } from './sections.js';
import type { BodySystem } from '../../../services/clinical-language/lexicon.js';

type Phrase =
  | 'soapTitle' | 'noteTitle' | 'subjective' | 'objective' | 'assessment_plan'
  | 'denies' | 'reports' | 'notDocumented' | 'patient' | 'dateOfBirth' | 'date'
  | 'previousNote' | 'context' | 'instructionsGiven' | 'agreement' | 'and';

type Table = Record<SectionKind | Phrase, string>;

const EN: Table = {
  chief_complaint: 'Chief Complaint', hpi: 'History of Present Illness', ros: 'Review of Systems', pmh: 'Past Medical History',
  surgical: 'Past Surgical History', medications: 'Current Medications', allergies: 'Allergies', social: 'Social History',
  family: 'Family History', vitals: 'Vitals', exam: 'Physical Examination', results: 'Results', assessment: 'Assessment', plan: 'Plan',
  instructions: 'Instructions', soapTitle: 'SOAP Note', noteTitle: 'Clinical Note', subjective: 'Subjective', objective: 'Objective',
  assessment_plan: 'Assessment and Plan', denies: 'Denies', reports: 'Endorses', notDocumented: 'Not discussed.', patient: 'Patient',
  dateOfBirth: 'Date of birth', date: 'Date of service', previousNote: 'Carried forward from previous note', context: 'Context provided',
  instructionsGiven: 'Additional instructions', agreement: 'The patient understands and agrees with the recommended treatment plan.', and: 'and',
};
const ES: Table = {
  chief_complaint: 'Motivo de consulta', hpi: 'Enfermedad actual', ros: 'Revisión por sistemas', pmh: 'Antecedentes médicos',
  surgical: 'Antecedentes quirúrgicos', medications: 'Medicación actual', allergies: 'Alergias', social: 'Antecedentes sociales',
  family: 'Antecedentes familiares', vitals: 'Signos vitales', exam: 'Exploración física', results: 'Resultados', assessment: 'Evaluación', plan: 'Plan',
  instructions: 'Instrucciones', soapTitle: 'Nota SOAP', noteTitle: 'Nota clínica', subjective: 'Subjetivo', objective: 'Objetivo',
  assessment_plan: 'Evaluación y plan', denies: 'Niega', reports: 'Refiere', notDocumented: 'No se comentó.', patient: 'Paciente',
  dateOfBirth: 'Fecha de nacimiento', date: 'Fecha de la consulta', previousNote: 'Tomado de la nota anterior', context: 'Contexto aportado',
  instructionsGiven: 'Instrucciones adicionales', agreement: 'El paciente comprende y acepta el plan de tratamiento recomendado.', and: 'y',
};
const FR: Table = {
  chief_complaint: 'Motif de consultation', hpi: 'Histoire de la maladie', ros: 'Revue des systèmes', pmh: 'Antécédents médicaux',
  surgical: 'Antécédents chirurgicaux', medications: 'Traitement actuel', allergies: 'Allergies', social: 'Mode de vie',
  family: 'Antécédents familiaux', vitals: 'Signes vitaux', exam: 'Examen clinique', results: 'Résultats', assessment: 'Évaluation', plan: 'Plan',
  instructions: 'Consignes', soapTitle: 'Note SOAP', noteTitle: 'Note clinique', subjective: 'Subjectif', objective: 'Objectif',
  assessment_plan: 'Évaluation et plan', denies: 'Nie', reports: 'Signale', notDocumented: 'Non abordé.', patient: 'Patient',
  dateOfBirth: 'Date de naissance', date: 'Date de consultation', previousNote: 'Repris de la note précédente', context: 'Contexte fourni',
  instructionsGiven: 'Consignes supplémentaires', agreement: 'Le patient comprend et accepte le plan de traitement recommandé.', and: 'et',
};
const DE: Table = {
  chief_complaint: 'Hauptbeschwerde', hpi: 'Aktuelle Anamnese', ros: 'Systemanamnese', pmh: 'Vorerkrankungen',
  surgical: 'Operationen', medications: 'Aktuelle Medikation', allergies: 'Allergien', social: 'Sozialanamnese',
  family: 'Familienanamnese', vitals: 'Vitalzeichen', exam: 'Körperliche Untersuchung', results: 'Befunde', assessment: 'Beurteilung', plan: 'Plan',
  instructions: 'Hinweise', soapTitle: 'SOAP-Notiz', noteTitle: 'Klinische Notiz', subjective: 'Subjektiv', objective: 'Objektiv',
  assessment_plan: 'Beurteilung und Plan', denies: 'Verneint', reports: 'Berichtet über', notDocumented: 'Nicht besprochen.', patient: 'Patient',
  dateOfBirth: 'Geburtsdatum', date: 'Datum der Vorstellung', previousNote: 'Aus der vorherigen Notiz übernommen', context: 'Angegebener Kontext',
  instructionsGiven: 'Zusätzliche Anweisungen', agreement: 'Der Patient versteht den empfohlenen Behandlungsplan und stimmt ihm zu.', and: 'und',
};
const IT: Table = {
  chief_complaint: 'Motivo della visita', hpi: 'Anamnesi patologica prossima', ros: 'Revisione dei sistemi', pmh: 'Anamnesi patologica remota',
  surgical: 'Interventi chirurgici', medications: 'Terapia in corso', allergies: 'Allergie', social: 'Anamnesi sociale',
  family: 'Anamnesi familiare', vitals: 'Parametri vitali', exam: 'Esame obiettivo', results: 'Risultati', assessment: 'Valutazione', plan: 'Piano',
  instructions: 'Istruzioni', soapTitle: 'Nota SOAP', noteTitle: 'Nota clinica', subjective: 'Soggettivo', objective: 'Oggettivo',
  assessment_plan: 'Valutazione e piano', denies: 'Nega', reports: 'Riferisce', notDocumented: 'Non discusso.', patient: 'Paziente',
  dateOfBirth: 'Data di nascita', date: 'Data della visita', previousNote: 'Riportato dalla nota precedente', context: 'Contesto fornito',
  instructionsGiven: 'Istruzioni aggiuntive', agreement: 'Il paziente comprende e accetta il piano di trattamento raccomandato.', and: 'e',
};
const PT: Table = {
  chief_complaint: 'Queixa principal', hpi: 'História da doença atual', ros: 'Revisão de sistemas', pmh: 'Antecedentes médicos',
  surgical: 'Antecedentes cirúrgicos', medications: 'Medicação atual', allergies: 'Alergias', social: 'História social',
  family: 'História familiar', vitals: 'Sinais vitais', exam: 'Exame físico', results: 'Resultados', assessment: 'Avaliação', plan: 'Plano',
  instructions: 'Orientações', soapTitle: 'Nota SOAP', noteTitle: 'Nota clínica', subjective: 'Subjetivo', objective: 'Objetivo',
  assessment_plan: 'Avaliação e plano', denies: 'Nega', reports: 'Refere', notDocumented: 'Não abordado.', patient: 'Paciente',
  dateOfBirth: 'Data de nascimento', date: 'Data do atendimento', previousNote: 'Transportado da nota anterior', context: 'Contexto fornecido',
  instructionsGiven: 'Instruções adicionais', agreement: 'O paciente compreende e concorda com o plano de tratamento recomendado.', and: 'e',
};
const RU: Table = {
  chief_complaint: 'Жалобы', hpi: 'Анамнез заболевания', ros: 'Обзор систем', pmh: 'Перенесённые заболевания',
  surgical: 'Операции', medications: 'Текущая терапия', allergies: 'Аллергии', social: 'Социальный анамнез',
  family: 'Семейный анамнез', vitals: 'Показатели жизнедеятельности', exam: 'Объективный осмотр', results: 'Результаты обследований', assessment: 'Оценка', plan: 'План',
  instructions: 'Рекомендации', soapTitle: 'SOAP-запись', noteTitle: 'Клиническая запись', subjective: 'Субъективно', objective: 'Объективно',
  assessment_plan: 'Оценка и план', denies: 'Отрицает', reports: 'Отмечает', notDocumented: 'Не обсуждалось.', patient: 'Пациент',
  dateOfBirth: 'Дата рождения', date: 'Дата приёма', previousNote: 'Перенесено из предыдущей записи', context: 'Предоставленный контекст',
  instructionsGiven: 'Дополнительные указания', agreement: 'Пациент понимает рекомендованный план лечения и согласен с ним.', and: 'и',
};
const ZH: Table = {
  chief_complaint: '主诉', hpi: '现病史', ros: '系统回顾', pmh: '既往史', surgical: '手术史', medications: '当前用药', allergies: '过敏史',
  social: '社会史', family: '家族史', vitals: '生命体征', exam: '体格检查', results: '检查结果', assessment: '评估', plan: '计划', instructions: '医嘱',
  soapTitle: 'SOAP 病历', noteTitle: '临床病历', subjective: '主观资料', objective: '客观资料', assessment_plan: '评估与计划', denies: '否认',
  reports: '自述', notDocumented: '未讨论。', patient: '患者', dateOfBirth: '出生日期', date: '就诊日期', previousNote: '沿用上次病历',
  context: '提供的背景', instructionsGiven: '附加说明', agreement: '患者理解并同意推荐的治疗方案。', and: '和',
};

const TABLES: Record<NoteLanguage, Table> = { en: EN, es: ES, fr: FR, de: DE, it: IT, pt: PT, ru: RU, zh: ZH };

/** A heading or fixed phrase in the note's language. */
export function phrase(language: NoteLanguage, key: SectionKind | Phrase): string {
  return TABLES[language][key];
}

const SYSTEMS: Record<BodySystem, Record<NoteLanguage, string>> = {
  Constitutional: { en: 'Constitutional', es: 'General', fr: 'Général', de: 'Allgemein', it: 'Generale', pt: 'Geral', ru: 'Общее', zh: '一般情况' },
  HEENT: { en: 'HEENT', es: 'Cabeza y cuello', fr: 'ORL', de: 'HNO/Augen', it: 'Testa e collo', pt: 'Cabeça e pescoço', ru: 'ЛОР-органы', zh: '头颈五官' },
  Cardiovascular: { en: 'Cardiovascular', es: 'Cardiovascular', fr: 'Cardiovasculaire', de: 'Herz-Kreislauf', it: 'Cardiovascolare', pt: 'Cardiovascular', ru: 'Сердечно-сосудистая система', zh: '心血管' },
  Respiratory: { en: 'Respiratory', es: 'Respiratorio', fr: 'Respiratoire', de: 'Atmung', it: 'Respiratorio', pt: 'Respiratório', ru: 'Дыхательная система', zh: '呼吸' },
  Gastrointestinal: { en: 'Gastrointestinal', es: 'Gastrointestinal', fr: 'Digestif', de: 'Gastrointestinal', it: 'Gastrointestinale', pt: 'Gastrointestinal', ru: 'ЖКТ', zh: '消化' },
  Genitourinary: { en: 'Genitourinary', es: 'Genitourinario', fr: 'Génito-urinaire', de: 'Urogenital', it: 'Genitourinario', pt: 'Geniturinário', ru: 'Мочеполовая система', zh: '泌尿生殖' },
  Musculoskeletal: { en: 'Musculoskeletal', es: 'Musculoesquelético', fr: 'Locomoteur', de: 'Bewegungsapparat', it: 'Muscoloscheletrico', pt: 'Musculoesquelético', ru: 'Опорно-двигательный аппарат', zh: '肌肉骨骼' },
  Neurological: { en: 'Neurological', es: 'Neurológico', fr: 'Neurologique', de: 'Neurologisch', it: 'Neurologico', pt: 'Neurológico', ru: 'Нервная система', zh: '神经' },
  Psychiatric: { en: 'Psychiatric', es: 'Psiquiátrico', fr: 'Psychiatrique', de: 'Psychisch', it: 'Psichiatrico', pt: 'Psiquiátrico', ru: 'Психическое состояние', zh: '精神' },
  Skin: { en: 'Skin', es: 'Piel', fr: 'Peau', de: 'Haut', it: 'Cute', pt: 'Pele', ru: 'Кожа', zh: '皮肤' },
  Endocrine: { en: 'Endocrine', es: 'Endocrino', fr: 'Endocrinien', de: 'Endokrin', it: 'Endocrino', pt: 'Endócrino', ru: 'Эндокринная система', zh: '内分泌' },
  Hematologic: { en: 'Hematologic', es: 'Hematológico', fr: 'Hématologique', de: 'Hämatologisch', it: 'Ematologico', pt: 'Hematológico', ru: 'Кроветворение', zh: '血液' },
};

/** A body-system name in the note's language. */
export function systemName(language: NoteLanguage, system: BodySystem): string {
  return SYSTEMS[system][language];
}

// Symptom names for generated findings ("Denies fever"); English keys are the lexicon's terms.
const SYMPTOM_TERMS: Record<string, [string, string, string, string, string, string, string]> = {
  // es, fr, de, it, pt, ru, zh
  fever: ['fiebre', 'fièvre', 'Fieber', 'febbre', 'febre', 'лихорадку', '发热'],
  chills: ['escalofríos', 'frissons', 'Schüttelfrost', 'brividi', 'calafrios', 'озноб', '寒战'],
  'night sweats': ['sudoración nocturna', 'sueurs nocturnes', 'Nachtschweiß', 'sudorazioni notturne', 'suores noturnos', 'ночную потливость', '盗汗'],
  fatigue: ['cansancio', 'fatigue', 'Müdigkeit', 'stanchezza', 'cansaço', 'слабость', '乏力'],
  'weight loss': ['pérdida de peso', 'perte de poids', 'Gewichtsverlust', 'perdita di peso', 'perda de peso', 'потерю веса', '体重减轻'],
  'weight gain': ['aumento de peso', 'prise de poids', 'Gewichtszunahme', 'aumento di peso', 'ganho de peso', 'прибавку веса', '体重增加'],
  headache: ['cefalea', 'céphalées', 'Kopfschmerzen', 'cefalea', 'cefaleia', 'головную боль', '头痛'],
  dizziness: ['mareo', 'vertiges', 'Schwindel', 'vertigini', 'tontura', 'головокружение', '头晕'],
  nausea: ['náuseas', 'nausées', 'Übelkeit', 'nausea', 'náuseas', 'тошноту', '恶心'],
  vomiting: ['vómitos', 'vomissements', 'Erbrechen', 'vomito', 'vômitos', 'рвоту', '呕吐'],
  diarrhea: ['diarrea', 'diarrhée', 'Durchfall', 'diarrea', 'diarreia', 'диарею', '腹泻'],
  constipation: ['estreñimiento', 'constipation', 'Verstopfung', 'stitichezza', 'constipação', 'запор', '便秘'],
  'abdominal pain': ['dolor abdominal', 'douleur abdominale', 'Bauchschmerzen', 'dolore addominale', 'dor abdominal', 'боль в животе', '腹痛'],
  'chest pain': ['dolor torácico', 'douleur thoracique', 'Brustschmerzen', 'dolore toracico', 'dor torácica', 'боль в груди', '胸痛'],
  palpitations: ['palpitaciones', 'palpitations', 'Herzklopfen', 'palpitazioni', 'palpitações', 'сердцебиение', '心悸'],
  'shortness of breath': ['disnea', 'essoufflement', 'Atemnot', 'dispnea', 'falta de ar', 'одышку', '气短'],
  cough: ['tos', 'toux', 'Husten', 'tosse', 'tosse', 'кашель', '咳嗽'],
  wheezing: ['sibilancias', 'sifflements', 'Giemen', 'respiro sibilante', 'sibilância', 'свистящее дыхание', '喘鸣'],
  rash: ['exantema', 'éruption cutanée', 'Hautausschlag', 'eruzione cutanea', 'erupção cutânea', 'сыпь', '皮疹'],
  numbness: ['entumecimiento', 'engourdissement', 'Taubheitsgefühl', 'intorpidimento', 'dormência', 'онемение', '麻木'],
  tingling: ['hormigueo', 'picotements', 'Kribbeln', 'formicolio', 'formigamento', 'покалывание', '刺痛感'],
  weakness: ['debilidad', 'faiblesse', 'Schwäche', 'debolezza', 'fraqueza', 'слабость в конечностях', '无力'],
  anxiety: ['ansiedad', 'anxiété', 'Angst', 'ansia', 'ansiedade', 'тревогу', '焦虑'],
  depression: ['depresión', 'dépression', 'Depression', 'depressione', 'depressão', 'депрессию', '抑郁'],
};
const INDEX: Record<NoteLanguage, number> = { en: -1, es: 0, fr: 1, de: 2, it: 3, pt: 4, ru: 5, zh: 6 };

/** A symptom name in the note's language; English when no translation is known. */
export function symptomName(language: NoteLanguage, term: string): string {
  const i = INDEX[language];
  if (i < 0) return term;
  return SYMPTOM_TERMS[term]?.[i] ?? term;
}
