/**
 * EncounterFacts: the one understanding of a clinical encounter. A transcript (with the caller's
 * patientInfo, medicationList, previousNote and context) is read once into typed facts; the
 * embedded note writer renders its sections from them, the coder reads its problems, text-to-JSON
 * its fields, and the fidelity checker holds every writer to them. Every fact carries the span(s)
 * of the transcript it was read from and who said it, so a reader can show the evidence and a
 * checker can tell a patient's report from a clinician's finding.
 *
 * Terms are English canonical keys of the clinical-language core (lexicon.ts, phrases/keys.ts)
 * wherever the core knows the thing, so any note language can write them from its phrase table;
 * otherwise they are short clinical phrases in the transcript's language (`term` as normalised,
 * never a whole spoken sentence).
 */
import type { BodySystem } from '../clinical-language/lexicon.js';
import type { DrugAction, VitalKey } from '../clinical-language/phrases/types.js';

/** Who said it. `clinician` covers the doctor and a dictating clinician; `other` a relative, nurse or interpreter. */
export type Speaker = 'clinician' | 'patient' | 'other' | 'unknown';

/**
 * Where a fact was read: `[start, end)` offsets into `EncounterInput.transcript` exactly as given
 * (UTF-16 code units, as String.prototype.slice), and the speaker of that stretch. A fact read
 * from a question and its answer has two spans: the question's and the answer's.
 */
export interface Evidence {
  start: number;
  end: number;
  speaker: Speaker;
}

/** What every fact has. */
export interface Evidenced {
  /** One span or more, in transcript order; never empty for a fact read from the transcript. */
  evidence: Evidence[];
  /** Where the fact came from when not from the transcript: the caller's fields. */
  from?: 'transcript' | 'patientInfo' | 'medicationList' | 'previousNote' | 'context';
}

export type Laterality = 'left' | 'right' | 'bilateral';

/** Whether a symptom or finding is there: said to be there, said not to be, or hedged ("maybe a little"). */
export type Presence = 'reported' | 'denied' | 'uncertain';

/** Whose symptom or condition it is. */
export type Subject = 'patient' | 'family' | 'other';

/** Where a problem stands: new at this visit, chronic, resolved, or not said. */
export type ProblemStatus = 'new' | 'chronic' | 'resolved' | 'unknown';
/** How sure the clinician is of a diagnosis: a probable or ruled-out one is not coded (outpatient rule). */
export type Certainty = 'confirmed' | 'probable' | 'ruled-out';

/** A symptom the encounter speaks of, with its attributes as said. */
export interface Symptom extends Evidenced {
  /** Lexicon term ("cough", "knee pain") or a short normalised phrase. */
  term: string;
  system?: BodySystem;
  presence: Presence;
  subject: Subject;
  /** When it began, as said and normalised ("3 days ago", "last Tuesday", "after a fall"). */
  onset?: string;
  /** How long it has lasted ("1 week", "several months"). */
  duration?: string;
  /** "mild" | "moderate" | "severe", or a rating ("7/10"). */
  severity?: string;
  /** Body site ("knee", "lower back"), without the side. */
  location?: string;
  laterality?: Laterality;
  /** Qualities, triggers and relievers ("productive", "yellow sputum", "worse at night", "better with ibuprofen"). */
  modifiers: string[];
}

export type HistoryKind = 'medical' | 'surgical' | 'social' | 'family';

/** One item of past medical, surgical, social or family history. */
export interface HistoryItem extends Evidenced {
  kind: HistoryKind;
  /** Condition, operation or habit as a clinical term ("type 2 diabetes mellitus", "appendectomy", "former smoker"). */
  term: string;
  /** Denied history ("never smoked", "no surgeries") is kept as `denied`. */
  presence: Presence;
  /** For family history: the relative ("mother", "brother"). */
  relative?: string;
  /** When ("2019", "as a child", "10 years ago"). */
  when?: string;
  laterality?: Laterality;
}

