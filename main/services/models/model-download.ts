/**
 * One catalog model fetched file by file into staging, resuming what an earlier attempt left,
 * each file checked as it finishes, then installed. Progress goes to readers in this process at
 * once and to the store at most every `progressEveryMs`.
 */
import type { ModelCatalogEntry, ModelPullView } from '../../../shared/api/models.js';
import { expectedBytes, mirrorUrl } from './catalog.js';
import type { ModelContext } from './model-context.js';
import { acceptStaged, installStaged, requireSpace, stageFolderConfig } from './model-staging.js';
import type { FileDigest, ModelPullRecord } from './ports.js';
import { pullView } from './views.js';

interface ProgressWriter {
  /** Records bytes received; `force` writes the store now and rethrows a failed earlier write. */
  report(file: string | null, received: number, force?: boolean): Promise<void>;
  /** Resolves once every queued write has landed. */
  settled(): Promise<void>;
}

/**
 * Progress writes run one after another (a late one never lands after a newer one); a failed
 * write from the byte callback, which cannot wait, surfaces at the next forced (awaited) write.
 */
function createProgressWriter(ctx: ModelContext, pullId: string, total: number | null, onProgress?: (p: ModelPullView) => void): ProgressWriter {
  const { store } = ctx.deps;
  let lastWrite = 0;
  let writes: Promise<void> = Promise.resolve();
  let writeError: { err: unknown } | undefined;
  const write = async (file: string | null, received: number, t: number): Promise<void> => {
    await store.updatePull(pullId, { receivedBytes: received, file, updatedAt: t, totalBytes: total });
    if (onProgress) onProgress(pullView((await store.getPull(pullId))!));
  };
  return {
    report(file, received, force = false) {
      ctx.live.set(pullId, { receivedBytes: received, file });
      const t = ctx.now();
      if (!force && t - lastWrite < (ctx.deps.progressEveryMs ?? 250)) return writes;
      lastWrite = t;
      writes = writes.then(() => write(file, received, t)).catch((err: unknown) => {
        writeError ??= { err };
      });
      if (!force) return writes;
      return writes.then(() => {
        if (writeError) throw writeError.err;
      });
    },
    settled: () => writes,
  };
}

/** Bytes already in staging from earlier attempts (finished files and partial ones). */
async function stagedBytes(ctx: ModelContext, entry: ModelCatalogEntry): Promise<number> {
  let staged = 0;
  for (const f of entry.files) staged += (await ctx.deps.files.staged(entry.id, f.path))?.bytes ?? (await ctx.deps.files.part(entry.id, f.path)).bytes;
  return staged;
}

/** Fetches, checks and installs a catalog model for a pull, then marks the pull done. */
export async function downloadModel(ctx: ModelContext, pull: ModelPullRecord, entry: ModelCatalogEntry, signal: AbortSignal, onProgress?: (p: ModelPullView) => void): Promise<void> {
  const { files, store } = ctx.deps;
  const total = expectedBytes(entry) ?? null;
  const digests = new Map<string, FileDigest>();
  const progress = createProgressWriter(ctx, pull.id, total, onProgress);
  let done = 0;
  const staged = await stagedBytes(ctx, entry);
  await requireSpace(ctx, total === null ? undefined : Math.max(0, total - staged), entry.id);
  try {
    for (const f of entry.files) {
      // A file finished by an earlier attempt is not fetched again; it is checked below like a fresh one.
      let digest = await files.staged(entry.id, f.path);
      if (!digest) {
        const part = await files.part(entry.id, f.path);
        await progress.report(f.path, done + part.bytes, true);
        await ctx.deps.downloader.download({ url: mirrorUrl(f.url, ctx.deps.mirror), partFile: part.file, signal, onBytes: (b) => void progress.report(f.path, done + b) });
        digest = await files.finishPart(entry.id, f.path);
      }
      await acceptStaged(ctx, entry, entry.id, f.path, digest, f.bytes);
      digests.set(f.path, digest);
      done += digest.bytes;
      await progress.report(f.path, done, true);
    }
  } finally {
    // A progress write still queued lands before the pull's final state is written, never after it.
    await progress.settled();
  }
  await stageFolderConfig(ctx, entry.id, entry.folderConfig, digests);
  await installStaged(ctx, entry, digests);
  const t = ctx.now();
  await store.updatePull(pull.id, { status: 'done', receivedBytes: done, file: null, error: null, updatedAt: t, completedAt: t });
  if (onProgress) onProgress(pullView((await store.getPull(pull.id))!));
}
