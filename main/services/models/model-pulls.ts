/**
 * Downloads as durable jobs: a pull is recorded and queued at once, run to its end by the job
 * runner (or the CLI in the foreground), cancelled, or failed after the runner gave up. A download
 * stopped by a shutdown or a network failure goes back to the queue and resumes from its partial file.
 */
import { randomUUID } from 'node:crypto';
import type { ModelPullView } from '../../../shared/api/models.js';
import { DomainError, invalidRequest, notFound } from '../errors.js';
import { expectedBytes } from './catalog.js';
import { MODEL_PULL_JOB, withLive, type ModelContext } from './model-context.js';
import { downloadModel } from './model-download.js';
import { requireSpace } from './model-staging.js';
import { DownloadError, type ModelPullRecord } from './ports.js';
import { pullView } from './views.js';

/** The two ways to install a model on a computer that cannot reach the publisher. */
export const offlineHint = (id: string): string =>
  `Without a connection to the publisher: copy the model's file or folder here from another computer and run ` +
  `\`clindoc models import PATH --id ${id}\`, or set CLINDOC_MODEL_MIRROR to a mirror on the clinic's network.`;

async function finishAs(ctx: ModelContext, pullId: string, status: 'failed' | 'cancelled', message: string | null): Promise<void> {
  const t = ctx.now();
  await ctx.deps.store.updatePull(pullId, { status, error: message, file: null, updatedAt: t, completedAt: t });
}

/** Queues a download and answers at once (409 when installed, 507 when it cannot fit). */
export async function queuePull(ctx: ModelContext, accountId: string, id: string): Promise<ModelPullView> {
  const { store } = ctx.deps;
  const entry = ctx.entries.get(id);
  if (!entry) {
    throw (await store.getInstalled(id))
      ? invalidRequest(`${id} was imported, not downloaded: it has no download address`)
      : new DomainError('not_found', `no model "${id.slice(0, 40)}" in the catalog (clindoc models list shows what can be pulled)`);
  }
  if (await store.getInstalled(id)) throw new DomainError('conflict', `${id} is already installed (remove it first to download it again)`);
  const latest = await store.latestPull(id);
  if (latest && (latest.status === 'queued' || latest.status === 'running')) return pullView(latest);
  await requireSpace(ctx, expectedBytes(entry), id);
  const t = ctx.now();
  const record: ModelPullRecord = {
    id: randomUUID(), modelId: id, accountId, status: 'queued', receivedBytes: 0, totalBytes: expectedBytes(entry) ?? null,
    file: null, error: null, createdAt: t, updatedAt: t, completedAt: null,
  };
  // Recorded only while no other pull of the model is open: of two racing requests, the second answers with the first's.
  if (!(await store.insertPull(record))) {
    const open = await store.latestPull(id);
    if (!open) throw new DomainError('conflict', `${id}: another download was starting; try again`);
    return pullView(withLive(ctx, open));
  }
  await ctx.deps.enqueue(MODEL_PULL_JOB, accountId, record.id);
  return pullView(record);
}

/**
 * Why a download that threw stops where it does: queued again (a shutdown, a retryable failure;
 * both rethrow so the job runner knows), cancelled, or failed.
 */
async function settleFailedPull(ctx: ModelContext, pullId: string, modelId: string, aborted: boolean, err: unknown, onProgress?: (pull: ModelPullView) => void): Promise<void> {
  const { store } = ctx.deps;
  if (aborted && ctx.stopping) {
    await store.updatePull(pullId, { status: 'queued', error: null, file: null, updatedAt: ctx.now() });
    throw new DomainError('engine_unavailable', 'stopped by a shutdown; resumes at the next start');
  }
  if (aborted) return finishAs(ctx, pullId, 'cancelled', null);
  if (err instanceof DownloadError && err.retryable) {
    // Retried by the job runner; the next attempt resumes from the partial file.
    const message = err.kind === 'offline' ? `${err.message}. ${offlineHint(modelId)}` : err.message;
    await store.updatePull(pullId, { status: 'queued', error: `interrupted, will resume: ${message}`, updatedAt: ctx.now() });
    throw new DomainError('engine_unavailable', message);
  }
  const message = err instanceof DomainError || err instanceof DownloadError ? err.message : 'the download failed';
  await finishAs(ctx, pullId, 'failed', message);
  if (onProgress) onProgress(pullView((await store.getPull(pullId))!));
}

/** Runs a queued download to its end (job handler; the CLI runs it in the foreground). */
export async function runPull(ctx: ModelContext, pullId: string, onProgress?: (pull: ModelPullView) => void): Promise<void> {
  const { store } = ctx.deps;
  const pull = await store.getPull(pullId);
  if (!pull || pull.status === 'done' || pull.status === 'failed' || pull.status === 'cancelled') return;
  const entry = ctx.entries.get(pull.modelId);
  if (!entry) return finishAs(ctx, pullId, 'failed', 'the model is no longer in the catalog');
  if (await store.getInstalled(entry.id)) return store.updatePull(pullId, { status: 'done', updatedAt: ctx.now(), completedAt: ctx.now() });
  const controller = new AbortController();
  ctx.running.set(pullId, controller);
  try {
    // A cancel that came while this started found no download to abort: it is seen here instead.
    const current = await store.getPull(pullId);
    if (current?.status !== 'queued' && current?.status !== 'running') return;
    await store.updatePull(pullId, { status: 'running', error: null, updatedAt: ctx.now() });
    await downloadModel(ctx, pull, entry, controller.signal, onProgress);
  } catch (err) {
    await settleFailedPull(ctx, pullId, entry.id, controller.signal.aborted, err, onProgress);
  } finally {
    ctx.running.delete(pullId);
    ctx.live.delete(pullId);
  }
}

/** Marks a pull failed after the job runner gave up retrying it. */
export async function failPull(ctx: ModelContext, pullId: string, message: string): Promise<void> {
  const pull = await ctx.deps.store.getPull(pullId);
  if (pull && pull.status !== 'done' && pull.status !== 'cancelled') await finishAs(ctx, pullId, 'failed', message);
}

/** The newest pull of a model (404 when it was never pulled). */
export async function latestPull(ctx: ModelContext, id: string): Promise<ModelPullView> {
  const pull = await ctx.deps.store.latestPull(id);
  if (!pull) throw notFound('model download');
  return pullView(withLive(ctx, pull));
}

/** Stops a queued or running download; what it fetched stays for the next pull to resume. */
export async function cancelPull(ctx: ModelContext, id: string): Promise<ModelPullView> {
  const { store } = ctx.deps;
  const pull = await store.latestPull(id);
  if (!pull) throw notFound('model download');
  if (pull.status === 'queued' || pull.status === 'running') {
    await finishAs(ctx, pull.id, 'cancelled', null);
    ctx.running.get(pull.id)?.abort();
  }
  return pullView((await store.getPull(pull.id))!);
}