/** `mentioned`: named without anything saying the patient takes it ("the prednisone they gave you in the ER"), so not on the current list. */
export type MedicationStatus = 'current' | 'past' | 'stopped' | 'mentioned';
export type Adherence = 'taking as prescribed' | 'missing doses' | 'not taking';

/** A medication the patient takes or took (changes ordered today are plan items). */
export interface Medication extends Evidenced {
  /** Name as the transcript or the caller's list spells it ("Lisinopril"). */
  name: string;
  /** Generic name from the lexicon, when known. */
  generic?: string;
  /** Written dose ("20 mg", "500-1000 mg"). */
  dose?: string;
  /** "oral", "inhaled", "topical", "subcutaneous", "intravenous"... */
  route?: string;
  /** The core's plain frequency ("once daily", "twice daily", "every 6 hours", "as needed"). */
  frequency?: string;
  adherence?: Adherence;
  status: MedicationStatus;
}

/** An allergy, or the statement of none (`substance: 'none known'`). */
export interface Allergy extends Evidenced {
  substance: string;
  reaction?: string;
}

/** Where a vital sign was measured. Only `today` belongs in today's vital signs. */
export type VitalSource = 'today' | 'home' | 'emergency' | 'elsewhere';

export interface Vital extends Evidenced {
  kind: VitalKey;
  /** Value as written ("132/84", "98.6", "97%", "180 lbs"). */
  value: string;
  source: VitalSource;
}

/** Body systems of the physical exam, as clinic notes label them. */
export type ExamSystem =
  | 'General' | 'HEENT' | 'Neck' | 'Cardiovascular' | 'Respiratory' | 'Gastrointestinal' | 'Genitourinary'
  | 'Musculoskeletal' | 'Neurological' | 'Skin' | 'Psychiatric' | 'Extremities' | 'Lymphatic';

/** One exam finding, by system and region, present or pertinently absent. */
export interface ExamFinding extends Evidenced {
  system: ExamSystem;
  /** Region examined ("knee", "lungs", "abdomen"), without the side. */
  region?: string;
  laterality?: Laterality;
  /** The finding in clinical words ("ecchymosis medially", "effusion", "regular rate and rhythm"). */
  finding: string;
  /** `denied` for a pertinent negative ("no effusion"). */
  presence: Presence;
  /**
   * The clinician's own dictated sentence, kept only when it passes the clinical-register gate
   * (complete clause, no first/second person, no disfluency, no question, no fragment).
   */
  dictated?: string;
}

export type Interpretation = 'normal' | 'abnormal' | 'high' | 'low' | 'positive' | 'negative' | 'unchanged' | 'improved' | 'worse' | 'controlled';

/** A test result (lab, imaging, ECG, a score). */
export interface Result extends Evidenced {
  /** Test as a core key where known ("hemoglobin a1c", "chest x-ray") or a short phrase. */
  test: string;
  /** Value as said, digits and unit ("8.2%", "142 mg/dL"). */
  value?: string;
  interpretation?: Interpretation;
  /** Finding in words when there is no value ("no fracture", "mild degenerative changes"). */
  finding?: string;
  /** When it was done ("today", "last week", "in March"). */
  when?: string;
  laterality?: Laterality;
}

export type PlanKind = 'medication' | 'test' | 'imaging' | 'referral' | 'procedure' | 'education' | 'follow-up' | 'other';

/** What a plan item does to a medication: the core's actions plus a switch to another drug. */
export type MedicationAction = DrugAction | 'change';

/** One item of the plan, with its evidence; belongs to a problem or to the visit as a whole. */
export interface PlanItem extends Evidenced {
  kind: PlanKind;
  /** For `medication`. */
  action?: MedicationAction;
  /** `replaces`: the drug a switch or step-down takes the patient off ("from Wixela to Alvesco 80 mcg"). */
  medication?: { name: string; generic?: string; dose?: string; route?: string; frequency?: string; duration?: string; replaces?: string };
  /** Test, imaging study, specialty, procedure or topic, as a core key where known ("mri", "physical therapy"). */
  target?: string;
  laterality?: Laterality;
  /** Follow-up interval or date ("in 2 weeks", "as needed"), or when a test is due. */
  when?: string;
  /**
   * For items the tables cannot write: a short imperative clinical phrase ("Keep the leg
   * elevated"), never a spoken sentence; `kind: 'other'` always has one.
   */
  text?: string;
  /**
   * The item waits on something ("if it doesn't improve we'll do an epidural", "once the x-ray
   * is back we'll decide about physical therapy"): not ordered today. The condition in clinical
   * words ("if symptoms do not improve"), or "if needed" where it could not be written.
   */
  condition?: string;
}

