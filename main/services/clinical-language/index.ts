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
