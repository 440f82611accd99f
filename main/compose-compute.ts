/**
 * Part of the one composition: the compute pool (worker threads) that runs text-to-JSON, coding
 * analysis, embedded note and style writing and macro detection under CLINDOC_WORK_BUDGET_MS, away
 * from the thread that answers requests, `/healthz` and live dictation (issue 29: one hostile
 * schema held that thread for 9.5 s).
 */
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import type { ComputeWorkerData } from './compute-worker.js';
import { createWorkerPool } from './engines/compute/worker-pool.js';
import type { ComputePool } from './services/compute/ports.js';
import type { CodableNote } from './services/coding/coding-service.js';
import type { CompletionRequest, LanguageModel } from './services/language-model.js';
import { engineUnavailable } from './services/errors.js';
import { missingAppFiles, readExtractionPrompt } from './app-files.js';

/** Tasks that may wait for a worker at once: beyond, a 503 with Retry-After rather than an ever longer queue. */
const MAX_WAITING = 64;
/** Heap of one worker: the ICD-10-CM table and a large schema fit with room; a task that allocates without end loses its worker, not the process. */
const WORKER_HEAP_MB = 2048;

/**
 * Warns of bundled files that are missing (the interface; the prompts when a language model is
 * configured, as an installed one can be chosen later too) and reads the extraction model's
 * instructions: services never read files, so they are read here and handed in. Read whether or not
 * a model is configured now, since an account may choose one it installs later.
 */
export function readBundledPrompts(config: ClindocConfig, logger: Logger, defaultTextEngine: string): { extractionPrompt?: string } {
  const { promptsDir } = config.resources;
  const languageModelPossible = defaultTextEngine !== 'embedded';
  for (const m of missingAppFiles({ rendererDir: config.rendererDir, ...(languageModelPossible ? { promptsDir } : {}) })) {
    logger.warn({ path: m.path }, `bundled ${m.what} missing: ${m.consequence}`);
  }
  const extractionPrompt = readExtractionPrompt(promptsDir, logger, languageModelPossible);
  return extractionPrompt !== undefined ? { extractionPrompt } : {};
}

export function composeCompute(
  config: ClindocConfig,
  deps: {
    logger: Logger;
    /** The language model of a text engine name (undefined: the embedded writer, no model). */
    languageModel: (engine: string) => LanguageModel | undefined;
    extractionPrompt?: string;
    notes: { get(accountId: string, noteId: string): Promise<CodableNote> };
  },
): ComputePool {
  const workerData: ComputeWorkerData = {
    codesDir: config.resources.codesDir, dataDir: config.dataDir,
    ...(config.cptTablePath ? { cptTablePath: config.cptTablePath } : {}),
    ...(deps.extractionPrompt !== undefined ? { extractionPrompt: deps.extractionPrompt } : {}),
  };
  // The source tree (tsx, tests) or the compiled tree: the worker's module sits beside this one either way.
  const entry = new URL(import.meta.url.endsWith('.ts') ? './compute-worker.ts' : './compute-worker.js', import.meta.url);
  return createWorkerPool({
    entry, size: config.workThreads, budgetMs: config.workBudgetMs, maxWaiting: MAX_WAITING,
    // Waiting covers tasks ahead of it and a worker's start (a second or two; more under tsx or a loaded machine).
    maxWaitMs: Math.max(4 * config.workBudgetMs, 60_000), workerData, maxHeapMb: WORKER_HEAP_MB,
    host: {
      // The worker names the engine the request thread resolved for the task's account.
      'languageModel.complete': (request: CompletionRequest, engine: string) => {
        const model = deps.languageModel(engine);
        if (!model) throw engineUnavailable('no language model is chosen for this task');
        return model.complete(request);
      },
      'notes.get': (accountId: string, noteId: string) => deps.notes.get(accountId, noteId),
    },
    onWorkerLost: (info) => deps.logger.error(info, 'compute worker died; its task failed and a new worker takes the next'),
  });
}
