/**
 * Tests and specialties by the phrase tables' keys with their spoken names, so a test said
 * "cat scan" or "x-ray of the chest" is the key a table translates ("ct scan", "chest x-ray").
 */
import { SPECIALTY_KEYS, TEST_KEYS } from '../clinical-language/phrases/keys.js';

const TEST_SYNONYMS: Record<string, string> = {
  echo: 'echocardiogram', 'cardiac echo': 'echocardiogram', 'x-ray of the chest': 'chest x-ray', 'chest xray': 'chest x-ray', xray: 'x-ray', 'x-rays': 'x-ray',
  'x ray': 'x-ray', 'cat scan': 'ct scan', ct: 'ct scan', 'ultrasound scan': 'ultrasound', ecg: 'ekg', electrocardiogram: 'ekg', bloodwork: 'blood work',
  'blood test': 'blood work', 'blood tests': 'blood work', 'lab work': 'labs', lab: 'labs', a1c: 'hemoglobin a1c', hba1c: 'hemoglobin a1c', 'cholesterol panel': 'lipid panel',
  'complete blood count': 'cbc', bmp: 'metabolic panel', cmp: 'metabolic panel', 'basic metabolic panel': 'metabolic panel', 'comprehensive metabolic panel': 'metabolic panel',
  ua: 'urinalysis', 'urine test': 'urinalysis', 'urine sample': 'urinalysis', 'strep test': 'rapid strep test', pfts: 'pulmonary function test', pft: 'pulmonary function test',
  'dexa scan': 'bone density scan', emg: 'nerve conduction study', holter: 'holter monitor', 'magnetic resonance imaging': 'mri', 'mri scan': 'mri',
  'stress echo': 'stress test', 'cardiac stress test': 'stress test', 'thyroid function': 'thyroid panel', tsh: 'thyroid panel', 'echocardiograms': 'echocardiogram',
};
const SPECIALTY_SYNONYMS: Record<string, string> = {
  'physical therapist': 'physical therapy', pt: 'physical therapy', 'occupational therapist': 'occupational therapy', cardiologist: 'cardiology', 'orthopedic surgeon': 'orthopedics',
  orthopedist: 'orthopedics', orthopedic: 'orthopedics', neurologist: 'neurology', dermatologist: 'dermatology', endocrinologist: 'endocrinology', gastroenterologist: 'gastroenterology',
  pulmonologist: 'pulmonology', rheumatologist: 'rheumatology', urologist: 'urology', nephrologist: 'nephrology', oncologist: 'oncology', psychiatrist: 'psychiatry',
  therapist: 'counseling', counselor: 'counseling', psychotherapy: 'counseling', psychologist: 'counseling', 'talk therapy': 'counseling', dietitian: 'nutrition', nutritionist: 'nutrition', podiatrist: 'podiatry', 'ear nose and throat': 'ent',
  ophthalmologist: 'ophthalmology', 'eye doctor': 'ophthalmology', surgeon: 'surgery', 'pain clinic': 'pain management', 'sleep specialist': 'sleep medicine',
  neurosurgeon: 'neurosurgery', 'spine surgeon': 'neurosurgery', hematologist: 'hematology', gynecologist: 'gynecology', 'ob-gyn': 'gynecology', obgyn: 'gynecology',
  'infectious disease specialist': 'infectious disease', allergist: 'allergy', 'speech therapist': 'speech therapy', audiologist: 'audiology',
  'vascular surgeon': 'vascular surgery', 'vascular specialist': 'vascular surgery', 'vein specialist': 'vascular surgery',
};

const entries = (keys: readonly string[], synonyms: Record<string, string>): { value: string; phrases: string[] }[] =>
  keys.map((k) => ({ value: k, phrases: [k, ...Object.entries(synonyms).filter(([, v]) => v === k).map(([s]) => s)] }));

export const TEST_ENTRIES = entries(TEST_KEYS, TEST_SYNONYMS);
export const SPECIALTY_ENTRIES = entries(SPECIALTY_KEYS, SPECIALTY_SYNONYMS);
/** Tests that are imaging studies (a plan item of kind `imaging`). */
export const IMAGING = new Set(['chest x-ray', 'x-ray', 'mri', 'ct scan', 'ultrasound', 'mammogram', 'bone density scan', 'echocardiogram']);
