/**
 * The model manager: which recommended models exist (the catalog), which are installed on this
 * device, downloads as durable jobs with progress, cancel and resume, imports from a file or
 * folder, verification and removal. A catalog file is accepted only when its hash is the
 * publisher's (every catalog file carries one); an imported model the catalog does not list must
 * parse as a model of its engine, and its hashes are recorded then. A download that does not fit
 * on the disk is refused before it starts.
 */
import { randomUUID } from 'node:crypto';
import type { ModelCatalog, ModelCatalogEntry, ModelInspection, ModelPullView, ModelVerifyResult, ModelView } from '../../../shared/api/models.js';
import { DomainError, invalidRequest, notFound } from '../errors.js';
import { expectedBytes, mirrorUrl } from './catalog.js';
import { planImport, type ImportPlan } from './import-plan.js';
import { DownloadError, UnusableModelError, type FileDigest, type InstalledModelRecord, type ModelDownloader, type ModelFiles, type ModelInspector, type ModelPullRecord, type ModelStore } from './ports.js';
import { installedView, pullView } from './views.js';

export const MODEL_PULL_JOB = 'model_pull';

/** The two ways to install a model on a computer that cannot reach the publisher. */
export const offlineHint = (id: string): string =>
  `Without a connection to the publisher: copy the model's file or folder here from another computer and run ` +
  `\`clindoc models import PATH --id ${id}\`, or set CLINDOC_MODEL_MIRROR to a mirror on the clinic's network.`;

/** The folder configuration Clindoc writes; not part of the publisher's files, so never pinned. */
const FOLDER_CONFIG = 'clindoc.json';

/** How old the list of installed models the engines see may grow before it is read again. */
const INSTALLED_MAX_AGE_MS = 1000;

export interface ModelServiceDeps {
  catalog: ModelCatalog;
  store: ModelStore;
  files: ModelFiles;
  downloader: ModelDownloader;
  /** Reads an imported model's header (GGUF, ONNX) before it is accepted; without one, imports are checked by hash and name only. */
  inspector?: ModelInspector;
  /** Queues a durable job (the job runner calls `runPull`); resolves once it is stored. */
  enqueue: (kind: string, accountId: string, resourceId: string) => Promise<void>;
  /** CLINDOC_MODEL_MIRROR: replaces the scheme and host of every catalog address. */
  mirror?: string;
  /** Free space left on the disk after a download (default 256 MiB), so the database and audio still fit. */
  reserveBytes?: number;
  /** Whether an engine is using the model now (a live session); such a model is not removed. */
  inUse?: (id: string) => boolean;
  /** Unloads a model from memory before its files are removed. */
  unload?: (id: string) => Promise<void>;
  now?: () => number;
  /** How often progress is written to the store while downloading (ms, default 250). */
  progressEveryMs?: number;
}

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

