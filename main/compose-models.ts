/**
 * Wiring of the model manager, shared by the server's composition and the `clindoc models`
 * command: the catalog (bundled, or CLINDOC_MODEL_CATALOG), the SQLite store, the models folder in
 * the data folder, the HTTP downloader (through CLINDOC_MODEL_MIRROR when set) and, for the server,
 * a job runner of its own so a long download never waits behind notes, nor they behind it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import type { Db } from './store/database.js';
import { createJobStore } from './store/job-store.js';
import { createModelStore } from './store/model-store.js';
import { createModelFiles } from './engines/models/model-files.js';
import { createHttpDownloader, type StatFs } from './engines/models/http-download.js';
import { createModelInspector } from './engines/models/model-inspector.js';
import { parseCatalog, parseQuality, type ModelCatalog } from './services/models/catalog.js';
import type { EngineQualityFile } from '../shared/api/models.js';
import { createModelService, MODEL_PULL_JOB, type ModelService } from './services/models/model-service.js';
import { createJobRunner, type JobRunner } from './jobs/job-runner.js';
import { lateBound, type LateBound } from './late-bound.js';

export { MODEL_PULL_JOB };

/** The models folder inside a data folder. */
export const modelsFolder = (dataDir: string): string => join(dataDir, 'models');

/**
 * Reads the catalog. A missing or broken catalog leaves the manager with none (installed models
 * and imports still work) and says why through `warn`; it never stops Clindoc from starting.
 */
export function loadModelCatalog(config: Pick<ClindocConfig, 'models' | 'resources'>, warn: (message: string) => void): ModelCatalog {
  const path = config.models.catalogPath ?? join(config.resources.modelsDir, 'catalog.json');
  try {
    return parseCatalog(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    warn(`model catalog ${path} not used: ${(err as Error).message}`);
    return { version: 1, updated: '1970-01-01', entries: [] };
  }
}

/** The measured engine figures (`resources/models/quality.json`); none, with a warning, when unreadable. */
export function loadEngineQuality(config: Pick<ClindocConfig, 'resources'>, warn: (message: string) => void): EngineQualityFile {
  const path = join(config.resources.modelsDir, 'quality.json');
  try {
    return parseQuality(JSON.parse(readFileSync(path, 'utf8')));
  } catch (err) {
    warn(`engine quality figures ${path} not used: ${(err as Error).message}`);
    return { version: 1, measurements: [] };
  }
}

export interface ModelManagerOptions {
  /** Queues a download job; the server hands in its downloads runner, the CLI runs pulls itself. */
  enqueue?: (kind: string, accountId: string, resourceId: string) => Promise<void>;
  /** Whether an engine uses a model now, and how to unload it (the engine registry). */
  inUse?: (id: string) => boolean;
  unload?: (id: string) => Promise<void>;
  /** Free-space reader (tests report a full disk). */
  statfs?: StatFs;
}

export function composeModelManager(config: ClindocConfig, db: Db, logger: Pick<Logger, 'warn'>, options: ModelManagerOptions = {}): { service: ModelService; catalog: ModelCatalog } {
  const catalog = loadModelCatalog(config, (message) => logger.warn(message));
  const service = createModelService({
    catalog, store: createModelStore(db), files: createModelFiles({ root: modelsFolder(config.dataDir), ...(options.statfs ? { statfs: options.statfs } : {}) }),
    downloader: createHttpDownloader(options.statfs ? { statfs: options.statfs } : {}), inspector: createModelInspector(),
    enqueue: options.enqueue ?? (async () => undefined),
    ...(config.models.mirror ? { mirror: config.models.mirror } : {}),
    ...(options.inUse ? { inUse: options.inUse } : {}),
    ...(options.unload ? { unload: options.unload } : {}),
  });
  return { service, catalog };
}

/** A job runner that takes only model downloads, one at a time, retried with backoff (they resume). */
export function createDownloadRunner(db: Db, logger: Logger, models: Pick<ModelService, 'runPull' | 'failPull'>, concurrency = 1): JobRunner {
  return createJobRunner({
    store: createJobStore(db, { only: [MODEL_PULL_JOB] }), logger, concurrency,
    retryDelayMs: (attempt) => Math.min(60_000, 2000 * 2 ** (attempt - 1)),
    handlers: { [MODEL_PULL_JOB]: { run: (id) => models.runPull(id), giveUp: (id, message) => models.failPull(id, message) } },
  });
}

/** What the model manager asks of the engines: whether one uses a model now, and to let it go. */
export interface ModelEngines {
  inUse(id: string): boolean;
  unload(id: string): Promise<boolean>;
}

export interface ComposedModels {
  service: ModelService;
  /** The downloads' own job runner, so a long download never waits behind notes, nor they behind it. */
  downloads: JobRunner;
  /** The engine registry, bound once it exists (it reads this manager's installed models). */
  engines: LateBound<ModelEngines>;
}

/**
 * The server's model manager: the service, its downloads runner (which the service enqueues into, and
 * which runs the service's pulls) and the list of installed models read once, because the engines
 * ask for it at every use and cannot wait.
 */
export async function composeModels(config: ClindocConfig, db: Db, logger: Logger): Promise<ComposedModels> {
  const pulls = lateBound<JobRunner>('model downloads runner');
  const engines = lateBound<ModelEngines>('engine registry');
  const { service } = composeModelManager(config, db, logger, {
    enqueue: (kind, accountId, id) => pulls.get().enqueue(kind, accountId, id),
    inUse: (id) => engines.get().inUse(id), unload: async (id) => void (await engines.get().unload(id)),
  });
  const downloads = createDownloadRunner(db, logger, service, config.jobConcurrency > 0 ? 1 : 0);
  pulls.bind(downloads);
  await service.refreshInstalled();
  return { service, downloads, engines };
}
