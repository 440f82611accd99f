/**
 * The embedded text engine: a deterministic clinical note writer and style writer that need
 * no model. See docs/notes.md for how it works and what it can and cannot translate.
 */
export { createEmbeddedNoteWriter, writeNoteSync } from './note-writer.js';
export { createEmbeddedStyleWriter, createTemplateText } from './style-writer.js';
export { parseTurns, toSentences, type Role, type Turn, type Sentence } from './transcript.js';
