/**
 * The composition inside a compute worker (node:worker_threads): builds the CPU-bound services
 * (text-to-JSON, coding analysis, the embedded note and style writers, macro detection) as the
 * main composition would, and serves the pool's tasks with them. What only the request thread
 * holds (the language model, stored notes) is asked of it through host calls.
 *
 * Each service is loaded, and its tables built, at its first task in this worker, outside that
 * task's budget (the same work whatever the input): a worker starts in a fraction of a second, a
 * note job does not wait for the code table, and a budget counts what the request's input asks for.
 */
import { join } from 'node:path';
import { WARM_UP } from './services/coding/icd-coder.js';
import { workerData } from 'node:worker_threads';
import { hostCall, serveComputeTasks, untimed } from './engines/compute/worker-side.js';
import type { ComputeTask } from './services/compute/ports.js';
import type { TextEngineRef } from './services/compute/offloaded.js';
import type { AnalyzeOptions, CodableNote, CodingService } from './services/coding/coding-service.js';
import type { ExtractionService } from './services/extraction/index.js';
import type { InlineMacroService, MacroDetectRequest } from './services/macros/index.js';
import type { CompletionRequest, CompletionResult, LanguageModel } from './services/language-model.js';
import type { NoteGenerationInput, NoteWriter, StyleWriter } from './services/notes/ports.js';

/** What the main composition hands each worker: plain data only. */
export interface ComputeWorkerData {
  codesDir: string;
  dataDir: string;
  cptTablePath?: string;
  /** Instructions of model-based extraction (read by the main composition). */
  extractionPrompt?: string;
}

const data = workerData as ComputeWorkerData;

/**
 * The text engine a task follows: the account's note engine, resolved by the request thread and
 * passed with each task (`embedded`: no language model is called). A model is reached through the
 * request thread by that name; an AbortSignal cannot cross threads, and the model's own timeout
 * (CLINDOC_LLM_TIMEOUT_MS) still bounds the call.
 */
const modelNamed = (ref: TextEngineRef): LanguageModel | undefined =>
  ref.engine !== 'embedded'
    ? { name: ref.engine, complete: ({ signal: _signal, ...request }: CompletionRequest) => hostCall('languageModel.complete', [request, ref.name]) as Promise<CompletionResult> }
    : undefined;

/** Builds a service once, at its first task, with the budget stopped. */
const once = <T>(build: () => Promise<T>): (() => Promise<T>) => {
  let built: Promise<T> | undefined;
  return () => (built ??= untimed(build));
};

/** One service per text engine, over the same embedded parts (tables built once). */
const EMBEDDED: TextEngineRef = { name: 'embedded', engine: 'embedded' };
const perEngine = <T>(build: (model: LanguageModel | undefined) => Promise<T>): ((engine?: TextEngineRef) => Promise<T>) => {
  const built = new Map<string, Promise<T>>();
  return (ref = EMBEDDED) => {
    let service = built.get(ref.name);
    if (!service) built.set(ref.name, (service = untimed(() => build(modelNamed(ref)))));
    return service;
  };
};

const embeddedExtractor = once(async () => {
  const [{ createExtractionService }, { createEmbeddedExtractor }] = await Promise.all([import('./services/extraction/index.js'), import('./engines/extraction/index.js')]);
  const extractor = createEmbeddedExtractor();
  // The reader's lexicons are built at first use: a small reading builds them.
  await createExtractionService({ extractor }).extract('BP 120/80. PHQ-9 score 4.', { type: 'object', properties: { bp: { type: 'string' }, phq9_score: { type: 'number' } } });
  return { createExtractionService, extractor };
});

const extraction = perEngine(async (model): Promise<ExtractionService> => {
  const { createExtractionService, extractor } = await embeddedExtractor();
  return createExtractionService({ extractor, ...(model && data.extractionPrompt !== undefined ? { llm: { model, prompt: data.extractionPrompt } } : {}) });
});

const macros = once(async (): Promise<InlineMacroService> => {
  const { createMacroService } = await import('./services/macros/index.js');
  const service = createMacroService();
  service.detect({ text: 'normal cardiac exam', macros: [{ id: 'warm', examples: ['normal cardiac exam'], expansion_text: '.' }] });
  return service;
});

const codeTables = once(async () => {
  const [{ loadCodeTable }, { readCodingLexicon }, { readCptTable }, { createLlmCodeProposer }, { createCodingService }, { createIcdCoder }, { engineUnavailable }] = await Promise.all([
    import('./engines/coding/code-table.js'), import('./engines/coding/lexicon-file.js'), import('./engines/coding/cpt-table.js'), import('./engines/coding/llm-proposer.js'),
    import('./services/coding/coding-service.js'), import('./services/coding/icd-coder.js'), import('./services/errors.js'),
  ]);
  const table = loadCodeTable({ bundledDir: data.codesDir, dataDir: data.dataDir });
  if (!table) throw engineUnavailable('coding: no ICD-10-CM code set (bundled resources/codes, or clindoc codes import)');
  const coder = createIcdCoder(table, readCodingLexicon(join(data.codesDir, 'synonyms.json')));
  for (const w of WARM_UP) coder.analyze(w); // builds the coder's indexes and compiles its patterns (seconds)
  return { table, coder, readCptTable, createLlmCodeProposer, createCodingService };
});

const coding = perEngine(async (model): Promise<CodingService> => {
  const { table, coder, readCptTable, createLlmCodeProposer, createCodingService } = await codeTables();
  return createCodingService({
    coder: () => coder,
    notes: { get: (accountId, noteId) => hostCall('notes.get', [accountId, noteId]) as Promise<CodableNote> },
    ...(data.cptTablePath ? { cpt: readCptTable(data.cptTablePath) } : {}),
    ...(model ? { proposer: createLlmCodeProposer(model, () => table) } : {}),
  });
});

const writers = once(async (): Promise<{ note: NoteWriter; style: StyleWriter }> => {
  const { createEmbeddedNoteWriter, createEmbeddedStyleWriter } = await import('./engines/text/embedded/index.js');
  const note = createEmbeddedNoteWriter();
  await note.write({ transcript: '[patient] I have a cough. [doctor] Lungs are clear.', noteType: { type: 'soap' }, language: 'en' });
  return { note, style: createEmbeddedStyleWriter() };
});

/** Tasks the pool asked this worker to load for before it says it is ready (`ComputePool.prepare`). */
const loaders: Partial<Record<ComputeTask, () => Promise<unknown>>> = {
  extract: () => extraction(), detectMacros: macros, analyzeText: () => coding(), analyzeNote: () => coding(), writeNote: writers, createTemplate: writers,
};
for (const task of (workerData as { prepare?: ComputeTask[] }).prepare ?? []) await loaders[task]?.().catch(() => undefined);

serveComputeTasks({
  // The whole answer (value, engine, review): the route names the engine and lists what the check flagged.
  extract: async (text: string, schema: unknown, engine?: TextEngineRef) => (await extraction(engine)).extractChecked(text, schema),
  detectMacros: async (request: MacroDetectRequest) => (await macros()).detect(request),
  analyzeText: async (text: string, options?: AnalyzeOptions, engine?: TextEngineRef) => (await coding(engine)).analyzeText(text, options),
  analyzeNote: async (accountId: string, noteId: string, engine?: TextEngineRef) => (await coding(engine)).analyzeNote(accountId, noteId),
  writeNote: async (input: NoteGenerationInput) => (await writers()).note.write(input),
  createTemplate: async (sample: string, instructions: string[]) => (await writers()).style.createTemplate(sample, instructions),
});
