/**
 * Office E/M level (99202-99205 new, 99212-99215 established) from what the note documents:
 * medical decision making (problems addressed, data reviewed or ordered, risk of management;
 * two of three decide) or total time on the date of the encounter, whichever supports the higher
 * level. Code numbers only: the CPT descriptors are the AMA's and are shown only from a table the
 * operator licenses.
 */
import type { NoteDocument } from '../encounter/written-note.js';
import type { IcdSuggestion } from './icd-coder.js';
import type { EvidenceSpan } from './offsets.js';

export type MdmLevel = 'straightforward' | 'low' | 'moderate' | 'high';
const LEVELS: MdmLevel[] = ['straightforward', 'low', 'moderate', 'high'];

/** How the level was reached, for the physician to check. */
export interface EmReasoning {
  patient: 'new' | 'established';
  basis: 'mdm' | 'time';
  mdm: MdmLevel;
  problems: MdmLevel;
  data: MdmLevel;
  risk: MdmLevel;
  minutes?: number;
  /** One line per finding that counted ("2 stable chronic illnesses", "prescription drug management"). */
  findings: string[];
}

export interface EmSuggestion {
  code: string;
  level: 2 | 3 | 4 | 5;
  reasoning: EmReasoning;
  /** UTF-16 spans of the time statement and the management that set the risk. */
  spans: { start: number; end: number }[];
  /** Evidence of the problems addressed (already in code points, from the ICD-10-CM suggestions). */
  problemEvidence: EvidenceSpan[];
  confidence: number;
}

const NEW_PATIENT = /\b(new patient|establish(?:ing)? care|new to (?:the |our )?(?:clinic|practice)|first visit with (?:me|us)|initial visit)\b/i;
const TIME = /\b(?:total time|time spent|i spent|spent a total of|spent)\b[^.\n]{0,60}?\b(\d{1,3})\s*(?:minutes|mins?)\b/i;
const TIME_AFTER = /\b(\d{1,3})\s*(?:minutes|mins?)\b[^.\n]{0,40}?\b(?:total time|spent|face[- ]to[- ]face|on the date of (?:the )?(?:service|encounter|visit))/i;
const EXACERBATION = /\b(exacerbation|worsening|worsened|uncontrolled|poorly controlled|not (?:well )?controlled|not at goal|progressi(?:on|ng)|flare|decompensat\w*|elevated|side effects?)\b/i;
const THREAT = /\b(admit(?:ted|ting)? (?:to|him|her|the patient)|hospitali[sz]ation|send (?:him|her|the patient) to the (?:er|ed|emergency)|emergency department now|life[- ]threatening|severe exacerbation|sepsis|call 911)\b/i;
const TEST = /\b(cbc|bmp|cmp|a1c|hemoglobin a1c|lipid panel|lipids|tsh|thyroid panel|urinalysis|urine culture|culture|x-?rays?|mri|ct(?: scan)?|ultrasound|echocardiogram|echo|ekg|ecg|stress test|colonoscopy|endoscopy|egd|pulmonary function tests?|pfts?|biopsy|labs?|blood work|d-dimer|troponin|inr|psa|vitamin d level|ferritin|iron studies|b-?12|folate|metabolic panel|panel|titer|strep test|covid test|swab|mammogram|dexa|holter|nerve conduction study|emg)\b/gi;
const ORDER = /\b(order(?:ed|ing)?|obtain|will get|get an?|check(?:ing)?|repeat|schedule|send|draw|request(?:ed)?|refer(?:red)? for)\b/i;
const REVIEW = /\b(review(?:ed)?|results?|showed|shows|demonstrat(?:ed|es)|revealed|reveals|was (?:normal|abnormal|elevated|low|high|unremarkable)|were (?:normal|abnormal|elevated|unremarkable))\b/i;
const EXTERNAL_NOTES = /\b(outside records|records from|notes from|reviewed (?:the )?(?:er|ed|emergency room|hospital|outside|external|specialist)|discharge summary)\b/i;
const HISTORIAN = /\b(history (?:was )?(?:obtained|provided|given) (?:by|from)|per (?:his|her|the) (?:mother|father|wife|husband|daughter|son|caregiver|parent)|independent historian)\b/i;
const INTERPRETATION = /\b(i (?:personally |independently )?(?:reviewed|interpreted|read) the (?:images|films|x-?rays?|ekg|ecg|tracing)|my (?:own )?(?:interpretation|read)|independent(?:ly)? interpret\w*)\b/i;
const DISCUSSION = /\b(discussed (?:the case |this |management )?with (?:dr\.?|the (?:surgeon|cardiologist|specialist|consultant)|cardiology|nephrology|neurology|oncology|surgery|his|her)|spoke with dr\.?|case discussed with)\b/i;
const DRUG_MANAGEMENT = /\b(start(?:ed|ing)?|initiat(?:e|ed|ing)|continue[sd]?|increas(?:e|ed|ing)|decreas(?:e|ed|ing)|reduc(?:e|ed)|stop(?:ped)?|discontinu(?:e|ed)|refill(?:ed)?|prescri(?:be|bed|ption)|switch(?:ed)?|titrat\w*|adjust(?:ed)?|place (?:him|her) on)\b[^.\n]{0,60}?\b(\d+(?:\.\d+)?\s*(?:mg|mcg|g|units?|ml|puffs?)|[a-z]+(?:pril|sartan|olol|statin|formin|azole|cillin|mycin|floxacin|prazole|tidine|pine|lol|semide|thiazide|gliptin|gliflozin|glutide|xaban|parin|arin|triptan|oxetine|aline|pram|azepam|lamine|done|codone|phen|profen|oxacin|cycline|sone|olone|asone|terol|tropium))\b/i;
const OTC = /\b(ibuprofen|tylenol|acetaminophen|advil|motrin|over[- ]the[- ]counter|otc|ice|rest|physical therapy|heat|elevation|stretching|diet and exercise|dietary modifications?)\b/i;
const SURGERY_DECISION = /\b(schedul(?:e|ed) (?:for |him for |her for )?surgery|decision (?:for|to proceed with) surgery|proceed with (?:surgery|the operation)|surgical (?:repair|intervention) (?:is|was) recommended|dnr|do not resuscitate|hospice)\b/i;

