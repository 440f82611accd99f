/**
 * The shape of a clinical phrase table: the words a note writer needs to write structured facts
 * (symptoms with negation, medications with dose and frequency, vitals, orders, referrals,
 * follow-up, exam findings, problem names) in one note language. Keys are the English terms of
 * the clinical-language core (lexicon.ts, units.ts), so a fact read from an English transcript
 * is written in any language. Templates use `{name}` slots. Sources: phrases/README.md.
 */
import type { BodySystem } from '../lexicon.js';

/** Vital signs a note states with their value. */
export type VitalKey = 'bloodPressure' | 'heartRate' | 'temperature' | 'oxygenSaturation' | 'respiratoryRate' | 'weight';

/** How a plan line acts on a drug. */
export type DrugAction = 'start' | 'continue' | 'increase' | 'decrease' | 'stop' | 'prescribe' | 'refill';

/** Labels of the parts of a problem in an assessment and plan. */
export interface PlanLabels {
  reasoning: string;
  testing: string;
  treatment: string;
  referral: string;
  education: string;
  followUp: string;
}

export interface ClinicalPhrases {
  /** Before symptoms present ("Endorses", "Refiere"). */
  reports: string;
  /** Before symptoms absent ("Denies", "Niega"). */
  denies: string;
  /** The last joiner of a list ("and", "y"). */
  and: string;
  /** Between list items (", ", "、"). */
  comma: string;
  /** Between words (" ", '' in Chinese). */
  space: string;
  /** End of a sentence (".", "。"). */
  stop: string;
  /** The patient agreed to the plan. */
  agreement: string;
  labels: PlanLabels;
  /** Shown beside text left in the transcript's language ("not translated"). */
  untranslated: string;
  systems: Record<BodySystem | 'Neck' | 'Vitals', string>;
  /** Symptom names by the lexicon's English term. */
  symptoms: Readonly<Record<string, string>>;
  /** Problem names by English condition term (lower case). */
  conditions: Readonly<Record<string, string>>;
  /** Dosing frequencies by the core's plain English form; `every {n} hours` has a slot. */
  frequencies: Readonly<Record<string, string>>;
  vitals: Record<VitalKey, string>;
  /** `{drug} {dose} {frequency}` lines and plan orders. */
  medication: string;
  actions: Record<DrugAction, string>;
  /** `Order {test}.` */
  order: string;
  /** `Refer to {to}.` */
  refer: string;
  /** `Follow up in {time}.` */
  followUp: string;
  followUpAsNeeded: string;
  /** Units of time: [one, many]; `{n}` is the number. */
  time: Record<'day' | 'week' | 'month' | 'year', [string, string]>;
  /** Spoken amounts of time ("a couple of weeks") by English phrase. */
  amounts: Readonly<Record<string, string>>;
  tests: Readonly<Record<string, string>>;
  specialties: Readonly<Record<string, string>>;
  /** Exam finding phrases by English phrase (lower case), for findings said in those words only. */
  exam: Readonly<Record<string, string>>;
}
