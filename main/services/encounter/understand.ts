/**
 * The entry point: transcript and caller context in, EncounterFacts out.
 */
import type { EncounterFacts, EncounterInput } from './types.js';

/** Read an encounter into facts (first cut: the empty understanding, so callers can be wired). */
export function understandEncounter(input: EncounterInput): EncounterFacts {
  void input;
  return {
    sourceLanguage: 'en', patient: { evidence: [] }, symptoms: [], history: [], medications: [], allergies: [], vitals: [], exam: [],
    results: [], problems: [], plan: [], unplaced: [], utterances: [],
  };
}
