/**
 * Structured facts read from the English lines the writer composed: plan orders (drug changes
 * with dose and frequency, tests, referrals, follow-up) and vital signs. A fact is what the
 * renderer writes in a note language other than the transcript's; `complete` says whether the
 * line said nothing beyond it (otherwise the English line is shown too, marked untranslated).
 */
import { createPhraseMatcher } from '../../../services/clinical-language/phrase-match.js';
import { DRUG_PHRASES } from '../../../services/clinical-language/medications.js';
import { readDoses } from '../../../services/clinical-language/doses.js';
import { readFrequencies } from '../../../services/clinical-language/units.js';
import { AMOUNT_KEYS, SPECIALTY_KEYS, TEST_KEYS, type DrugAction, type VitalKey } from '../../../services/clinical-language/phrases/tables.js';
import type { RosFact } from './findings.js';
import { doseText, type MedicationFact } from './medication-facts.js';

export type OrderFact =
  | { type: 'drug'; action: DrugAction; drug: string; dose?: string; frequency?: string; complete: boolean }
  | { type: 'test'; test: string; complete: boolean }
  | { type: 'referral'; to: string; complete: boolean }
  | { type: 'followup'; n?: string; unit?: 'day' | 'week' | 'month' | 'year'; amount?: string; prn?: boolean; complete: boolean };

export interface VitalFact {
  type: 'vitals';
  values: { vital: VitalKey; value: string }[];
  complete: boolean;
}

/** Every fact a content line can carry. */
export type Fact = RosFact | MedicationFact | OrderFact | VitalFact | { type: 'agreement' };

const drugs = createPhraseMatcher(DRUG_PHRASES);
// Spoken and written names of the tests and specialties the phrase tables translate.
const TEST_SYNONYMS: Record<string, string> = {
  echo: 'echocardiogram', 'cardiac echo': 'echocardiogram', 'x-ray of the chest': 'chest x-ray', 'chest xray': 'chest x-ray', xray: 'x-ray',
  'x ray': 'x-ray', 'cat scan': 'ct scan', ct: 'ct scan', 'ultrasound scan': 'ultrasound', ecg: 'ekg', electrocardiogram: 'ekg', bloodwork: 'blood work',
  'blood test': 'blood work', 'blood tests': 'blood work', 'lab work': 'labs', 'a1c': 'hemoglobin a1c', 'hba1c': 'hemoglobin a1c', 'cholesterol panel': 'lipid panel',
  'complete blood count': 'cbc', bmp: 'metabolic panel', cmp: 'metabolic panel', 'basic metabolic panel': 'metabolic panel', 'comprehensive metabolic panel': 'metabolic panel',
  ua: 'urinalysis', 'urine test': 'urinalysis', 'strep test': 'rapid strep test', pfts: 'pulmonary function test', pft: 'pulmonary function test',
  'dexa scan': 'bone density scan', emg: 'nerve conduction study', holter: 'holter monitor', 'magnetic resonance imaging': 'mri',
};
const SPECIALTY_SYNONYMS: Record<string, string> = {
  'physical therapist': 'physical therapy', 'occupational therapist': 'occupational therapy', cardiologist: 'cardiology', 'orthopedic surgeon': 'orthopedics',
  orthopedist: 'orthopedics', neurologist: 'neurology', dermatologist: 'dermatology', endocrinologist: 'endocrinology', gastroenterologist: 'gastroenterology',
  pulmonologist: 'pulmonology', rheumatologist: 'rheumatology', urologist: 'urology', nephrologist: 'nephrology', oncologist: 'oncology', psychiatrist: 'psychiatry',
  therapist: 'counseling', counselor: 'counseling', dietitian: 'nutrition', nutritionist: 'nutrition', podiatrist: 'podiatry', 'ear nose and throat': 'ent',
  ophthalmologist: 'ophthalmology', 'eye doctor': 'ophthalmology', surgeon: 'surgery', 'pain clinic': 'pain management', 'sleep specialist': 'sleep medicine',
};
const entries = (keys: readonly string[], synonyms: Record<string, string>): { value: string; phrases: string[] }[] =>
  keys.map((k) => ({ value: k, phrases: [k, ...Object.entries(synonyms).filter(([, v]) => v === k).map(([s]) => s)] }));
const tests = createPhraseMatcher(entries(TEST_KEYS, TEST_SYNONYMS));
const specialties = createPhraseMatcher(entries(SPECIALTY_KEYS, SPECIALTY_SYNONYMS));

const ACTIONS: [RegExp, DrugAction][] = [
  [/^(?:start|begin|initiate|try)\b/i, 'start'], [/^(?:continue|resume|restart|keep)\b/i, 'continue'], [/^(?:increase|up|double|raise|bump)\b/i, 'increase'],
  [/^(?:decrease|reduce|lower|taper|wean)\b/i, 'decrease'], [/^(?:stop|discontinue|hold)\b/i, 'stop'], [/^(?:prescribe|give)\b/i, 'prescribe'],
  [/^(?:refill|renew)\b/i, 'refill'],
];
const FILLER = new Set('the a an another some to of his her their him them on with for at in and please also new that this up down from by as patient is are was were be been'.split(' '));

