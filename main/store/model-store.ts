import type { Db } from './database.js';
import type { InstalledModelRecord, ModelPullRecord, ModelStore } from '../services/models/ports.js';

interface ModelRow {
  id: string; task: InstalledModelRecord['task']; engine: InstalledModelRecord['engine']; title: string; origin: InstalledModelRecord['origin'];
  files: string; bytes: number; installed_at: number; verified_at: number | null;
}
interface PullRow {
  id: string; model_id: string; account_id: string; status: ModelPullRecord['status']; received_bytes: number; total_bytes: number | null;
  file: string | null; error: string | null; created_at: number; updated_at: number; completed_at: number | null;
}

const toModel = (r: ModelRow): InstalledModelRecord => ({
  id: r.id, task: r.task, engine: r.engine, title: r.title, origin: r.origin, files: JSON.parse(r.files) as InstalledModelRecord['files'],
  bytes: r.bytes, installedAt: r.installed_at, verifiedAt: r.verified_at,
});
const toPull = (r: PullRow): ModelPullRecord => ({
  id: r.id, modelId: r.model_id, accountId: r.account_id, status: r.status, receivedBytes: r.received_bytes, totalBytes: r.total_bytes,
  file: r.file, error: r.error, createdAt: r.created_at, updatedAt: r.updated_at, completedAt: r.completed_at,
});

const PULL_COLUMNS: Record<string, string> = {
  status: 'status', receivedBytes: 'received_bytes', totalBytes: 'total_bytes', file: 'file', error: 'error', updatedAt: 'updated_at', completedAt: 'completed_at',
};

/**
 * SQLite record of the models installed on this device, the hashes pinned at their first
 * download, and downloads with their progress. Model files are not patient data: stored in clear.
 * The CLI and the server may both write here; SQLite's locking keeps each statement whole.
 */
export function createModelStore(db: Db): ModelStore {
  const list = db.prepare('SELECT * FROM models ORDER BY installed_at, id');
  const get = db.prepare('SELECT * FROM models WHERE id = ?');
  const put = db.prepare(
    `INSERT INTO models (id, task, engine, title, origin, files, bytes, installed_at, verified_at) VALUES (?,?,?,?,?,?,?,?,?)
     ON CONFLICT(id) DO UPDATE SET task = excluded.task, engine = excluded.engine, title = excluded.title, origin = excluded.origin,
       files = excluded.files, bytes = excluded.bytes, installed_at = excluded.installed_at, verified_at = excluded.verified_at`,
  );
  const del = db.prepare('DELETE FROM models WHERE id = ?');
  const verified = db.prepare('UPDATE models SET verified_at = ? WHERE id = ?');
  const pins = db.prepare('SELECT path, sha256 FROM model_pins WHERE model_id = ?');
  // A pin is written once: a later download must match it, never replace it.
  const pin = db.prepare('INSERT OR IGNORE INTO model_pins (model_id, path, sha256, pinned_at) VALUES (?,?,?,?)');
  const insertPull = db.prepare(
    `INSERT INTO model_pulls (id, model_id, account_id, status, received_bytes, total_bytes, file, error, created_at, updated_at, completed_at)
     SELECT ?,?,?,?,?,?,?,?,?,?,? WHERE NOT EXISTS (SELECT 1 FROM model_pulls WHERE model_id = ? AND status IN ('queued', 'running'))`,
  );
  const getPull = db.prepare('SELECT * FROM model_pulls WHERE id = ?');
  const latest = db.prepare('SELECT * FROM model_pulls WHERE model_id = ? ORDER BY created_at DESC, rowid DESC LIMIT 1');
  return {
    listInstalled: async () => (list.all() as ModelRow[]).map(toModel),
    getInstalled: async (id) => {
      const row = get.get(id) as ModelRow | undefined;
      return row ? toModel(row) : undefined;
    },
    putInstalled: async (m) => void put.run(m.id, m.task, m.engine, m.title, m.origin, JSON.stringify(m.files), m.bytes, m.installedAt, m.verifiedAt),
    deleteInstalled: async (id) => void del.run(id),
    markVerified: async (id, at) => void verified.run(at, id),
    pins: async (modelId) => Object.fromEntries((pins.all(modelId) as Array<{ path: string; sha256: string }>).map((p) => [p.path, p.sha256])),
    pin: async (modelId, path, sha256, at) => void pin.run(modelId, path, sha256, at),
    insertPull: async (p) =>
      insertPull.run(p.id, p.modelId, p.accountId, p.status, p.receivedBytes, p.totalBytes, p.file, p.error, p.createdAt, p.updatedAt, p.completedAt, p.modelId).changes > 0,
    getPull: async (id) => {
      const row = getPull.get(id) as PullRow | undefined;
      return row ? toPull(row) : undefined;
    },
    latestPull: async (modelId) => {
      const row = latest.get(modelId) as PullRow | undefined;
      return row ? toPull(row) : undefined;
    },
    updatePull: async (id, changes) => {
      const sets: string[] = [];
      const values: unknown[] = [];
      for (const [field, value] of Object.entries(changes)) {
        const column = PULL_COLUMNS[field];
        if (!column || value === undefined) continue;
        sets.push(`${column} = ?`);
        values.push(value);
      }
      if (sets.length) db.prepare(`UPDATE model_pulls SET ${sets.join(', ')} WHERE id = ?`).run(...values, id);
    },
  };
}
