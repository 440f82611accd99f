/** Turns and sentences now live with the encounter understanding (one reading of the transcript). */
export { assignRoles, mergeInterrupted, parseTurns, roleOfLabel, toSentences, type Role, type Sentence, type Turn } from '../../../services/encounter/transcript.js';
