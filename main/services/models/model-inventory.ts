/**
 * The installed side of the model manager: what is there (with the catalog's view and the latest
 * download), imports from a local file or folder, verification against the recorded hashes, and
 * removal.
 */
import type { ModelInspection, ModelVerifyResult, ModelView } from '../../../shared/api/models.js';
import { DomainError, notFound } from '../errors.js';
import { planImport } from './import-plan.js';
import { withLive, type ModelContext } from './model-context.js';
import { cancelPull } from './model-pulls.js';
import { acceptStaged, inspectStaged, installStaged, requireSpace, stageFolderConfig } from './model-staging.js';
import type { FileDigest, InstalledModelRecord } from './ports.js';
import { installedView } from './views.js';

export async function viewOf(ctx: ModelContext, id: string): Promise<ModelView> {
  const [record, pull] = await Promise.all([ctx.deps.store.getInstalled(id), ctx.deps.store.latestPull(id)]);
  const entry = ctx.entries.get(id);
  if (!record && !entry) throw notFound('model');
  return installedView(entry, record, pull && withLive(ctx, pull));
}

export async function listModels(ctx: ModelContext): Promise<ModelView[]> {
  const ids = new Set([...ctx.entries.keys(), ...(await ctx.deps.store.listInstalled()).map((m) => m.id)]);
  return Promise.all([...ids].map((id) => viewOf(ctx, id)));
}

/** Installed models with where they lie, from the list as last read (see ModelService.installed). */
export function installedLocations(ctx: ModelContext): Array<InstalledModelRecord & { location: string }> {
  return ctx.installed.current().map((m) => ({ ...m, location: ctx.deps.files.location(m.id, m.engine === 'llama-cpp' ? m.files.find((f) => f.path.endsWith('.gguf'))?.path : undefined) }));
}

/**
 * Deletes an installed model (409 while an engine uses it) and anything staged for it; for a
 * model never installed, its unfinished download. 404 when there is neither.
 */
export async function removeModel(ctx: ModelContext, id: string): Promise<'model' | 'download'> {
  const { store } = ctx.deps;
  const [record, pull] = await Promise.all([store.getInstalled(id), store.latestPull(id)]);
  const open = pull && (pull.status === 'queued' || pull.status === 'running');
  // Not installed: only an unfinished download (its partial files) is something to remove.
  const unfinished = !record && pull && (open || (pull.status !== 'done' && pull.receivedBytes > 0));
  if (!record && !unfinished) {
    throw ctx.entries.has(id)
      ? new DomainError('not_found', `${id} is not installed: nothing to remove`)
      : new DomainError('not_found', `no model "${id.slice(0, 40)}" is installed or in the catalog (clindoc models list shows both)`);
  }
  if (ctx.deps.inUse?.(id)) throw new DomainError('conflict', `${id} is in use (a live session); remove it when the session ends`);
  if (open) await cancelPull(ctx, id);
  await ctx.deps.unload?.(id);
  await store.deleteInstalled(id);
  await ctx.installed.refresh();
  await ctx.deps.files.remove(id);
  if (record) return 'model';
  // Its partial files are gone: the pull no longer holds anything to resume or remove.
  await store.updatePull(pull!.id, { receivedBytes: 0, updatedAt: ctx.now() });
  return 'download';
}

/**
 * Copies a local file or folder in: a catalog entry's files must have the publisher's hashes;
 * any model must parse as one its engine runs (the view's `inspected` says what was found).
 */
export async function importModel(ctx: ModelContext, source: string, requestedId?: string): Promise<ModelView> {
  const { files, store } = ctx.deps;
  const listing = await files.listImport(source);
  const plan = planImport(listing, ctx.deps.catalog, requestedId);
  if (await store.getInstalled(plan.id)) throw new DomainError('conflict', `${plan.id} is already installed`);
  await requireSpace(ctx, plan.files.reduce((n, f) => n + f.bytes, 0), plan.id);
  await files.discardStaged(plan.id);
  const digests = new Map<string, FileDigest>();
  let inspected: ModelInspection | undefined;
  try {
    for (const f of plan.files) {
      const digest = await files.stageCopy(plan.id, f.path, source, f.from);
      digests.set(f.path, digest);
    }
    // A lone .gguf whose hash is a catalog entry's publisher hash is that entry, verified.
    if (!plan.entry && plan.engine === 'llama-cpp' && !requestedId) {
      const sha = digests.get('model.gguf')!.sha256;
      const match = ctx.deps.catalog.entries.find((e) => e.files.length === 1 && e.files[0]!.sha256 === sha);
      if (match && !(await store.getInstalled(match.id))) {
        await files.discardStaged(plan.id);
        return importModel(ctx, source, match.id);
      }
    }
    for (const f of plan.files) await acceptStaged(ctx, plan.entry, plan.id, f.path, digests.get(f.path)!, plan.entry?.files.find((e) => e.path === f.path)?.bytes);
    await stageFolderConfig(ctx, plan.id, plan.folderConfig, digests);
    if (ctx.deps.inspector) inspected = await inspectStaged(ctx, plan.id, plan.engine, [...digests.keys()]);
    await installStaged(ctx, plan, digests);
  } catch (err) {
    await files.discardStaged(plan.id);
    throw err;
  }
  const view = await viewOf(ctx, plan.id);
  return inspected ? { ...view, inspected } : view;
}

/** Hashes an installed model's files again and compares them with what was recorded. */
export async function verifyModel(ctx: ModelContext, id: string): Promise<ModelVerifyResult> {
  const record = await ctx.deps.store.getInstalled(id);
  if (!record) throw new DomainError('not_found', `${id.slice(0, 40)} is not installed: nothing to verify`);
  const files: ModelVerifyResult['files'] = [];
  for (const f of record.files) {
    const digest = await ctx.deps.files.installedDigest(id, f.path);
    files.push({ path: f.path, ok: digest?.sha256 === f.sha256 && digest.bytes === f.bytes, expected: f.sha256, actual: digest?.sha256 ?? null });
  }
  const t = ctx.now();
  const ok = files.every((f) => f.ok);
  if (ok) await ctx.deps.store.markVerified(id, t);
  return { id, ok, files, verifiedAt: new Date(t).toISOString() };
}
