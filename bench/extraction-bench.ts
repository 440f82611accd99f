/**
 * Text-to-JSON latency on the embedded engine: a ~2,000-character clinical note and a
 * 30-property schema. Prints cold (first request, includes compiling the schema) and warm
 * p50/p95/max over repeated requests with the cached schema. Never fails on time.
 * Run: npx tsx bench/extraction-bench.ts [runs]
 */
import { createEmbeddedExtractor } from '../main/engines/extraction/index.js';
import { createExtractionService } from '../main/services/extraction/index.js';

const NOTE = `Patient: Robert Chen. DOB: 11/02/1956. Date of service: 2024-09-12.
Chief complaint: worsening shortness of breath and leg swelling for one week.
HPI: 68-year-old male with a history of congestive heart failure, atrial fibrillation and type 2 diabetes presents with progressive dyspnea on exertion, orthopnea and bilateral ankle swelling over the past week. He reports a 4 kg weight gain. He denies chest pain, fever, cough or palpitations. He admits to missing several doses of furosemide.
PMH: congestive heart failure, atrial fibrillation, type 2 diabetes mellitus, hypertension, chronic kidney disease stage 3.
Medications: furosemide 40 mg PO daily; metoprolol succinate 50 mg PO daily; apixaban 5 mg PO twice daily; metformin 500 mg PO twice daily; lisinopril 10 mg PO daily.
Allergies: sulfa (rash), codeine (nausea).
Social history: former smoker, quit 15 years ago. Drinks alcohol rarely. Lives with his wife.
Family history: father with coronary artery disease.
Vitals: BP 156/92 mmHg, HR 98 bpm irregular, Temp 98.2 F, RR 22, SpO2 91% on room air, weight 96 kg, height 178 cm.
Exam: jugular venous distension, bibasilar crackles, 2+ pitting edema to the knees bilaterally.
Assessment: acute on chronic congestive heart failure exacerbation, likely due to medication non-adherence. Atrial fibrillation, rate controlled.
Plan: IV furosemide 40 mg twice daily, daily weights, strict intake and output, BMP in the morning. Follow up on 2024-09-20.`.padEnd(2000, ' ');

const str = (description: string): Record<string, unknown> => ({ type: ['string', 'null'], description });
const num = (description: string): Record<string, unknown> => ({ type: ['number', 'null'], description });
const list = (description: string): Record<string, unknown> => ({ type: 'array', items: { type: 'string' }, description });
const SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['patient_name', 'age', 'sex'],
  properties: {
    patient_name: { type: 'string' }, age: { type: 'integer', minimum: 0, maximum: 130 }, sex: { enum: ['Male', 'Female', 'Unknown'] },
    date_of_birth: { type: ['string', 'null'], format: 'date' }, visit_date: { type: ['string', 'null'], format: 'date' },
    chief_complaint: str('reason for the visit'), symptoms: list('symptoms the patient reports'), denied_symptoms: list('symptoms the patient denies'),
    past_medical_history: list('chronic conditions'), diagnosis: str('primary diagnosis'),
    medications: { type: 'array', items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, dose: str('dose'), route: str('route'), frequency: str('frequency') } } },
    allergies: list('allergens'), has_allergies: { type: 'boolean' },
    systolic_bp: num('systolic blood pressure'), diastolic_bp: num('diastolic blood pressure'), heart_rate: num('pulse'),
    temperature_c: num('temperature in Celsius'), respiratory_rate: num('breaths per minute'), spo2: num('oxygen saturation'),
    weight_kg: num('weight in kg'), height_cm: num('height in cm'), bmi: num('body mass index'),
    smoking_status: { enum: ['current', 'former', 'never', null] }, alcohol_use: { type: ['boolean', 'null'] },
    has_chest_pain: { type: 'boolean' }, has_edema: { type: ['boolean', 'null'], description: 'leg or ankle swelling' },
    follow_up_date: { type: ['string', 'null'], format: 'date' }, pain_score: { type: ['integer', 'null'], minimum: 0, maximum: 10 },
    mrn: { type: ['string', 'null'], pattern: '^[0-9]{6,10}$' }, insurance: str('insurance provider'),
  },
};

const runs = Number(process.argv[2] ?? 300);
const service = createExtractionService({ extractor: createEmbeddedExtractor() });
const t0 = performance.now();
await service.extract(NOTE, SCHEMA);
const cold = performance.now() - t0;
const times: number[] = [];
for (let i = 0; i < runs; i++) {
  const started = performance.now();
  await service.extract(NOTE, SCHEMA);
  times.push(performance.now() - started);
}
times.sort((a, b) => a - b);
const q = (p: number): string => (times[Math.min(times.length - 1, Math.floor(p * times.length))] as number).toFixed(2);
console.log(`text ${NOTE.length} chars, schema ${Object.keys(SCHEMA.properties).length} properties, ${runs} warm runs`);
console.log(`cold (compile + extract): ${cold.toFixed(1)} ms`);
console.log(`warm p50 ${q(0.5)} ms  p95 ${q(0.95)} ms  max ${q(0.999)} ms  (target p50 < 20 ms)`);
