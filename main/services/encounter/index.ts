/**
 * The encounter room: one understanding of a clinical encounter (EncounterFacts), read once
 * from the transcript and the caller's context, with evidence spans. Pure: imports only itself,
 * `shared/`, the clinical-language core and pure libraries.
 */
export * from './types.js';
export { understandEncounter } from './understand.js';
