/**
 * The services whose work is CPU-bound, seen from the request thread: the same interfaces, each
 * call carried out by the compute pool (in a worker that builds the real services).
 */
import type { CodingAnalysis, CodingService } from '../coding/coding-service.js';
import type { ExtractionResult, ExtractionService } from '../extraction/index.js';
import type { MacroDetectRequest, MacroDetectResult, MacroService } from '../macros/index.js';
import type { GeneratedNote, NoteGenerationInput, NoteWriter, StyleWriter } from '../notes/ports.js';
import type { ComputePool } from './ports.js';

export function offloadedExtraction(pool: ComputePool): ExtractionService {
  // The worker answers the whole result (value, engine, review); `extract` keeps the value.
  const extractChecked = (text: string, schema: unknown): Promise<ExtractionResult> => pool.run('extract', [text, schema]) as Promise<ExtractionResult>;
  return { extractChecked, extract: async (text, schema) => (await extractChecked(text, schema)).data };
}

export function offloadedMacros(pool: ComputePool): MacroService {
  return { detect: (request: MacroDetectRequest) => pool.run('detectMacros', [request]) as Promise<MacroDetectResult> };
}

/** Coding analysis; `edition` stays the request thread's (the table it would load is the worker's too). */
export function offloadedCoding(pool: ComputePool, edition: () => string): CodingService {
  return {
    get edition() {
      return edition();
    },
    analyzeText: (text, options) => pool.run('analyzeText', options ? [text, options] : [text]) as Promise<CodingAnalysis>,
    analyzeNote: (accountId, noteId) => pool.run('analyzeNote', [accountId, noteId]) as Promise<CodingAnalysis>,
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
