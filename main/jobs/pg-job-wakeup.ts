import type pg from 'pg';
import type { Logger } from 'pino';

/** The channel every enqueue notifies (payload: the job kind), whichever instance made it. */
export const WAKEUP_CHANNEL = 'clindoc_jobs';

export interface PgJobWakeup {
  stop(): void;
}

/**
 * Listens on one connection of `pool` for enqueues made by any instance, so an idle worker starts
 * a new job at once instead of at its next poll. Polling stays: it finds retries whose delay has
 * passed, and covers the time a lost listening connection takes to come back (`reconnectMs`).
 * Resolves once the first attempt to listen has succeeded or failed.
 */
export async function listenForJobs(pool: pg.Pool, logger: Logger, onJob: () => void, reconnectMs = 2000): Promise<PgJobWakeup> {
  let stopped = false;
  let client: pg.PoolClient | undefined;
  let retry: NodeJS.Timeout | undefined;

  /** `which` is the connection that failed (none when connecting failed); a stale one is ignored. */
  const drop = (which: pg.PoolClient | undefined, err: unknown): void => {
    if (which) {
      if (which !== client) return;
      client = undefined;
      which.removeAllListeners('notification');
      // Destroyed, not returned: a connection that LISTENs must not serve the pool's queries.
      which.release(true);
    }
    if (stopped || retry) return;
    logger.warn({ code: (err as { code?: string } | undefined)?.code }, 'job wake-ups lost; polling until they return');
    retry = setTimeout(() => {
      retry = undefined;
      void connect();
    }, reconnectMs);
    retry.unref();
  };

  const connect = async (): Promise<void> => {
    let c: pg.PoolClient | undefined;
    try {
      c = await pool.connect();
      if (stopped) {
        c.release(true);
        return;
      }
      client = c;
      const mine = c;
      c.on('notification', () => onJob());
      c.on('error', (err) => drop(mine, err));
      await c.query(`LISTEN ${WAKEUP_CHANNEL}`);
    } catch (err) {
      drop(c, err);
    }
  };

  await connect();
  return {
    stop() {
      stopped = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = undefined;
      c?.removeAllListeners('notification');
      c?.release(true);
    },
  };
}