export function createModelService(deps: ModelServiceDeps): ModelService {
  const now = deps.now ?? Date.now;
  const reserve = deps.reserveBytes ?? 256 * 1024 * 1024;
  const entries = new Map(deps.catalog.entries.map((e) => [e.id, e]));
  const running = new Map<string, AbortController>();
  // Bytes as they arrive, for readers in this process; the store is written at most every progressEveryMs.
  const live = new Map<string, { receivedBytes: number; file: string | null }>();
  let stopping = false;
  const withLive = (pull: ModelPullRecord): ModelPullRecord => (pull.status === 'running' && live.has(pull.id) ? { ...pull, ...live.get(pull.id)! } : pull);
  const iso = (t: number): string => new Date(t).toISOString();
  let installedNow: InstalledModelRecord[] = [];
  let installedReadAt = -Infinity;
  let reading: Promise<void> | undefined;
  const refreshInstalled = (): Promise<void> => {
    reading ??= deps.store.listInstalled()
      .then((list) => {
        installedNow = list;
        installedReadAt = now();
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };

  const viewOf = async (id: string): Promise<ModelView> => {
    const [record, pull] = await Promise.all([deps.store.getInstalled(id), deps.store.latestPull(id)]);
    const entry = entries.get(id);
    if (!record && !entry) throw notFound('model');
    return installedView(entry, record, pull && withLive(pull));
  };

  const requireSpace = async (bytes: number | undefined, what: string): Promise<void> => {
    if (bytes === undefined) return;
    const free = await deps.files.freeBytes();
    if (free < bytes + reserve) {
      const mb = (n: number): string => `${Math.ceil(n / 1_000_000)} MB`;
      throw new DomainError('insufficient_storage', `not enough free disk space for ${what}: needs ${mb(bytes + reserve)} (${mb(reserve)} kept free), ${mb(free)} free`);
    }
  };

  /** The hash a file must have: the publisher's, else the one pinned at the first download, else none yet. */
  const expectedHash = async (entry: ModelCatalogEntry | undefined, modelId: string, path: string): Promise<{ sha256?: string; source?: 'publisher' | 'pinned' }> => {
    const publisher = entry?.files.find((f) => f.path === path)?.sha256;
    if (publisher) return { sha256: publisher, source: 'publisher' };
    const pinned = (await deps.store.pins(modelId))[path];
    return pinned ? { sha256: pinned, source: 'pinned' } : {};
  };

  /** Checks one staged file; a wrong one is deleted so no later step can install it. */
  const accept = async (entry: ModelCatalogEntry | undefined, modelId: string, path: string, digest: FileDigest, declaredBytes?: number): Promise<void> => {
    if (declaredBytes !== undefined && digest.bytes !== declaredBytes) {
      await deps.files.discardStaged(modelId, path);
      throw new DomainError('conflict', `${path}: ${digest.bytes} bytes, the publisher states ${declaredBytes}; the file was removed`);
    }
    const expected = await expectedHash(entry, modelId, path);
    if (expected.sha256 && expected.sha256 !== digest.sha256) {
      await deps.files.discardStaged(modelId, path);
      const whose = expected.source === 'publisher' ? "the publisher's" : 'the one pinned at the first download';
      throw new DomainError('conflict', `${path}: SHA-256 ${digest.sha256} is not ${whose} (${expected.sha256}); the file was removed`);
    }
  };

  /** Moves a checked staging folder into place and records it, pinning hashes seen for the first time. */
  const install = async (plan: Pick<ImportPlan, 'id' | 'entry' | 'task' | 'engine' | 'title'>, digests: Map<string, FileDigest>): Promise<void> => {
    await deps.files.install(plan.id);
    const t = now();
    const files = [...digests].map(([path, d]) => ({ path, bytes: d.bytes, sha256: d.sha256 }));
    for (const f of files) {
      if (f.path !== FOLDER_CONFIG && !(await expectedHash(plan.entry, plan.id, f.path)).sha256) await deps.store.pin(plan.id, f.path, f.sha256, t);
    }
    await deps.store.putInstalled({
      id: plan.id, task: plan.task, engine: plan.engine, title: plan.title, origin: plan.entry ? 'catalog' : 'import',
      files, bytes: files.reduce((n, f) => n + f.bytes, 0), installedAt: t, verifiedAt: t,
    });
    await refreshInstalled();
  };

  /** Parses the staged model as its engine would; an unusable one is refused with what is wrong. */
  const inspect = async (id: string, engine: ImportPlan['engine'], files: string[]): Promise<ModelInspection> => {
    try {
      return await deps.inspector!.inspect(engine, deps.files.stagedLocation(id), files);
    } catch (err) {
      if (err instanceof UnusableModelError) throw invalidRequest(`path: refused, ${err.message}`);
      throw err;
    }
  };

  const stageFolderConfig = async (id: string, config: Record<string, unknown> | undefined, digests: Map<string, FileDigest>): Promise<void> => {
    if (config && !digests.has(FOLDER_CONFIG)) digests.set(FOLDER_CONFIG, await deps.files.stageText(id, FOLDER_CONFIG, `${JSON.stringify(config, null, 2)}\n`));
  };

  const download = async (pull: ModelPullRecord, entry: ModelCatalogEntry, signal: AbortSignal, onProgress?: (p: ModelPullView) => void): Promise<void> => {
    const total = expectedBytes(entry) ?? null;
    const digests = new Map<string, FileDigest>();
    let done = 0;
    let lastWrite = 0;
    // Progress writes run one after another (a late one never lands after a newer one); a failed
    // write from the byte callback, which cannot wait, surfaces at the next forced (awaited) write.
    let writes: Promise<void> = Promise.resolve();
    let writeError: { err: unknown } | undefined;
    const write = async (file: string | null, received: number, t: number): Promise<void> => {
      await deps.store.updatePull(pull.id, { receivedBytes: received, file, updatedAt: t, totalBytes: total });
      if (onProgress) onProgress(pullView((await deps.store.getPull(pull.id))!));
    };
    const progress = (file: string | null, received: number, force = false): Promise<void> => {
      live.set(pull.id, { receivedBytes: received, file });
      const t = now();
      if (!force && t - lastWrite < (deps.progressEveryMs ?? 250)) return writes;
      lastWrite = t;
      writes = writes.then(() => write(file, received, t)).catch((err: unknown) => {
        writeError ??= { err };
      });
      if (!force) return writes;
      return writes.then(() => {
        if (writeError) throw writeError.err;
      });
    };
    let staged = 0;
    for (const f of entry.files) staged += (await deps.files.staged(entry.id, f.path))?.bytes ?? (await deps.files.part(entry.id, f.path)).bytes;
    await requireSpace(total === null ? undefined : Math.max(0, total - staged), entry.id);
    try {
      for (const f of entry.files) {
        // A file finished by an earlier attempt is not fetched again; it is checked below like a fresh one.
        let digest = await deps.files.staged(entry.id, f.path);
        if (!digest) {
          const part = await deps.files.part(entry.id, f.path);
          await progress(f.path, done + part.bytes, true);
          await deps.downloader.download({ url: mirrorUrl(f.url, deps.mirror), partFile: part.file, signal, onBytes: (b) => void progress(f.path, done + b) });
          digest = await deps.files.finishPart(entry.id, f.path);
        }
        await accept(entry, entry.id, f.path, digest, f.bytes);
        digests.set(f.path, digest);
        done += digest.bytes;
        await progress(f.path, done, true);
      }
    } finally {
      // A progress write still queued lands before the pull's final state is written, never after it.
      await writes;
    }
    await stageFolderConfig(entry.id, entry.folderConfig, digests);
    await install(entry, digests);
    const t = now();
    await deps.store.updatePull(pull.id, { status: 'done', receivedBytes: done, file: null, error: null, updatedAt: t, completedAt: t });
    if (onProgress) onProgress(pullView((await deps.store.getPull(pull.id))!));
  };

  const finishAs = async (pullId: string, status: 'failed' | 'cancelled', message: string | null): Promise<void> => {
    const t = now();
    await deps.store.updatePull(pullId, { status, error: message, file: null, updatedAt: t, completedAt: t });
  };

  return {
    async list() {
      const ids = new Set([...entries.keys(), ...(await deps.store.listInstalled()).map((m) => m.id)]);
      return Promise.all([...ids].map(viewOf));
    },
    get: viewOf,
    async pull(accountId, id) {
      const entry = entries.get(id);
      if (!entry) {
        throw (await deps.store.getInstalled(id))
          ? invalidRequest(`${id} was imported, not downloaded: it has no download address`)
          : new DomainError('not_found', `no model "${id.slice(0, 40)}" in the catalog (clindoc models list shows what can be pulled)`);
      }
      if (await deps.store.getInstalled(id)) throw new DomainError('conflict', `${id} is already installed (remove it first to download it again)`);
      const latest = await deps.store.latestPull(id);
      if (latest && (latest.status === 'queued' || latest.status === 'running')) return pullView(latest);
      await requireSpace(expectedBytes(entry), id);
      const t = now();
      const record: ModelPullRecord = {
        id: randomUUID(), modelId: id, accountId, status: 'queued', receivedBytes: 0, totalBytes: expectedBytes(entry) ?? null,
        file: null, error: null, createdAt: t, updatedAt: t, completedAt: null,
      };
      // Recorded only while no other pull of the model is open: of two racing requests, the second answers with the first's.
      if (!(await deps.store.insertPull(record))) {
        const open = await deps.store.latestPull(id);
        if (!open) throw new DomainError('conflict', `${id}: another download was starting; try again`);
        return pullView(withLive(open));
      }
      await deps.enqueue(MODEL_PULL_JOB, accountId, record.id);
      return pullView(record);
    },
    async runPull(pullId, onProgress) {
      const pull = await deps.store.getPull(pullId);
      if (!pull || pull.status === 'done' || pull.status === 'failed' || pull.status === 'cancelled') return;
      const entry = entries.get(pull.modelId);
      if (!entry) return finishAs(pullId, 'failed', 'the model is no longer in the catalog');
      if (await deps.store.getInstalled(entry.id)) return deps.store.updatePull(pullId, { status: 'done', updatedAt: now(), completedAt: now() });
      const controller = new AbortController();
      running.set(pullId, controller);
      try {
        // A cancel that came while this started found no download to abort: it is seen here instead.
        const current = await deps.store.getPull(pullId);
        if (current?.status !== 'queued' && current?.status !== 'running') return;
        await deps.store.updatePull(pullId, { status: 'running', error: null, updatedAt: now() });
        await download(pull, entry, controller.signal, onProgress);
      } catch (err) {
        if (controller.signal.aborted && stopping) {
          await deps.store.updatePull(pullId, { status: 'queued', error: null, file: null, updatedAt: now() });
          throw new DomainError('engine_unavailable', 'stopped by a shutdown; resumes at the next start');
        }
        if (controller.signal.aborted) return finishAs(pullId, 'cancelled', null);
        if (err instanceof DownloadError && err.retryable) {
          // Retried by the job runner; the next attempt resumes from the partial file.
          const message = err.kind === 'offline' ? `${err.message}. ${offlineHint(entry.id)}` : err.message;
          await deps.store.updatePull(pullId, { status: 'queued', error: `interrupted, will resume: ${message}`, updatedAt: now() });
          throw new DomainError('engine_unavailable', message);
        }
        const message = err instanceof DomainError || err instanceof DownloadError ? err.message : 'the download failed';
        await finishAs(pullId, 'failed', message);
        if (onProgress) onProgress(pullView((await deps.store.getPull(pullId))!));
      } finally {
        running.delete(pullId);
        live.delete(pullId);
      }
    },
    async failPull(pullId, message) {
      const pull = await deps.store.getPull(pullId);
      if (pull && pull.status !== 'done' && pull.status !== 'cancelled') await finishAs(pullId, 'failed', message);
    },
    async latestPull(id) {
      const pull = await deps.store.latestPull(id);
      if (!pull) throw notFound('model download');
      return pullView(withLive(pull));
    },
    async cancelPull(id) {
      const pull = await deps.store.latestPull(id);
      if (!pull) throw notFound('model download');
      if (pull.status === 'queued' || pull.status === 'running') {
        await finishAs(pull.id, 'cancelled', null);
        running.get(pull.id)?.abort();
      }
      return pullView((await deps.store.getPull(pull.id))!);
    },
    async remove(id) {
      const [record, pull] = await Promise.all([deps.store.getInstalled(id), deps.store.latestPull(id)]);
      const open = pull && (pull.status === 'queued' || pull.status === 'running');
      // Not installed: only an unfinished download (its partial files) is something to remove.
      const unfinished = !record && pull && (open || (pull.status !== 'done' && pull.receivedBytes > 0));
      if (!record && !unfinished) {
        throw entries.has(id)
          ? new DomainError('not_found', `${id} is not installed: nothing to remove`)
          : new DomainError('not_found', `no model "${id.slice(0, 40)}" is installed or in the catalog (clindoc models list shows both)`);
      }
      if (deps.inUse?.(id)) throw new DomainError('conflict', `${id} is in use (a live session); remove it when the session ends`);
      if (open) await this.cancelPull(id);
      await deps.unload?.(id);
      await deps.store.deleteInstalled(id);
      await refreshInstalled();
      await deps.files.remove(id);
      if (record) return 'model';
      // Its partial files are gone: the pull no longer holds anything to resume or remove.
      await deps.store.updatePull(pull!.id, { receivedBytes: 0, updatedAt: now() });
      return 'download';
    },
    async importFrom(source, requestedId) {
      const listing = await deps.files.listImport(source);
      const plan = planImport(listing, deps.catalog, requestedId);
      if (await deps.store.getInstalled(plan.id)) throw new DomainError('conflict', `${plan.id} is already installed`);
      await requireSpace(plan.files.reduce((n, f) => n + f.bytes, 0), plan.id);
      await deps.files.discardStaged(plan.id);
      const digests = new Map<string, FileDigest>();
      let inspected: ModelInspection | undefined;
      try {
        for (const f of plan.files) {
          const digest = await deps.files.stageCopy(plan.id, f.path, source, f.from);
          digests.set(f.path, digest);
        }
        // A lone .gguf whose hash is a catalog entry's publisher hash is that entry, verified.
        if (!plan.entry && plan.engine === 'llama-cpp' && !requestedId) {
          const sha = digests.get('model.gguf')!.sha256;
          const match = deps.catalog.entries.find((e) => e.files.length === 1 && e.files[0]!.sha256 === sha);
          if (match && !(await deps.store.getInstalled(match.id))) {
            await deps.files.discardStaged(plan.id);
            return this.importFrom(source, match.id);
          }
        }
        for (const f of plan.files) await accept(plan.entry, plan.id, f.path, digests.get(f.path)!, plan.entry?.files.find((e) => e.path === f.path)?.bytes);
        await stageFolderConfig(plan.id, plan.folderConfig, digests);
        if (deps.inspector) inspected = await inspect(plan.id, plan.engine, [...digests.keys()]);
        await install(plan, digests);
      } catch (err) {
        await deps.files.discardStaged(plan.id);
        throw err;
      }
      const view = await viewOf(plan.id);
      return inspected ? { ...view, inspected } : view;
    },
    async verify(id) {
      const record = await deps.store.getInstalled(id);
      if (!record) throw new DomainError('not_found', `${id.slice(0, 40)} is not installed: nothing to verify`);
      const files: ModelVerifyResult['files'] = [];
      for (const f of record.files) {
        const digest = await deps.files.installedDigest(id, f.path);
        files.push({ path: f.path, ok: digest?.sha256 === f.sha256 && digest.bytes === f.bytes, expected: f.sha256, actual: digest?.sha256 ?? null });
      }
      const t = now();
      const ok = files.every((f) => f.ok);
      if (ok) await deps.store.markVerified(id, t);
      return { id, ok, files, verifiedAt: iso(t) };
    },
    shutdown() {
      stopping = true;
      for (const controller of running.values()) controller.abort();
    },
    refreshInstalled,
    installed() {
      if (now() - installedReadAt > INSTALLED_MAX_AGE_MS) void refreshInstalled().catch(() => undefined);
      return installedNow.map((m) => ({ ...m, location: deps.files.location(m.id, m.engine === 'llama-cpp' ? m.files.find((f) => f.path.endsWith('.gguf'))?.path : undefined) }));
    },
  };
}
