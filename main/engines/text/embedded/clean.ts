/** Spoken-language clean-up now lives with the encounter understanding (one reading of speech). */
export { cleanUtterance, polishSentence } from '../../../services/encounter/clean.js';
