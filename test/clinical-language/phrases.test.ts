import { describe, expect, it } from 'vitest';
import { NOTE_LANGUAGES } from '../../shared/languages.js';
import {
  AMOUNT_KEYS, CONDITION_KEYS, EXAM_KEYS, SPECIALTY_KEYS, SYMPTOM_KEYS, TEST_KEYS, clinicalPhrases, fillTemplate, termIn,
} from '../../main/services/clinical-language/phrases/tables.js';
import { guessLanguage } from '../../main/services/clinical-language/language-guess.js';

const LISTS = { symptoms: SYMPTOM_KEYS, conditions: CONDITION_KEYS, tests: TEST_KEYS, specialties: SPECIALTY_KEYS, exam: EXAM_KEYS, amounts: AMOUNT_KEYS } as const;

describe('clinical phrase tables', () => {
  it.each(NOTE_LANGUAGES.filter((l) => l !== 'en'))('%s translates every key, so no language falls back to English silently', (language) => {
    for (const [list, keys] of Object.entries(LISTS)) {
      const missing = keys.filter((k) => termIn(language, list as keyof typeof LISTS, k) === undefined);
      expect(missing, `${language} ${list}`).toEqual([]);
    }
    const p = clinicalPhrases(language);
    for (const template of [p.medication, p.order, p.refer, p.followUp, ...Object.values(p.actions)]) expect(template).toMatch(/\{\w+\}/);
    expect(p.frequencies['every {n} hours']).toContain('{n}');
  });

  it('fills templates and drops an empty slot with its space', () => {
    expect(fillTemplate('{drug} {dose} {frequency}.', { drug: 'Lisinopril', dose: '20 mg' })).toBe('Lisinopril 20 mg.');
    expect(fillTemplate(clinicalPhrases('es').actions.increase, { drug: 'metformina', dose: '1000 mg', frequency: 'dos veces al día' })).toBe(
      'Aumentar metformina a 1000 mg dos veces al día.',
    );
  });

  it('tells the transcript language from its words or script', () => {
    expect(guessLanguage('Médico: ¿Qué le trae hoy? Paciente: Tengo dolor de cabeza desde hace tres días.')).toBe('es');
    expect(guessLanguage('[doctor] hi, how are you doing today? [patient] i have had a cough for a week.')).toBe('en');
    expect(guessLanguage('Arzt: Was führt Sie zu mir? Patient: Ich habe seit drei Tagen Kopfschmerzen.')).toBe('de');
    expect(guessLanguage('Врач: Что вас беспокоит? Пациент: Голова болит три дня.')).toBe('ru');
    expect(guessLanguage('医生：你哪里不舒服？患者：头痛三天了。')).toBe('zh');
    expect(guessLanguage('12 34 56')).toBeUndefined();
  });
});
