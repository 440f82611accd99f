/**
 * Prometheus metrics of one Clindoc process (`GET /metrics`). Each app gets its own registry, so
 * tests build as many as they like and nothing lands in prom-client's global one. Labels are
 * route templates, methods, statuses, job kinds and engine names: never a raw URL, an id, an
 * account or anything a patient said.
 */
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** One job kind's backlog, as the queue reports it (on SQLite a COUNT/MIN over the jobs table). */
export interface QueueStat {
  kind: string;
  /** Jobs waiting to run (retries waiting for their backoff included). */
  queued: number;
  /** Jobs running now. */
  running: number;
  /** Age in seconds of the oldest queued job; null when none is queued. */
  oldestQueuedSeconds: number | null;
}

export interface OpsMetricsOptions {
  /** The job queue's backlog by kind, read at each scrape; absent: no queue metrics. */
  queue?: () => Promise<QueueStat[]>;
  /** Node's process metrics (CPU, memory, event loop, handles); default true. */
  processMetrics?: boolean;
}

export interface OpsMetrics {
  registry: Registry;
  /**
   * Counts one answered request and its time from request to last byte, labelled by method, route
   * template (`/v1/notes/:noteId`, or `unmatched`) and status. Called by the front door's `finish` listener.
   */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** Records one finished recognition: wall time over audio time, by engine. */
  observeRealTime(engine: string, audioSeconds: number, wallSeconds: number): void;
  /** Counts a POST that found its Idempotency-Key held by a request still running (here or on another instance). */
  observeIdempotencyWait(): void;
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function createOpsMetrics(options: OpsMetricsOptions = {}): OpsMetrics {
  const registry = new Registry();
  if (options.processMetrics !== false) collectDefaultMetrics({ register: registry, prefix: 'clindoc_' });
  const labelNames = ['method', 'route', 'status'] as const;
  const count = new Counter({ name: 'clindoc_http_requests_total', help: 'HTTP requests answered, by method, route template and status.', labelNames, registers: [registry] });
  const latency = new Histogram({
    name: 'clindoc_http_request_duration_seconds', help: 'Time from request to the last byte of the response, by method, route template and status.',
    labelNames, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60], registers: [registry],
  });
  const requestSeries = new Map<string, { count: { inc(): void }; latency: { observe(value: number): void } }>();
  const realTime = new Histogram({
    name: 'clindoc_transcription_real_time_factor', help: 'Recognition wall time divided by audio duration, per finished transcription, by engine (below 1 is faster than real time).',
    labelNames: ['engine'] as const, buckets: [0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 1.5, 2, 4], registers: [registry],
  });
  const idempotencyWaits = new Counter({
    name: 'clindoc_idempotency_waits_total', help: 'POSTs that waited for the first request with their Idempotency-Key, still running on this instance or another.', registers: [registry],
  });
  if (options.queue) {
    const queue = options.queue;
    // prom-client collects every metric at once: one read of the queue serves all four of a scrape.
    let pending: Promise<QueueStat[] | undefined> | undefined;
    const read = (): Promise<QueueStat[] | undefined> =>
      (pending ??= queue().then((stats) => stats, () => undefined).finally(() => (pending = undefined)));
    const perKind = (name: string, help: string, value: (stat: QueueStat) => number): void => {
      new Gauge({
        name, help, labelNames: ['kind'] as const, registers: [registry],
        async collect() {
          const stats = await read();
          this.reset();
          for (const stat of stats ?? []) this.set({ kind: stat.kind }, value(stat));
        },
      });
    };
    perKind('clindoc_jobs_queued', 'Jobs waiting to run (retries in backoff included), by kind.', (s) => s.queued);
    perKind('clindoc_jobs_running', 'Jobs running, by kind.', (s) => s.running);
    perKind('clindoc_jobs_oldest_queued_age_seconds', 'Age of the oldest queued job, by kind (0 when none waits).', (s) => s.oldestQueuedSeconds ?? 0);
    new Gauge({
      name: 'clindoc_jobs_queue_up', help: '1 when the job queue could be read for this scrape, 0 when not.', registers: [registry],
      async collect() {
        this.set((await read()) ? 1 : 0);
      },
    });
  }

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      const m = METHODS.has(method) ? method : 'other';
      // One pair of labelled series per method, route and status (a bounded set), looked up by one
      // string instead of prom-client hashing a label object twice per request.
      const key = `${m} ${status} ${route}`;
      let series = requestSeries.get(key);
      if (!series) {
        // Labelled as OpenAPI writes the template (`/v1/notes/{noteId}`).
        const labels = { method: m, route: route.replace(/:([A-Za-z0-9_]+)/g, '{$1}'), status: String(status) };
        series = { count: count.labels(labels), latency: latency.labels(labels) };
        requestSeries.set(key, series);
      }
      series.count.inc();
      series.latency.observe(seconds);
    },
    observeRealTime(engine, audioSeconds, wallSeconds) {
      if (audioSeconds > 0 && Number.isFinite(wallSeconds)) realTime.observe({ engine }, wallSeconds / audioSeconds);
    },
    observeIdempotencyWait: () => idempotencyWaits.inc(),
  };
}
