/**
 * The catalogue of note sections the embedded writer knows, and how a heading someone wrote
 * ("HPI", "Physical Examination", "Assessment & Plan", "Antecedentes familiares") maps onto them.
 */
import type { NoteSectionKind } from '../../../services/clinical-language/section-labels.js';

/** The clinical sections the writer fills: the note sections shared with every writer. */
export type SectionKind = NoteSectionKind;

/** Composite sections a template may ask for, expanded into the kinds they contain. */
export type SectionTarget = SectionKind | 'subjective' | 'objective' | 'assessment_plan' | 'history' | 'summary' | 'unknown';

export const COMPOSITES: Record<Exclude<SectionTarget, SectionKind>, SectionKind[]> = {
  subjective: ['chief_complaint', 'hpi', 'ros', 'pmh', 'surgical', 'medications', 'allergies', 'social', 'family'],
  objective: ['vitals', 'exam', 'results'],
  assessment_plan: ['assessment', 'plan', 'instructions'],
  history: ['pmh', 'surgical', 'social', 'family'],
  summary: ['chief_complaint', 'assessment', 'plan'],
  unknown: [],
};

/** Expand a target into the section kinds whose sentences it shows. */
export function kindsOf(target: SectionTarget): SectionKind[] {
  return target in COMPOSITES ? COMPOSITES[target as keyof typeof COMPOSITES] : [target as SectionKind];
}

// Ordered: the first pattern that matches wins, so specific names come before general ones.
const HEADING_PATTERNS: [RegExp, SectionTarget][] = [
  [/assessment\s*(and|&|\/|y|et|und|e|и|与|和)\s*plan|a\s*\/\s*p\b|a&p|evaluaci[oó]n y plan|évaluation et plan|beurteilung und plan|valutazione e piano|avalia[cç][aã]o e plano|оценка и план|评估与计划|评估和计划/i, 'assessment_plan'],
  [/chief complaint|\bcc\b|reason for (visit|consultation|encounter)|presenting (complaint|problem)|motivo de (consulta|la consulta)|motif de (consultation|la consultation)|hauptbeschwerde|anlass|motivo (della visita|di consulto)|queixa principal|жалобы|主诉/i, 'chief_complaint'],
  [/history of (the )?present(ing)? illness|\bhpi\b|present illness|interval history|enfermedad actual|histoire de la maladie|anamnese|aktuelle|storia clinica|anamnesi|hist[oó]ria da doen[cç]a|анамнез заболевания|现病史/i, 'hpi'],
  [/review of systems|\bros\b|revisi[oó]n por sistemas|revue des syst[eè]mes|systemanamnese|revisione dei sistemi|revis[aã]o de sistemas|обзор систем|系统回顾/i, 'ros'],
  [/surgical|surgeries|procedures|quir[uú]rgic|chirurgica|chirurgie|cirúrgic|хирург|手术/i, 'surgical'],
  [/family|familiar|familiale|famili|семейн|家族/i, 'family'],
  [/social|habits|lifestyle|h[aá]bitos|sociale|sozial|abitudini|социальн|社会/i, 'social'],
  [/allerg|alergi|аллерг|过敏/i, 'allergies'],
  [/medication|medicine|\bmeds\b|prescription|drugs|medicaci[oó]n|medicamento|m[eé]dicaments|traitement actuel|medikament|farmac|terapia|лекарств|препарат|用药|药物/i, 'medications'],
  [/past medical|medical history|\bpmh\b|past history|problem list|comorbid|antecedentes|ant[eé]c[eé]dents|vorerkrankung|anamnesi patologica|hist[oó]rico|анамнез жизни|перенесенн|既往/i, 'pmh'],
  [/vital|signos vitales|signes vitaux|vitalzeichen|parametri vitali|sinais vitais|жизненн|生命体征/i, 'vitals'],
  [/physical|exam|findings|examen|exploraci[oó]n|untersuchung|esame obiettivo|exame f[ií]sico|осмотр|обследован|体格检查|查体/i, 'exam'],
  [/result|lab|imaging|diagnostic|data|investigation|studies|resultado|r[eé]sultat|befund|risultat|результат|анализ|检查结果|辅助检查/i, 'results'],
  [/subjective|subjetivo|subjectif|subjektiv|soggettivo|субъективн|主观/i, 'subjective'],
  [/objective|objetivo|objectif|objektiv|oggettivo|объективн|客观/i, 'objective'],
  [/assessment|impression|diagnos|problem|evaluaci[oó]n|[eé]valuation|beurteilung|valutazione|avalia[cç][aã]o|оценка|диагноз|评估|诊断/i, 'assessment'],
  [/instruction|education|counsel|patient plan|discharge|recomendaciones|consignes|anweisung|istruzioni|orienta[cç][oõ]es|рекомендации|医嘱|指导/i, 'instructions'],
  [/plan|treatment|management|disposition|follow|tratamiento|traitement|behandlung|piano|plano|план|计划|治疗/i, 'plan'],
  [/history|historia|histoire|storia|hist[oó]ria|анамнез|病史/i, 'history'],
  [/summary|impression|resumen|r[eé]sum[eé]|zusammenfassung|riassunto|resumo|резюме|总结/i, 'summary'],
];

/** Map a heading or prompt to the section it asks for; 'unknown' when nothing fits. */
export function targetOfHeading(text: string): SectionTarget {
  for (const [re, target] of HEADING_PATTERNS) if (re.test(text)) return target;
  return 'unknown';
}
