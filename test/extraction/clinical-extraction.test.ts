import { describe, it, expect } from 'vitest';
import { NOTE, embeddedExtraction } from './helpers.js';

const service = embeddedExtraction();
const extract = async (text: string, properties: Record<string, unknown>, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> =>
  (await service.extract(text, { type: 'object', properties, ...extra })) as Record<string, unknown>;

describe('the embedded engine reads clinical text', () => {
  it('reads demographics and dates as ISO dates', async () => {
    const a = await extract(NOTE, {
      patient_name: { type: 'string' }, age: { type: 'integer' }, dob: { type: 'string', format: 'date', description: 'date of birth' },
      visit_date: { type: 'string', format: 'date' },
    });
    expect(a).toEqual({ patient_name: 'John Smith', age: 67, dob: '1958-03-14', visit_date: '2024-05-02' });
  });

  it('maps sex synonyms onto the caller enum', async () => {
    const schema = { sex: { type: 'string', enum: ['Male', 'Female', 'Unknown'] } };
    expect((await extract('45 yo man with cough.', schema)).sex).toBe('Male');
    expect((await extract('Pt is a 30F here for follow-up.', schema)).sex).toBe('Female');
    expect((await extract('Sex: M. Presents with rash.', { sex: { enum: ['M', 'F'] } })).sex).toBe('M');
  });

  it('reads vital signs with units, converting to the unit the field names', async () => {
    const a = await extract(NOTE, {
      blood_pressure: { type: 'string' }, systolic: { type: 'integer' }, diastolic: { type: 'integer' }, heart_rate: { type: 'integer' },
      temperature_celsius: { type: 'number' }, spo2: { type: 'number' }, respiratory_rate: { type: 'integer' }, weight_kg: { type: 'number' },
    });
    expect(a).toEqual({ blood_pressure: '142/88 mmHg', systolic: 142, diastolic: 88, heart_rate: 96, temperature_celsius: 37, spo2: 95, respiratory_rate: 18, weight_kg: 82 });
  });

  it('reads medications with dose, route and frequency', async () => {
    const a = await extract(NOTE, {
      medications: { type: 'array', items: { type: 'object', properties: { name: { type: 'string' }, dose: { type: 'string' }, route: { type: ['string', 'null'] }, frequency: { type: 'string' } } } },
    });
    expect(a.medications).toEqual([
      { name: 'lisinopril', dose: '10 mg', route: 'PO', frequency: 'daily' },
      { name: 'metformin', dose: '500 mg', route: 'by mouth', frequency: 'twice daily' },
      { name: 'atorvastatin', dose: '40 mg', route: null, frequency: 'at bedtime' },
    ]);
  });

  it('reads allergies, and says none for NKDA', async () => {
    const schema = { allergies: { type: 'array', items: { type: 'string' } }, has_allergies: { type: 'boolean' } };
    expect(await extract(NOTE, schema)).toEqual({ allergies: ['penicillin', 'sulfa'], has_allergies: true });
    expect(await extract('Allergies: NKDA. Here for a cough.', schema)).toEqual({ allergies: [], has_allergies: false });
  });

  it('keeps negated findings out of positive lists and answers false for them', async () => {
    const a = await extract(NOTE, {
      symptoms: { type: 'array', items: { type: 'string' } }, pertinent_negatives: { type: 'array', items: { type: 'string' } },
      has_fever: { type: 'boolean' }, has_chest_pain: { type: 'boolean' },
    });
    expect(a.symptoms).toEqual(['chest pain', 'shortness of breath']);
    expect(a.pertinent_negatives).toEqual(['fever', 'nausea', 'vomiting']);
    expect(a.has_fever).toBe(false);
    expect(a.has_chest_pain).toBe(true);
  });

  it('reads problems, diagnosis and social history enums', async () => {
    const a = await extract(NOTE, {
      past_medical_history: { type: 'array', items: { type: 'string' } }, diagnosis: { type: 'string', description: 'primary diagnosis' },
      smoking_status: { type: 'string', enum: ['current', 'former', 'never'] },
    });
    expect(a).toEqual({ past_medical_history: ['hypertension', 'type 2 diabetes', 'hyperlipidemia'], diagnosis: 'unstable angina', smoking_status: 'former' });
  });

  it('uses the description as the instruction for an unusual field name', async () => {
    const a = await extract('Vitals: BP 118/76, pulse 64. Temp 37.9 C.', { t: { type: 'number', description: 'body temperature in Fahrenheit' } });
    expect(a.t).toBeCloseTo(100.2, 1);
  });

  it('leaves out what the text does not say', async () => {
    const a = await extract('Follow-up visit. Feeling better.', { age: { type: ['integer', 'null'] }, medications: { type: 'array', items: { type: 'string' } } });
    expect(a).toEqual({ age: null, medications: [] });
  });
});