const max = (a: MdmLevel, b: MdmLevel): MdmLevel => (LEVELS.indexOf(a) >= LEVELS.indexOf(b) ? a : b);

/** The middle of three levels: two of the three elements must meet or exceed it. */
function twoOfThree(a: MdmLevel, b: MdmLevel, c: MdmLevel): MdmLevel {
  return [a, b, c].sort((x, y) => LEVELS.indexOf(y) - LEVELS.indexOf(x))[1]!;
}

function timeLevel(minutes: number, patient: 'new' | 'established'): 0 | 2 | 3 | 4 | 5 {
  const bounds = patient === 'new' ? [15, 30, 45, 60] : [10, 20, 30, 40];
  let level: 0 | 2 | 3 | 4 | 5 = 0;
  bounds.forEach((b, i) => {
    if (minutes >= b) level = (i + 2) as 2 | 3 | 4 | 5;
  });
  return level;
}

/**
 * Suggests the office E/M level of a visit note, or undefined when the text is no visit note
 * (no assessment section and no documented time) or documents too little to tell.
 */
export function suggestEmLevel(text: string, doc: NoteDocument, icd: readonly IcdSuggestion[]): EmSuggestion | undefined {
  const timeMatch = TIME.exec(text) ?? TIME_AFTER.exec(text);
  if (!doc.hasAssessment && !timeMatch) return undefined;
  const patient: 'new' | 'established' = NEW_PATIENT.test(text) ? 'new' : 'established';
  const findings: string[] = [];
  const spans: { start: number; end: number }[] = [];
  const plan = doc.sentences.filter((s) => s.section === 'assessment' || s.section === 'plan');
  const planText = plan.map((s) => s.text).join('\n');

  // Problems addressed: the coded current conditions, chronic ones told apart by their history rule.
  const problems = icd.filter((c) => c.role === 'current');
  let exacerbated = 0;
  let stableChronic = 0;
  let acute = 0;
  for (const p of problems) {
    const near = p.evidence.map((e) => text.slice(Math.max(0, e.start_char - 80), e.end_char + 120)).join(' ');
    const chronic = /^(E1[01]|I10|I1[1-3]|I48|I25|I50|J44|J45|E78|E03|N18|F3[23]|F41|K21|M1[5-9]|G47|G43|E66|M81|N40)/.test(p.code);
    if (chronic && (EXACERBATION.test(near) || /exacerbation|hyperglycemia|acute on chronic/i.test(p.display))) exacerbated++;
    else if (chronic) stableChronic++;
    else acute++;
  }
  let problemLevel: MdmLevel = problems.length ? 'low' : 'straightforward';
  if (exacerbated || stableChronic >= 2) problemLevel = 'moderate';
  if (THREAT.test(planText)) problemLevel = 'high';
  if (!problems.length && plan.length) problemLevel = 'straightforward';
  if (exacerbated) findings.push(`${exacerbated} chronic illness${exacerbated > 1 ? 'es' : ''} with exacerbation or progression`);
  if (stableChronic) findings.push(`${stableChronic} stable chronic illness${stableChronic > 1 ? 'es' : ''}`);
  if (acute) findings.push(`${acute} acute or undiagnosed problem${acute > 1 ? 's' : ''}`);

  // Data: unique tests ordered or reviewed, external notes, historian, interpretation, discussion.
  const ordered = new Set<string>();
  const reviewed = new Set<string>();
  for (const s of plan) {
    for (const m of s.text.matchAll(TEST)) {
      const name = m[1]!.toLowerCase().replace(/s$/, '');
      if (ORDER.test(s.text)) ordered.add(name);
      else if (REVIEW.test(s.text)) reviewed.add(name);
    }
  }
  const category1 = ordered.size + reviewed.size + (EXTERNAL_NOTES.test(text) ? 1 : 0) + (HISTORIAN.test(text) ? 1 : 0);
  const interpretation = INTERPRETATION.test(text);
  const discussion = DISCUSSION.test(text);
  const categories = (category1 >= 3 ? 1 : 0) + (interpretation ? 1 : 0) + (discussion ? 1 : 0);
  let dataLevel: MdmLevel = 'straightforward';
  if (category1 >= 2 || HISTORIAN.test(text)) dataLevel = 'low';
  if (categories >= 1) dataLevel = 'moderate';
  if (categories >= 2) dataLevel = 'high';
  if (ordered.size) findings.push(`tests ordered: ${[...ordered].join(', ')}`);
  if (reviewed.size) findings.push(`results reviewed: ${[...reviewed].join(', ')}`);
  if (interpretation) findings.push('independent interpretation of a test');
  if (discussion) findings.push('management discussed with another clinician');

  // Risk of the management chosen.
  let riskLevel: MdmLevel = 'straightforward';
  if (OTC.test(planText)) riskLevel = 'low';
  const drug = plan.map((s) => ({ s, m: DRUG_MANAGEMENT.exec(s.text) })).find((x) => x.m);
  if (drug) {
    riskLevel = 'moderate';
    findings.push('prescription drug management');
    spans.push({ start: drug.s.start + drug.m!.index, end: drug.s.start + drug.m!.index + drug.m![0].length });
  }
  if (THREAT.test(planText) || SURGERY_DECISION.test(planText)) {
    riskLevel = 'high';
    findings.push('decision about hospitalization, surgery or resuscitation');
  }
  if (riskLevel === 'low') findings.push('over-the-counter drugs or low-risk measures');

  const mdm = twoOfThree(problemLevel, dataLevel, riskLevel);
  const mdmNumber = (LEVELS.indexOf(mdm) + 2) as 2 | 3 | 4 | 5;
  const minutes = timeMatch ? Number(timeMatch[1]) : undefined;
  const byTime = minutes !== undefined ? timeLevel(minutes, patient) : 0;
  if (!problems.length && !byTime) return undefined;
  const basis: 'mdm' | 'time' = byTime > mdmNumber ? 'time' : 'mdm';
  const level = basis === 'time' ? (byTime as 2 | 3 | 4 | 5) : mdmNumber;
  if (timeMatch) {
    spans.push({ start: timeMatch.index, end: timeMatch.index + timeMatch[0].length });
    findings.push(`${minutes} minutes total time documented`);
  }
  const code = `99${patient === 'new' ? '20' : '21'}${level}`;
  // Time is stated outright; MDM is read from wording, less certain, more so when the elements disagree.
  const spread = Math.abs(LEVELS.indexOf(problemLevel) - LEVELS.indexOf(riskLevel));
  const confidence = basis === 'time' ? 0.85 : Math.max(0.4, 0.7 - 0.1 * spread);
  return { code, level, spans, problemEvidence: problems.slice(0, 4).flatMap((p) => p.evidence.slice(0, 1)), confidence, reasoning: { patient, basis, mdm: max(mdm, 'straightforward'), problems: problemLevel, data: dataLevel, risk: riskLevel, ...(minutes !== undefined ? { minutes } : {}), findings } };
}
