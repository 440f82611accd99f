/** English clinical phrases (the core's own terms). Sources: phrases/README.md. */
import type { ClinicalPhrases } from './types.js';

const same = (list: string): Record<string, string> => Object.fromEntries(list.split(';').map((s) => s.trim()).filter(Boolean).map((s) => [s, s]));

/** English: the lexicon's terms as they are; only templates and labels are written out. */
export const EN: ClinicalPhrases = {
  reports: 'Endorses', denies: 'Denies', and: 'and', comma: ', ', space: ' ', stop: '.',
  agreement: 'The patient understands and agrees with the recommended treatment plan.',
  labels: {
    reasoning: 'Medical Reasoning', testing: 'Additional Testing', treatment: 'Medical Treatment', referral: 'Specialist Referrals',
    education: 'Patient Education and Counseling', followUp: 'Follow-up',
  },
  untranslated: 'not translated',
  systems: {
    Constitutional: 'Constitutional', HEENT: 'HEENT', Cardiovascular: 'Cardiovascular', Respiratory: 'Respiratory',
    Gastrointestinal: 'Gastrointestinal', Genitourinary: 'Genitourinary', Musculoskeletal: 'Musculoskeletal', Neurological: 'Neurological',
    Psychiatric: 'Psychiatric', Skin: 'Skin', Endocrine: 'Endocrine', Hematologic: 'Hematologic', Neck: 'Neck', Vitals: 'Vitals',
  },
  symptoms: {},
  conditions: {},
  frequencies: {
    'once daily': 'once daily', 'twice daily': 'twice daily', 'three times daily': 'three times daily', 'four times daily': 'four times daily',
    'every {n} hours': 'every {n} hours', 'at bedtime': 'at bedtime', 'every other day': 'every other day', weekly: 'weekly', 'as needed': 'as needed',
  },
  vitals: {
    bloodPressure: 'Blood pressure', heartRate: 'Heart rate', temperature: 'Temperature', oxygenSaturation: 'Oxygen saturation',
    respiratoryRate: 'Respiratory rate', weight: 'Weight',
  },
  medication: '{drug} {dose} {frequency}',
  actions: {
    start: 'Start {medication}.', continue: 'Continue {medication}.', increase: 'Increase {drug} to {dose} {frequency}.',
    decrease: 'Decrease {drug} to {dose} {frequency}.', stop: 'Stop {drug}.', prescribe: 'Prescribe {medication}.', refill: 'Refill {medication}.',
  },
  order: 'Order {test}.',
  refer: 'Refer to {to}.',
  followUp: 'Follow up in {time}.',
  followUpAsNeeded: 'Follow up as needed.',
  time: { day: ['{n} day', '{n} days'], week: ['{n} week', '{n} weeks'], month: ['{n} month', '{n} months'], year: ['{n} year', '{n} years'] },
  amounts: same('a week; a month; a year; a couple weeks; a couple of weeks; a couple months; a couple of months; a few days; a few weeks; a few months'),
  tests: {},
  specialties: {},
  exam: {},
};

export { same };
