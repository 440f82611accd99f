/**
 * The checks every model file passes between staging and installation, whether it was downloaded
 * or imported: room on the disk, the size and hash it must have, the engine's own parse of it, and
 * the one move into place that records it.
 */
import type { ModelCatalogEntry, ModelInspection } from '../../../shared/api/models.js';
import { DomainError, invalidRequest } from '../errors.js';
import type { ImportPlan } from './import-plan.js';
import type { ModelContext } from './model-context.js';
import { UnusableModelError, type FileDigest } from './ports.js';

/** The folder configuration Clindoc writes; not part of the publisher's files, so never pinned. */
const FOLDER_CONFIG = 'clindoc.json';

/** Refuses (507) what would leave less than the reserve free on the disk. */
export async function requireSpace(ctx: ModelContext, bytes: number | undefined, what: string): Promise<void> {
  if (bytes === undefined) return;
  const free = await ctx.deps.files.freeBytes();
  if (free < bytes + ctx.reserve) {
    const mb = (n: number): string => `${Math.ceil(n / 1_000_000)} MB`;
    throw new DomainError('insufficient_storage', `not enough free disk space for ${what}: needs ${mb(bytes + ctx.reserve)} (${mb(ctx.reserve)} kept free), ${mb(free)} free`);
  }
}

/** The hash a file must have: the publisher's, else the one pinned at the first download, else none yet. */
async function expectedHash(ctx: ModelContext, entry: ModelCatalogEntry | undefined, modelId: string, path: string): Promise<{ sha256?: string; source?: 'publisher' | 'pinned' }> {
  const publisher = entry?.files.find((f) => f.path === path)?.sha256;
  if (publisher) return { sha256: publisher, source: 'publisher' };
  const pinned = (await ctx.deps.store.pins(modelId))[path];
  return pinned ? { sha256: pinned, source: 'pinned' } : {};
}

/** Checks one staged file; a wrong one is deleted so no later step can install it. */
export async function acceptStaged(ctx: ModelContext, entry: ModelCatalogEntry | undefined, modelId: string, path: string, digest: FileDigest, declaredBytes?: number): Promise<void> {
  if (declaredBytes !== undefined && digest.bytes !== declaredBytes) {
    await ctx.deps.files.discardStaged(modelId, path);
    throw new DomainError('conflict', `${path}: ${digest.bytes} bytes, the publisher states ${declaredBytes}; the file was removed`);
  }
  const expected = await expectedHash(ctx, entry, modelId, path);
  if (expected.sha256 && expected.sha256 !== digest.sha256) {
    await ctx.deps.files.discardStaged(modelId, path);
    const whose = expected.source === 'publisher' ? "the publisher's" : 'the one pinned at the first download';
    throw new DomainError('conflict', `${path}: SHA-256 ${digest.sha256} is not ${whose} (${expected.sha256}); the file was removed`);
  }
}

/** Moves a checked staging folder into place and records it, pinning hashes seen for the first time. */
export async function installStaged(ctx: ModelContext, plan: Pick<ImportPlan, 'id' | 'entry' | 'task' | 'engine' | 'title'>, digests: Map<string, FileDigest>): Promise<void> {
  const { store } = ctx.deps;
  await ctx.deps.files.install(plan.id);
  const t = ctx.now();
  const files = [...digests].map(([path, d]) => ({ path, bytes: d.bytes, sha256: d.sha256 }));
  for (const f of files) {
    if (f.path !== FOLDER_CONFIG && !(await expectedHash(ctx, plan.entry, plan.id, f.path)).sha256) await store.pin(plan.id, f.path, f.sha256, t);
  }
  await store.putInstalled({
    id: plan.id, task: plan.task, engine: plan.engine, title: plan.title, origin: plan.entry ? 'catalog' : 'import',
    files, bytes: files.reduce((n, f) => n + f.bytes, 0), installedAt: t, verifiedAt: t,
  });
  await ctx.installed.refresh();
}

/** Parses the staged model as its engine would; an unusable one is refused with what is wrong. */
export async function inspectStaged(ctx: ModelContext, id: string, engine: ImportPlan['engine'], files: string[]): Promise<ModelInspection> {
  try {
    return await ctx.deps.inspector!.inspect(engine, ctx.deps.files.stagedLocation(id), files);
  } catch (err) {
    if (err instanceof UnusableModelError) throw invalidRequest(`path: refused, ${err.message}`);
    throw err;
  }
}

/** Writes the folder configuration a model needs beside its files, unless the files brought one. */
export async function stageFolderConfig(ctx: ModelContext, id: string, config: Record<string, unknown> | undefined, digests: Map<string, FileDigest>): Promise<void> {
  if (config && !digests.has(FOLDER_CONFIG)) digests.set(FOLDER_CONFIG, await ctx.deps.files.stageText(id, FOLDER_CONFIG, `${JSON.stringify(config, null, 2)}\n`));
}
