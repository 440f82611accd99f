import { describe, it, expect } from 'vitest';
import { rewriteClinicianSentence, rewritePatientSentence, detectGender } from '../../main/engines/text/embedded/rewrite.js';
import { normaliseNumbers } from '../../main/services/clinical-language/normalise.js';
import { parseNumberWords } from '../../main/services/clinical-language/number-words.js';

describe('third-person rewriting', () => {
  it('turns the patient\'s first person into clinical third person', () => {
    expect(rewritePatientSentence("I've had a cough for three days", 'female')).toBe('She has had a cough for 3 days.');
    expect(rewritePatientSentence('I feel tired and my knee hurts', 'male')).toBe('He feels tired and his knee hurts.');
    expect(rewritePatientSentence("I don't smoke", 'unknown')).toBe('The patient does not smoke.');
  });

  it('turns the clinician\'s "you" into the patient and keeps the clinician\'s "I"', () => {
    expect(rewriteClinicianSentence('your lungs are clear and you have no swelling', 'female')).toBe('Her lungs are clear and she has no swelling.');
    expect(rewriteClinicianSentence('I want you to weigh yourself every day', 'male')).toBe('I want him to weigh himself every day.');
  });

  it('keeps negations', () => {
    expect(rewritePatientSentence("I haven't had any fever", 'female')).toBe('She has not had any fever.');
  });

  it('guesses the patient\'s gender from how the clinician refers to them', () => {
    expect(detectGender('this is mrs. cooper, she is 65 and her anemia is chronic')).toBe('female');
    expect(detectGender('how are you today')).toBe('unknown');
  });
});

describe('numbers, vitals and units', () => {
  it('parses spoken numbers', () => {
    expect(parseNumberWords('one hundred and twenty five')).toBe(125);
    expect(parseNumberWords('one twenty')).toBe(120);
    expect(parseNumberWords('ninety eight point six')).toBe(98.6);
  });

  it('normalises quantities, blood pressure and units but leaves other words alone', () => {
    expect(normaliseNumbers('blood pressure is one twenty over eighty')).toBe('blood pressure is 120/80');
    expect(normaliseNumbers('twenty milligrams for three weeks')).toBe('20 mg for 3 weeks');
    expect(normaliseNumbers('oxygen is ninety eight percent')).toBe('oxygen is 98%');
    expect(normaliseNumbers('no one else, the one on the left')).toBe('no one else, the one on the left');
    expect(normaliseNumbers('a fifty eight year old male')).toBe('a 58-year-old male');
  });
});
