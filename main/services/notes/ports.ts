import type { NoteTemplate } from '../../../shared/note-template.js';
import type { NoteLanguage } from '../../../shared/languages.js';
import type { EncounterFacts } from '../encounter/types.js';

/** The note type a caller asked for (contract `noteType`, with API-DECISIONS' extra types). */
export interface NoteTypeSpec {
  type: 'note_style' | 'soap' | 'note_template';
  description?: string;
  /** Free-text instruction naming the sections the note must have (note_style). */
  template?: string;
  includeJson?: boolean;
  /** Resolved NoteTemplate object for `note_template` (inline or loaded by id before writing). */
  noteTemplate?: NoteTemplate;
}

/** Everything a note writer may use. Patient data: never log any field of this. */
export interface NoteGenerationInput {
  transcript: string;
  noteType: NoteTypeSpec;
  /** Encounter date, `YYYY-MM-DD` or `YYYY-MM-DDTHH:mm:ssZ`. */
  date?: string;
  language: NoteLanguage;
  patientInfo?: { name?: string; dateOfBirth?: string };
  previousNote?: string;
  context?: string;
  instructions?: string[];
  /** Comma-separated medication names used to correct spelling. */
  medicationList?: string;
  /** Share of the transcript's words the recogniser was unsure of (0..1), when the client knows it (issue 27). */
  transcriptUnsureShare?: number;
}

/**
 * What a writer returns. The note service passes it through the fidelity checker (`fidelity.ts`)
 * before storing it, the same rule for every writer.
 */
export interface GeneratedNote {
  markdown: string;
  /** Structured form of the same note; present when `noteType.includeJson` is true. */
  json?: Record<string, unknown>;
  /** The engine and model that wrote it (set by the composition's engine registry), kept with the note. */
  generatedBy?: EngineUsed;
  /** What the reader must know about the engine's work (a language the model does not support): first in the review list. */
  notices?: Array<{ text: string; reason: string }>;
  /**
   * The encounter as the writer understood it (main/services/encounter), when it read it: the
   * fidelity checker holds the note to these facts instead of reading the transcript again. Not stored.
   */
  facts?: EncounterFacts;
}

/** Which engine, and which model of it, made a note or a transcript. */
export interface EngineUsed {
  /** `embedded`, `llama-cpp`, `openai-compatible`, `pocketsphinx`, `onnx-whisper`... */
  engine: string;
  /** An installed model's id, a model file or folder name, or a server's model name. */
  model?: string;
  /** The chosen engine that failed, when this one wrote it instead. */
  fallbackFrom?: { engine: string; model?: string; reason: string };
}

/** A text engine that writes clinical notes (embedded deterministic writer or a language model). */
export interface NoteWriter {
  readonly name: string;
  write(input: NoteGenerationInput): Promise<GeneratedNote>;
}

/** Turns a sample note plus instructions into a reusable note-style template text. */
export interface StyleWriter {
  readonly name: string;
  createTemplate(sampleNote: string, instructions: string[]): Promise<string>;
}