/** Content words of `text` outside the spans read as the fact. */
function leftover(text: string, spans: { start: number; end: number }[]): number {
  let rest = text;
  for (const s of [...spans].sort((a, b) => b.start - a.start)) rest = rest.slice(0, s.start) + ' ' + rest.slice(s.end);
  return (rest.toLowerCase().match(/\p{L}+/gu) ?? []).filter((w) => !FILLER.has(w) && w.length > 1).length;
}

/** The order a plan line states, or undefined when it is no order the tables can write. */
export function planFact(line: string): OrderFact | undefined {
  const text = line.replace(/[.!]+$/, '').trim();
  const follow = /^follow up (?:in (?:(\d+(?:-\d+)?) (day|week|month|year)s?|(.+))|(as needed))$/i.exec(text);
  if (follow) {
    if (follow[4]) return { type: 'followup', prn: true, complete: true };
    if (follow[1]) return { type: 'followup', n: follow[1], unit: follow[2]!.toLowerCase() as 'day', complete: true };
    const amount = follow[3]!.toLowerCase();
    return (AMOUNT_KEYS as readonly string[]).includes(amount) ? { type: 'followup', amount, complete: true } : undefined;
  }
  const verb = /^\S+/.exec(text)?.[0] ?? '';
  const verbSpan = { start: 0, end: verb.length };
  if (/^refer$/i.test(verb)) {
    const hit = specialties.find(text)[0];
    return hit ? { type: 'referral', to: hit.value, complete: leftover(text, [verbSpan, hit]) <= 0 } : undefined;
  }
  const drug = drugs.find(text)[0];
  const action = ACTIONS.find(([re]) => re.test(text))?.[1];
  if (drug && action) {
    const dose = readDoses(text).find((d) => d.start >= drug.end && !d.uncertain);
    const frequency = readFrequencies(text).find((f) => f.start >= (dose?.end ?? drug.end));
    const spans = [verbSpan, drug, ...(dose ? [{ start: dose.start - (doseText(text, dose).length - dose.text.length), end: dose.end }] : []), ...(frequency ? [frequency] : [])];
    const name = text.slice(drug.start, drug.end);
    return {
      type: 'drug', action, drug: name.charAt(0).toUpperCase() + name.slice(1), ...(dose ? { dose: doseText(text, dose) } : {}),
      ...(frequency ? { frequency: frequency.plain } : {}), complete: leftover(text, spans) <= 0,
    };
  }
  if (/^(?:order|obtain|perform|repeat|schedule|check|get|recheck)$/i.test(verb)) {
    const hit = tests.find(text)[0];
    return hit ? { type: 'test', test: hit.value, complete: leftover(text, [verbSpan, hit]) <= 0 } : undefined;
  }
  return undefined;
}

const VITALS: [VitalKey, RegExp][] = [
  ['bloodPressure', /\b(?:blood pressure|bp)\b\D{0,25}?(\d{2,3}\/\d{2,3})/i],
  ['heartRate', /\b(?:heart rate|pulse)\b(?! ox)\D{0,20}?(\d{2,3})\b(?!\s*%)/i],
  ['temperature', /\btemp(?:erature)?\b\D{0,20}?(\d{2,3}(?:\.\d)?)/i],
  ['oxygenSaturation', /\b(?:oxygen saturation|o2 sat\w*|pulse ox\w*|saturation|sat|oxygen(?:ation)?)\b\D{0,25}?(\d{2,3}%)/i],
  ['respiratoryRate', /\brespiratory rate\b\D{0,20}?(\d{1,2})\b/i],
  ['weight', /\bweigh(?:t|s)\b\D{0,20}?(\d{2,3}(?:\.\d)?\s*(?:pounds|lbs?|kg|kilograms))/i],
];
const VITAL_WORDS = /\b(?:blood pressure|bp|heart rate|pulse|temperature|temp|oxygen saturation|o2 sats?|pulse ox\w*|saturation|sat|oxygen(?:ation)?|respiratory rate|weight|weighs)\b/gi;

/** The vital signs a line states with their values, or undefined when it states none. */
export function vitalFact(line: string): VitalFact | undefined {
  const values: VitalFact['values'] = [];
  const spans: { start: number; end: number }[] = [];
  for (const [vital, re] of VITALS) {
    const m = re.exec(line);
    if (!m) continue;
    values.push({ vital, value: m[1]! });
    const at = m.index + m[0].lastIndexOf(m[1]!);
    spans.push({ start: at, end: at + m[1]!.length });
  }
  if (values.length === 0) return undefined;
  for (const m of line.matchAll(VITAL_WORDS)) spans.push({ start: m.index, end: m.index + m[0].length });
  const rest = leftover(line.replace(/[.]$/, ''), spans.filter((s, i, all) => !all.some((o, j) => j !== i && o.start <= s.start && o.end >= s.end && (o.start !== s.start || o.end !== s.end))));
  return { type: 'vitals', values, complete: rest <= 2 };
}
