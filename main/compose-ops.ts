/**
 * Wiring of the operations endpoints (main/server/routes/ops.ts): the readiness checks and the
 * job backlog behind `/metrics`, as async callbacks over this installation's storage and engines.
 * The app never sees the database; a networked store replaces the two queries here.
 */
import type { ClindocConfig } from './config.js';
import type { Db } from './store/database.js';
import type { EngineRegistry } from './compose-engines.js';
import { createOpsMetrics, type OpsMetrics, type QueueStat } from './server/middleware/metrics.js';
import { createDrainState, type DrainState } from './server/middleware/drain.js';
import type { ReadinessCheck } from './server/routes/ops.js';

export interface ComposedOps {
  metrics: OpsMetrics;
  drain: DrainState;
  checks: ReadinessCheck[];
  metricsToken?: string;
}

/** How the operations endpoints reach storage: a probe of the database and the job backlog by kind. */
export interface OpsStorage {
  ping(): Promise<void>;
  queue(): Promise<QueueStat[]>;
}

/** The SQLite installation's probe and backlog: `SELECT 1`, and one COUNT/MIN over the jobs table (model downloads included, by their kind). */
export function sqliteOpsStorage(db: Db): OpsStorage {
  const backlog = db.prepare(`SELECT kind, SUM(status = 'queued') AS queued, SUM(status = 'running') AS running,
    MIN(CASE WHEN status = 'queued' THEN created_at END) AS oldest FROM jobs WHERE status IN ('queued', 'running') GROUP BY kind`);
  return {
    ping: async () => void db.prepare('SELECT 1').get(),
    queue: async () => (backlog.all() as { kind: string; queued: number; running: number; oldest: number | null }[])
      .map((r) => ({ kind: r.kind, queued: r.queued, running: r.running, oldestQueuedSeconds: r.oldest === null ? null : Math.max(0, (Date.now() - r.oldest) / 1000) })),
  };
}

export function composeOps(config: Pick<ClindocConfig, 'asrEngine' | 'metricsToken'>, storage: OpsStorage, engines: Pick<EngineRegistry, 'describe' | 'defaultTextEngine'>): ComposedOps {
  const { queue } = storage;
  return {
    metrics: createOpsMetrics({ queue }),
    drain: createDrainState(),
    ...(config.metricsToken ? { metricsToken: config.metricsToken } : {}),
    checks: [
      { name: 'database', check: () => storage.ping() },
      { name: 'job queue', check: async () => void (await queue()) },
      {
        // The device's default recogniser and note writer are configured or installed; loading
        // them is left to first use, so a probe never pulls a model into memory.
        name: 'engines',
        check: async () => {
          if (!engines.describe('speech', config.asrEngine) || !engines.describe('text', engines.defaultTextEngine)) throw new Error('default engine missing');
        },
      },
    ],
  };
}
