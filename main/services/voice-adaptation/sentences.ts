/**
 * The enrollment sentences the physician reads (about two minutes): dictation-like clinical
 * sentences chosen to cover English phones in many contexts (fricatives, affricates, nasals,
 * diphthongs, clusters), every word in the recogniser's dictionary. A few are held out of
 * adaptation: the account's own before/after word error rate is measured on them.
 */
export interface EnrollmentSentence {
  id: string;
  text: string;
  /** Measured on, never adapted on. */
  heldOut: boolean;
}

const TEXTS = [
  'The patient reports sharp chest pain radiating to the left shoulder since yesterday morning.',
  'Blood pressure is elevated today and the pulse is regular and strong.',
  'She denies fever, chills, nausea, vomiting or any change in her appetite.',
  'We will start metformin twice daily with meals and recheck the sugar in three months.',
  'The abdomen is soft and nontender with normal bowel sounds in all four quadrants.',
  'He has a long history of asthma, seasonal allergies and occasional wheezing at night.',
  'Lungs are clear to auscultation bilaterally without crackles or rhonchi.',
  'Continue lisinopril and check a basic metabolic panel before the next visit.',
  'The wound on the right forearm is healing well with no sign of infection.',
  'She was advised to avoid heavy lifting and to use ice on the knee after exercise.',
  'The child has a mild itchy rash on both cheeks and behind the ears.',
  'Family history is significant for diabetes, thyroid disease and early heart attacks.',
  'Examination of the knee shows swelling and tenderness along the medial joint line.',
  'Prescribe amoxicillin for ten days and return to clinic if the symptoms worsen.',
  'The patient quit smoking three years ago and drinks alcohol only on weekends.',
  'Neurological examination is normal with intact reflexes, sensation and strength.',
  'We discussed diet, regular exercise and realistic weight loss goals for this year.',
  'Thyroid function tests were ordered to evaluate her fatigue and hair loss.',
  'He reports occasional dizziness when standing up quickly from a chair.',
  'Assessment and plan: acute bronchitis, supportive care, follow up in one week.',
];

/** Every fifth sentence is held out (4 of 20), spread over the list so they are not all alike. */
export const ENROLLMENT_SENTENCES: readonly EnrollmentSentence[] = TEXTS.map((text, i) => ({
  id: `s${String(i + 1).padStart(2, '0')}`, text, heldOut: (i + 1) % 5 === 0,
}));

/** Recordings an adaptation run needs, held-out ones included. */
export const MINIMUM_RECORDINGS = 10;
