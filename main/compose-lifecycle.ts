/**
 * Part of the one composition: starting and stopping what the other parts built. `listen()` binds
 * the port, attaches live dictation and starts the background work in order; `close()` drains and
 * closes in the reverse order, the database last.
 */
import type { Server } from 'node:http';
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import type { ComposedStores } from './compose-stores.js';
import type { EngineRegistry } from './compose-engines.js';
import type { ComposedRecords } from './compose-records.js';
import type { ComputePool } from './services/compute/ports.js';
import type { ModelService } from './services/models/model-service.js';
import type { SignInLinks } from './services/accounts/sign-in-links.js';
import type { JobRunner } from './jobs/job-runner.js';
import type { WebhookDispatcher } from './jobs/webhook-dispatcher.js';
import type { DrainState } from './server/middleware/drain.js';
import { stopAccepting } from './server/listener.js';
import type { StreamingHandle } from './server/streaming/attach.js';

export interface ClindocLifecycle {
  /**
   * A one-click sign-in link to the interface (`http://127.0.0.1:PORT/#token=…`): a single-use
   * token valid ten minutes, exchanged by the page for the local credentials. After `listen()`.
   */
  signInLink(): string;
  /** Binds the port and starts background work; resolves with the bound port. */
  listen(): Promise<number>;
  /**
   * Stops accepting, lets running jobs finish (or stay queued), closes the database. With
   * `graceMs` (SIGTERM: CLINDOC_DRAIN_SECONDS) `/readyz` answers 503 at once and requests in
   * flight and running jobs get that long; without, connections are cut at once.
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

/** The port the server listens on: the configured one until `listen()` binds (port 0 picks a free one). */
export interface BoundPort {
  port: number;
}

export interface LifecycleParts {
  server: Server;
  bound: BoundPort;
  startStreaming(): StreamingHandle;
  /** The services' job queue, the model downloads' runner and webhook delivery. */
  jobs: JobRunner;
  downloads: JobRunner;
  dispatcher: WebhookDispatcher;
  records: Pick<ComposedRecords, 'retention' | 'backups' | 'backupScheduler'>;
  registry: Pick<EngineRegistry, 'defaultTextEngine' | 'close'>;
  compute: ComputePool;
  models: Pick<ModelService, 'shutdown'>;
  storage: Pick<ComposedStores, 'db' | 'shared' | 'stores'>;
  drain: DrainState;
  signIn: SignInLinks;
}

/** Where the page is reached: a wildcard listen address on loopback, so the page's origin is the one the guard accepts. */
function pageHost(host: string): string {
  return ['0.0.0.0', '::', ''].includes(host) ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
}

export function clindocLifecycle(config: ClindocConfig, logger: Logger, p: LifecycleParts): ClindocLifecycle {
  const { server, bound, records } = p;
  // Webhooks are delivered and retention swept where jobs run (workers and the desktop).
  const works = config.role !== 'api';
  let streaming: StreamingHandle | undefined;
  return {
    signInLink() {
      return `${config.tls ? 'https' : 'http'}://${pageHost(config.host)}:${bound.port}/#token=${p.signIn.issue().token}`;
    },
    async listen() {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(config.port, config.host, () => resolve());
      });
      const address = server.address();
      bound.port = typeof address === 'object' && address ? address.port : config.port;
      streaming = p.startStreaming();
      // Each queue first puts back what a previous exit left running, then takes work.
      await p.jobs.start();
      await p.downloads.start();
      if (works) {
        await p.dispatcher.start();
        records.retention.start();
      }
      // Where notes are written here by the embedded writer, a worker loads it now, not at the first note.
      if (works && config.jobConcurrency > 0 && p.registry.defaultTextEngine === 'embedded') p.compute.prepare(['writeNote']);
      records.backupScheduler.start();
      logger.info({ host: config.host, port: bound.port, role: config.role }, 'local API listening');
      return bound.port;
    },
    async close(options = {}) {
      const graceMs = options.graceMs ?? 0;
      p.drain.begin(); // `/readyz` answers 503 from now on
      const listener = stopAccepting(server);
      await records.retention.stop();
      records.backupScheduler.stop();
      await streaming?.close();
      // Without a grace period (tests, the desktop app's quit) jobs keep the runner's own default.
      await Promise.all([listener.finish(graceMs), p.jobs.stop(options.graceMs)]);
      p.models.shutdown();
      await p.downloads.stop();
      await p.dispatcher.stop();
      await p.registry.close();
      await p.compute.close();
      // A backup being written reads the database to the end before it is closed.
      await records.backups.idle();
      try {
        p.storage.stores.audit.flush?.(); // the trail's last batch (SQLite batches its writes; PostgreSQL writes each at once)
      } catch (err) {
        logger.error({ errName: (err as Error)?.name }, 'audit events could not be written before closing');
      }
      await p.storage.shared?.close();
      p.storage.db.close();
    },
  };
}
