/**
 * The clinical-language core: one place for how clinicians speak and write. Pure functions and
 * data, no I/O; every note writer, extraction, macros and dictation formatting use it.
 */
export * from './tokenize.js';
export * from './number-words.js';
export * from './numbers.js';
export * from './normalise.js';
export * from './units.js';
export * from './doses.js';
export * from './phrase-match.js';
export * from './context-triggers.js';
export * from './context.js';
export * from './edit-distance.js';
export * from './phonetic.js';
export * from './medications.js';
export * from './lexicon.js';
export * from './section-labels.js';
export * from './conversation.js';
export * from './segment.js';
export * from './phrases/tables.js';
export * from './language-guess.js';
