/**
 * What the model manager's parts share: its dependencies, the catalog by id, the downloads running
 * in this process, and the list of installed models the engines read. One object, built once by
 * `createModelService`, handed to the parts (staging, download, pulls, import) that need it.
 */
import type { ModelCatalog, ModelCatalogEntry } from '../../../shared/api/models.js';
import type { InstalledModelRecord, ModelDownloader, ModelFiles, ModelInspector, ModelPullRecord, ModelStore } from './ports.js';

export const MODEL_PULL_JOB = 'model_pull';

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

/** The installed models as last read from the store, read again when asked or when stale. */
export interface InstalledCache {
  refresh(): Promise<void>;
  /** The list as last read; starts a background read when it is older than a second. */
  current(): InstalledModelRecord[];
}

export interface ModelContext {
  deps: ModelServiceDeps;
  now: () => number;
  /** Bytes kept free on the disk after a download or import. */
  reserve: number;
  entries: Map<string, ModelCatalogEntry>;
  /** Downloads running in this process, to abort on cancel or shutdown. */
  running: Map<string, AbortController>;
  /** Bytes as they arrive, for readers in this process; the store is written at most every progressEveryMs. */
  live: Map<string, { receivedBytes: number; file: string | null }>;
  installed: InstalledCache;
  /** Set by a shutdown: an aborted download is then queued again, not cancelled. */
  stopping: boolean;
}

export function createInstalledCache(store: ModelStore, now: () => number): InstalledCache {
  let list: InstalledModelRecord[] = [];
  let readAt = -Infinity;
  let reading: Promise<void> | undefined;
  const refresh = (): Promise<void> => {
    reading ??= store.listInstalled()
      .then((read) => {
        list = read;
        readAt = now();
      })
      .finally(() => {
        reading = undefined;
      });
    return reading;
  };
  return {
    refresh,
    current() {
      if (now() - readAt > INSTALLED_MAX_AGE_MS) void refresh().catch(() => undefined);
      return list;
    },
  };
}

export function createModelContext(deps: ModelServiceDeps): ModelContext {
  const now = deps.now ?? Date.now;
  return {
    deps,
    now,
    reserve: deps.reserveBytes ?? 256 * 1024 * 1024,
    entries: new Map(deps.catalog.entries.map((e) => [e.id, e])),
    running: new Map(),
    live: new Map(),
    installed: createInstalledCache(deps.store, now),
    stopping: false,
  };
}

/** A running pull as this process sees it: with the bytes that arrived since the last store write. */
export const withLive = (ctx: ModelContext, pull: ModelPullRecord): ModelPullRecord =>
  (pull.status === 'running' && ctx.live.has(pull.id) ? { ...pull, ...ctx.live.get(pull.id)! } : pull);
