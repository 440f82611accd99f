import { describe, expect, it } from 'vitest';
import { understandEncounter } from '../../main/services/encounter/understand.js';

/**
 * The clinician's own sentences kept as a problem's reasoning must read as an assessment: verbs agreeing with the
 * third person, no instruction to the patient, no speech that broke off. A physician's reading of held-out notes found
 * "She does not have to take the pill." and "The patient can take that for 1 week." in the assessment. The transcripts
 * are written for these tests.
 */
const reasoning = (line: string): string[] => {
  const t = `[doctor] hi .\n[patient] hi , my right ankle hurts .\n[doctor] okay , let's talk about my assessment and plan .\n[doctor] for your ankle sprain , ${line}`;
  return understandEncounter({ transcript: t }).problems.flatMap((p) => p.reasoning);
};

describe('a problem\'s reasoning in the assessment', () => {
  it('makes the verb agree when an adverb stands between the subject and the verb', () => {
    expect(reasoning('you probably have a mild sprain of the ligament .')).toEqual(['The patient probably has a mild sprain of the ligament.']);
    expect(reasoning("you certainly don't have a fracture on the x-ray .")).toEqual(["The patient certainly doesn't have a fracture on the x-ray."]);
  });

  it('keeps an instruction to the patient out of the assessment', () => {
    for (const line of ['you can take that for one week with food .', "you'll take 15 mg once a day for the swelling .", 'receive another injection in the ankle if needed .', 'please avoid running on the ankle for two weeks .', 'you are just going to put the brace on in the morning .', "you don't have to take the pill if the swelling stops ."]) {
      expect(reasoning(line), line).toEqual([]);
    }
  });

  it('keeps speech that broke off or restarted out of the assessment', () => {
    for (const line of ['you did have the those ankle sprains before .', 'the ankle brace can if you have swelling help a lot .', 'you passing that swelling in the ankle .', 'for the next couple of weeks on doing any running on the ankle .']) {
      expect(reasoning(line), line).toEqual([]);
    }
  });

  it('still keeps a statement of the assessment', () => {
    expect(reasoning('this is due to overuse from the increase in your running .')).toEqual(['This is due to overuse from the increase in the patient\'s running.']);
  });
});
