/**
 * Localised fixed phrases for the eight note languages. The embedded writer translates only
 * what it generates itself (headings and labels from clinical-language/section-labels.ts,
 * "denies"/"reports" findings, symptom and body-system names); sentences taken from the
 * transcript keep the transcript's language, since translating free text needs a language model.
 */
import type { NoteLanguage } from '../../../../shared/languages.js';
import { noteLabels, type NoteLabels } from '../../../services/clinical-language/section-labels.js';
import type { BodySystem } from '../../../services/clinical-language/lexicon.js';
import type { RosFact } from './findings.js';
import type { MedicationFact } from './medication-facts.js';

type WriterPhrase = 'denies' | 'reports' | 'agreement' | 'and' | 'reasoning' | 'testing' | 'treatment' | 'referral' | 'education' | 'followUp';

// Words of the sentences this writer composes itself; headings and labels are shared with the
// language-model writer in clinical-language/section-labels.ts.
const PHRASES: Record<NoteLanguage, Record<WriterPhrase, string>> = {
  en: { denies: 'Denies', reports: 'Endorses', and: 'and', reasoning: 'Medical Reasoning', testing: 'Additional Testing', treatment: 'Medical Treatment',
    referral: 'Specialist Referrals', education: 'Patient Education and Counseling', followUp: 'Follow-up',
    agreement: 'The patient understands and agrees with the recommended treatment plan.' },
  es: { denies: 'Niega', reports: 'Refiere', and: 'y',
    reasoning: 'Razonamiento clínico', testing: 'Pruebas complementarias', treatment: 'Tratamiento', referral: 'Derivaciones', education: 'Educación y consejo al paciente', followUp: 'Seguimiento',
    agreement: 'El paciente comprende y acepta el plan de tratamiento recomendado.' },
  fr: { denies: 'Nie', reports: 'Signale', and: 'et',
    reasoning: 'Raisonnement clinique', testing: 'Examens complémentaires', treatment: 'Traitement', referral: 'Orientation vers un spécialiste', education: 'Éducation et conseils au patient', followUp: 'Suivi',
    agreement: 'Le patient comprend et accepte le plan de traitement recommandé.' },
  de: { denies: 'Verneint', reports: 'Berichtet über', and: 'und',
    reasoning: 'Klinische Begründung', testing: 'Weitere Diagnostik', treatment: 'Therapie', referral: 'Überweisungen', education: 'Patientenaufklärung und Beratung', followUp: 'Wiedervorstellung',
    agreement: 'Der Patient versteht den empfohlenen Behandlungsplan und stimmt ihm zu.' },
  it: { denies: 'Nega', reports: 'Riferisce', and: 'e',
    reasoning: 'Ragionamento clinico', testing: 'Esami aggiuntivi', treatment: 'Terapia', referral: 'Invii specialistici', education: 'Educazione e counseling del paziente', followUp: 'Follow-up',
    agreement: 'Il paziente comprende e accetta il piano di trattamento raccomandato.' },
  pt: { denies: 'Nega', reports: 'Refere', and: 'e',
    reasoning: 'Raciocínio clínico', testing: 'Exames complementares', treatment: 'Tratamento', referral: 'Encaminhamentos', education: 'Educação e aconselhamento do paciente', followUp: 'Seguimento',
    agreement: 'O paciente compreende e concorda com o plano de tratamento recomendado.' },
  ru: { denies: 'Отрицает', reports: 'Отмечает', and: 'и',
    reasoning: 'Клиническое обоснование', testing: 'Дополнительное обследование', treatment: 'Лечение', referral: 'Направления к специалистам', education: 'Обучение и консультирование пациента', followUp: 'Контроль',
    agreement: 'Пациент понимает рекомендованный план лечения и согласен с ним.' },
  zh: { denies: '否认', reports: '自述', and: '和',
    reasoning: '临床推理', testing: '进一步检查', treatment: '治疗', referral: '专科转诊', education: '患者教育与咨询', followUp: '随访',
    agreement: '患者理解并同意推荐的治疗方案。' },
};

/** A heading, label or fixed phrase in the note's language. */
export function phrase(language: NoteLanguage, key: keyof NoteLabels | WriterPhrase): string {
  return key in PHRASES.en ? PHRASES[language][key as WriterPhrase] : noteLabels(language)[key as keyof NoteLabels];
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

/** A structured finding in the note's language. */
export function renderFact(fact: RosFact | MedicationFact | { type: 'agreement' }, language: NoteLanguage): string {
  if (fact.type === 'agreement') return phrase(language, 'agreement');
  if (fact.type === 'medication') return `${fact.drug} ${fact.dose}${fact.frequency ? ` ${fact.frequency}` : ''}.`;
  const sp = language === 'zh' ? '' : ' ';
  const end = language === 'zh' ? '。' : '.';
  const join = (terms: string[]): string =>
    terms.length <= 1 ? terms.join('') : `${terms.slice(0, -1).join(language === 'zh' ? '、' : ', ')}${sp}${phrase(language, 'and')}${sp}${terms[terms.length - 1]}`;
  const parts: string[] = [];
  if (fact.present.length) parts.push(`${phrase(language, 'reports')}${sp}${join(fact.present.map((t) => symptomName(language, t)))}${end}`);
  if (fact.absent.length) parts.push(`${phrase(language, 'denies')}${sp}${join(fact.absent.map((t) => symptomName(language, t)))}${end}`);
  return parts.join(' ');
}

/** A line label (body system, "Neck", "Vitals", a test name) in the note's language when known. */
export function translateLabel(label: string, language: NoteLanguage): string {
  if (label in SYSTEMS) return SYSTEMS[label as BodySystem][language];
  return label;
}
