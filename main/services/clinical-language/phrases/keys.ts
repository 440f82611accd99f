/**
 * The English keys every phrase table translates, so a test can hold each table to all of them,
 * and the reader of a table in `key: translation; ...` form (one pair per entry).
 */

/** Symptoms the conversation reader finds (lexicon.ts terms with spoken patterns) plus common written ones. */
export const SYMPTOM_KEYS = [
  'fever', 'chills', 'night sweats', 'fatigue', 'weight loss', 'weight gain', 'loss of appetite', 'headache', 'dizziness', 'lightheadedness',
  'numbness', 'tingling', 'weakness', 'syncope', 'vision changes', 'sore throat', 'nasal congestion', 'hearing loss', 'chest pain', 'palpitations',
  'leg swelling', 'shortness of breath', 'cough', 'wheezing', 'nausea', 'vomiting', 'diarrhea', 'constipation', 'abdominal pain', 'heartburn',
  'blood in the stool', 'bloating', 'dysuria', 'hematuria', 'urinary symptoms', 'joint pain', 'back pain', 'myalgia', 'rash', 'bruising',
  'anxiety', 'depression', 'insomnia', 'polydipsia', 'easy bleeding', 'edema', 'knee pain', 'shoulder pain', 'neck pain', 'hip pain', 'urinary incontinence',
] as const;

/** Conditions a problem list names most often (lower case). */
export const CONDITION_KEYS = [
  'hypertension', 'type 2 diabetes mellitus', 'type 1 diabetes mellitus', 'diabetes', 'hyperlipidemia', 'congestive heart failure',
  'coronary artery disease', 'atrial fibrillation', 'copd', 'asthma', 'chronic kidney disease', 'gerd', 'hypothyroidism', 'obesity',
  'osteoarthritis', 'depression', 'anxiety', 'migraine', 'pneumonia', 'urinary tract infection', 'acute bronchitis', 'sinusitis',
  'pharyngitis', 'influenza', 'covid-19', 'low back pain', 'ankle sprain', 'lumbar strain', 'gout', 'cellulitis', 'anemia',
  'obstructive sleep apnea', 'allergic rhinitis', 'kidney stones', 'annual exam', 'acute lumbar strain', 'fracture', 'concussion',
] as const;

export const TEST_KEYS = [
  'echocardiogram', 'chest x-ray', 'x-ray', 'mri', 'ct scan', 'ultrasound', 'ekg', 'blood work', 'labs', 'lipid panel', 'hemoglobin a1c',
  'cbc', 'metabolic panel', 'urinalysis', 'urine culture', 'culture', 'biopsy', 'mammogram', 'colonoscopy', 'stress test', 'sleep study',
  'pulmonary function test', 'thyroid panel', 'holter monitor', 'rapid strep test', 'covid test', 'bone density scan', 'nerve conduction study',
] as const;

export const SPECIALTY_KEYS = [
  'physical therapy', 'occupational therapy', 'cardiology', 'orthopedics', 'neurology', 'dermatology', 'endocrinology', 'gastroenterology',
  'pulmonology', 'rheumatology', 'urology', 'nephrology', 'oncology', 'psychiatry', 'counseling', 'nutrition', 'podiatry', 'ent',
  'ophthalmology', 'surgery', 'pain management', 'sleep medicine', 'neurosurgery', 'hematology', 'gynecology',
  'infectious disease', 'allergy', 'speech therapy', 'audiology', 'vascular surgery',
] as const;

/** Exam findings said in these words only (what else a finding says keeps it untranslated). */
export const EXAM_KEYS = [
  'regular rate and rhythm', 'no murmurs', 'murmur', 'systolic ejection murmur', 'clear to auscultation', 'lungs are clear', 'crackles',
  'rales', 'rhonchi', 'wheezing', 'wheezes', 'edema', 'pitting edema', 'no edema', 'tenderness', 'no tenderness', 'pain to palpation',
  'swelling', 'erythema', 'bruising', 'effusion', 'decreased range of motion', 'full range of motion', 'jugular venous distention',
  'lymphadenopathy', 'positive straight leg raise', 'soft', 'nontender', 'normal', 'bilaterally', 'bilateral', 'right', 'left',
  'at the bases', 'lower extremities', 'no', 'mild', 'moderate', 'severe',
  'tenderness to palpation', 'no tenderness to palpation', 'pain with flexion', 'pain with extension', 'pain with rotation', 'pain with movement',
  'pain with elevation', 'pain with pronation', 'pain with supination', 'pain with compression', 'pain with resisted movement',
  'no pain with flexion', 'no pain with extension', 'no pain with rotation', 'no pain with movement', 'medially', 'laterally', 'anteriorly',
  'posteriorly',
] as const;

export const AMOUNT_KEYS = [
  'a week', 'a month', 'a year', 'a couple weeks', 'a couple of weeks', 'a couple months', 'a couple of months', 'a few days', 'a few weeks',
  'a few months',
] as const;

/** Reads `key: translation; key: translation` into a record (keys lower case as written). */
export function pairs(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of text.split(';')) {
    const at = entry.indexOf(':');
    if (at < 0) continue;
    const key = entry.slice(0, at).trim();
    const value = entry.slice(at + 1).trim();
    if (key && value) out[key] = value;
  }
  return out;
}
