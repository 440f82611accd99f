/** How installed models, catalog entries and downloads look on the wire (shared/api/models.ts). */
import type { ModelCatalogEntry, ModelPullView, ModelView } from '../../../shared/api/models.js';
import { expectedBytes } from './catalog.js';
import type { InstalledModelRecord, ModelPullRecord } from './ports.js';

const iso = (t: number): string => new Date(t).toISOString();

export function pullView(p: ModelPullRecord): ModelPullView {
  return {
    id: p.id, modelId: p.modelId, status: p.status, receivedBytes: p.receivedBytes, totalBytes: p.totalBytes, file: p.file, error: p.error,
    createdAt: iso(p.createdAt), updatedAt: iso(p.updatedAt), completedAt: p.completedAt === null ? null : iso(p.completedAt),
  };
}

/** A model as the manager shows it: what the catalog says, what is on disk, its latest download. */
export function installedView(
  entry: ModelCatalogEntry | undefined,
  record: InstalledModelRecord | undefined,
  pull: ModelPullRecord | undefined,
): ModelView {
  const base = entry ?? record!;
  const view: ModelView = {
    id: base.id, title: record?.title ?? entry!.title, task: base.task, engine: base.engine,
    origin: record?.origin ?? 'catalog', installed: record !== undefined,
  };
  if (entry) {
    const { files: _files, id: _id, title: _title, task: _task, engine: _engine, ...about } = entry;
    view.catalog = about;
    const approx = expectedBytes(entry);
    if (approx !== undefined) view.approxBytes = approx;
  }
  if (record) {
    view.bytes = record.bytes;
    view.installedAt = iso(record.installedAt);
    view.verifiedAt = record.verifiedAt === null ? null : iso(record.verifiedAt);
    view.files = record.files.map((f) => ({
      ...f, hashSource: entry?.files.find((e) => e.path === f.path)?.sha256 === f.sha256 ? 'publisher' : 'pinned',
    }));
  }
  if (pull) view.pull = pullView(pull);
  return view;
}
