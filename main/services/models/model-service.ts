/**
 * The model manager: which recommended models exist (the catalog), which are installed on this
 * device, downloads as durable jobs with progress, cancel and resume, imports from a file or
 * folder, verification and removal. A catalog file is accepted only when its hash is the
 * publisher's (every catalog file carries one); an imported model the catalog does not list must
 * parse as a model of its engine, and its hashes are recorded then. A download that does not fit
 * on the disk is refused before it starts.
 */
import type { ModelPullView, ModelVerifyResult, ModelView } from '../../../shared/api/models.js';
import { createModelContext, MODEL_PULL_JOB, type ModelServiceDeps } from './model-context.js';
import { importModel, installedLocations, listModels, removeModel, verifyModel, viewOf } from './model-inventory.js';
import { cancelPull, failPull, latestPull, offlineHint, queuePull, runPull } from './model-pulls.js';
import type { InstalledModelRecord } from './ports.js';

export { MODEL_PULL_JOB, offlineHint, type ModelServiceDeps };

export interface ModelService {
  list(): Promise<ModelView[]>;
  get(id: string): Promise<ModelView>;
  /** Queues a download and answers at once (409 when installed, 507 when it cannot fit). */
  pull(accountId: string, id: string): Promise<ModelPullView>;
  /** Runs a queued download to its end (job handler; the CLI runs it in the foreground). */
  runPull(pullId: string, onProgress?: (pull: ModelPullView) => void): Promise<void>;
  /** Marks a pull failed after the job runner gave up retrying it. */
  failPull(pullId: string, message: string): Promise<void>;
  /** The newest pull of a model (404 when it was never pulled). */
  latestPull(id: string): Promise<ModelPullView>;
  /** Stops a queued or running download; what it fetched stays for the next pull to resume. */
  cancelPull(id: string): Promise<ModelPullView>;
  /**
   * Deletes an installed model (409 while an engine uses it) and anything staged for it; for a
   * model never installed, its unfinished download. 404 when there is neither.
   */
  remove(id: string): Promise<'model' | 'download'>;
  /**
   * Copies a local file or folder in: a catalog entry's files must have the publisher's hashes;
   * any model must parse as one its engine runs (the view's `inspected` says what was found).
   */
  importFrom(source: string, requestedId?: string): Promise<ModelView>;
  /** Hashes an installed model's files again and compares them with what was recorded. */
  verify(id: string): Promise<ModelVerifyResult>;
  /**
   * Installed models with where they lie, for the engines, which ask at every use and cannot
   * wait: the list as last read from the store. It is read again at once after an install or a
   * removal here, and in the background when older than a second, so a model the CLI installed
   * shows up at the next use after that.
   */
  installed(): Array<InstalledModelRecord & { location: string }>;
  /** Reads the installed models from the store (once at start, before `installed` is asked). */
  refreshInstalled(): Promise<void>;
  /** Stops running downloads for a shutdown; they stay queued and resume at the next start. */
  shutdown(): void;
}

/** The model manager over its parts: pulls (model-pulls), what is installed (model-inventory), the checks both share (model-staging). */
export function createModelService(deps: ModelServiceDeps): ModelService {
  const ctx = createModelContext(deps);
  return {
    list: () => listModels(ctx),
    get: (id) => viewOf(ctx, id),
    pull: (accountId, id) => queuePull(ctx, accountId, id),
    runPull: (pullId, onProgress) => runPull(ctx, pullId, onProgress),
    failPull: (pullId, message) => failPull(ctx, pullId, message),
    latestPull: (id) => latestPull(ctx, id),
    cancelPull: (id) => cancelPull(ctx, id),
    remove: (id) => removeModel(ctx, id),
    importFrom: (source, requestedId) => importModel(ctx, source, requestedId),
    verify: (id) => verifyModel(ctx, id),
    shutdown() {
      ctx.stopping = true;
      for (const controller of ctx.running.values()) controller.abort();
    },
    refreshInstalled: () => ctx.installed.refresh(),
    installed: () => installedLocations(ctx),
  };
}
