/**
 * The services whose work is CPU-bound, seen from the request thread: the same interfaces, each
 * call carried out by the compute pool (in a worker that builds the real services).
 */
import type { CodingAnalysis, CodingService } from '../coding/coding-service.js';
import type { ExtractionResult, ExtractionService } from '../extraction/index.js';
import type { MacroDetectRequest, MacroDetectResult, MacroService } from '../macros/index.js';
import type { GeneratedNote, NoteGenerationInput, NoteWriter, StyleWriter } from '../notes/ports.js';
import type { ComputePool } from './ports.js';

/**
 * The text engine a caller's work follows (its account's note engine; the device's when no account
 * is named): `embedded` calls no language model. Resolved here, on the request thread, and passed
 * with the task, so nothing is sent to a server the account did not choose.
 */
export type TextEngineOf = (accountId?: string) => Promise<TextEngineRef>;

/** A text engine by its registry name (how the worker asks for it) and the engine it is (how answers name it). */
export interface TextEngineRef {
  name: string;
  engine: string;
}

const embeddedOnly: TextEngineOf = async () => ({ name: 'embedded', engine: 'embedded' });

export function offloadedExtraction(pool: ComputePool, engineOf: TextEngineOf = embeddedOnly): ExtractionService {
  // The worker answers the whole result (value, engine, review); `extract` keeps the value.
  const extractChecked = async (text: string, schema: unknown, accountId?: string): Promise<ExtractionResult> =>
    pool.run('extract', [text, schema, await engineOf(accountId)]) as Promise<ExtractionResult>;
  return { extractChecked, extract: async (text, schema, accountId) => (await extractChecked(text, schema, accountId)).data };
}

export function offloadedMacros(pool: ComputePool): MacroService {
  return { detect: (request: MacroDetectRequest) => pool.run('detectMacros', [request]) as Promise<MacroDetectResult> };
}

/** Coding analysis; `edition` stays the request thread's (the table it would load is the worker's too). */
export function offloadedCoding(pool: ComputePool, edition: () => string, engineOf: TextEngineOf = embeddedOnly): CodingService {
  return {
    get edition() {
      return edition();
    },
    analyzeText: async (text, options) => {
      const { accountId, ...rest } = options ?? {};
      return pool.run('analyzeText', [text, rest, await engineOf(accountId)]) as Promise<CodingAnalysis>;
    },
    analyzeNote: async (accountId, noteId) => pool.run('analyzeNote', [accountId, noteId, await engineOf(accountId)]) as Promise<CodingAnalysis>,
  };
}

/** The embedded note writer; `generatedBy` is set here as the engine registry sets it for every writer. */
export function offloadedNoteWriter(pool: ComputePool): NoteWriter {
  return {
    name: 'embedded',
    write: async (input: NoteGenerationInput) => ({ ...((await pool.run('writeNote', [input])) as GeneratedNote), generatedBy: { engine: 'embedded' } }),
  };
}

export function offloadedStyleWriter(pool: ComputePool): StyleWriter {
  return { name: 'embedded', createTemplate: (sample, instructions) => pool.run('createTemplate', [sample, instructions]) as Promise<string> };
}