/** A problem of the assessment, with its reasoning and plan. */
export interface Problem extends Evidenced {
  /** Condition as a clinical term (core condition key where known, e.g. "hypertension"). */
  name: string;
  status: ProblemStatus;
  certainty: Certainty;
  laterality?: Laterality;
  /** The clinician's assessment sentences that pass the register gate, in clinical register. */
  reasoning: string[];
  plan: PlanItem[];
}

/** Something said that the pipeline could not place with confidence: listed for review, never dropped silently. */
export interface Unplaced extends Evidenced {
  /** The sentence as said (cleaned of disfluencies). */
  text: string;
  /** Where it would most likely go ("hpi", "exam", "plan"...). */
  section?: string;
  /** Why it was not placed ("no fact read", "failed register gate", "superseded"...). */
  reason: string;
}

/**
 * A statement of the encounter in clinical register: the patient's account or the clinician's
 * reasoning rewritten in the third person (verb agreement by part of speech) that passed the
 * register gate. Writers use it for narrative sections (history, assessment); the facts above
 * remain the source of truth for what is present, denied, ordered or measured.
 */
export interface Statement extends Evidenced {
  text: string;
  section: 'hpi' | 'assessment' | 'social' | 'exam';
  /** Higher says more (clinical words, numbers, attributes); writers keep the highest within their budget. */
  weight: number;
}

/** The patient, as the input and the dialogue tell it. */
export interface PatientFacts {
  sex?: 'female' | 'male';
  /** Age in years when said ("a 45-year-old", "I'm 62"). */
  age?: number;
  /** Evidence of the sex or age when read from the dialogue. */
  evidence: Evidence[];
}

/** One speaker turn of the transcript, as understood. */
export interface Utterance {
  speaker: Speaker;
  /** The label as written ("Doctor", "Speaker 1"), '' when untagged. */
  label: string;
  start: number;
  end: number;
}

/** The whole encounter, understood once. */
export interface EncounterFacts {
  /** Language of the transcript as read ("en"...); facts of other languages are sparse and mostly unplaced. */
  sourceLanguage: string;
  patient: PatientFacts;
  /** The reason for the visit as a clinical term ("right knee pain", "follow-up of hypertension"). */
  reasonForVisit?: { term: string } & Evidenced;
  symptoms: Symptom[];
  history: HistoryItem[];
  medications: Medication[];
  allergies: Allergy[];
  vitals: Vital[];
  exam: ExamFinding[];
  results: Result[];
  problems: Problem[];
  /** Plan items that belong to no single problem (general follow-up, labs for the visit). */
  plan: PlanItem[];
  /** The patient agreed with the plan (said so). */
  agreement?: Evidenced;
  /** Narrative statements in clinical register (optional: readers that only need facts ignore them). */
  statements?: Statement[];
  unplaced: Unplaced[];
  utterances: Utterance[];
}

/** What the pipeline reads. The transcript is required; the rest is the caller's context. */
export interface EncounterInput {
  transcript: string;
  patientInfo?: { name?: string; dateOfBirth?: string; sex?: 'female' | 'male' };
  /** Comma-separated medication names used to correct spelling (as the notes API takes it). */
  medicationList?: string;
  previousNote?: string;
  context?: string;
  /** The note language asked for; facts stay in English keys, this only guides reading. */
  language?: string;
}

/** The entry point's signature (implemented in `understand.ts`, exported from `index.ts`). */
export type UnderstandEncounter = (input: EncounterInput) => EncounterFacts;
