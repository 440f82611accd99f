/**
 * Part of the one composition: the services whose work runs as jobs (notes, transcriptions) and the
 * queue that runs it. Each service exposes its own jobs (`noteJobs`, `transcriptionJobs`); the queue
 * is built from them, so the services enqueue through a port bound to the queue once it exists.
 * On PostgreSQL the queue is pg-boss, shared by every instance; on SQLite the durable table runner.
 */
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import type { ComposedStores } from './compose-stores.js';
import type { ComposedEngines } from './compose-engine-choice.js';
import type { ComposedWriters } from './compose-writers.js';
import { sqliteOpsStorage, type OpsStorage } from './compose-ops.js';
import { MODEL_PULL_JOB } from './compose-models.js';
import type { Enqueue, ServiceJob } from './services/background-work.js';
import { createNoteService, NOTE_JOB, noteJobs, type NoteService } from './services/notes/note-service.js';
import { createTranscriptionService, TRANSCRIPTION_JOB, transcriptionJobs, type TranscriptionPipeline, type TranscriptionService } from './services/transcriptions/transcription-service.js';
import { createTranscriptionPipeline } from './services/transcriptions/pipeline.js';
import type { EngineSettingsService } from './services/transcriptions/engine-settings.js';
import type { SpeechRecognizer } from './services/transcriptions/ports.js';
import type { OpsMetrics } from './server/middleware/metrics.js';
import type { DeadLetterSource } from './server/routes/jobs.js';
import { createJobRunner, type JobHandler, type JobRunner } from './jobs/job-runner.js';
import { createSqliteDeadLetters } from './store/job-store.js';
import { createFfmpegDecoder } from './engines/audio/index.js';
import { createClusteringDiarizer } from './engines/diarization/index.js';

type RecognizerFor = (engine?: string, accountId?: string) => SpeechRecognizer | Promise<SpeechRecognizer>;

export interface JobServices {
  notes: NoteService;
  transcriptions: TranscriptionService;
  /** The jobs these services own, for the queue. */
  jobs: ServiceJob[];
}

/** Recognition of a stored recording: audio is encrypted at rest, so the engines get a short-lived private plaintext copy; each run's speed goes to `/metrics`. */
function composePipeline(config: ClindocConfig, blobs: ComposedStores['blobs'], engines: Pick<ComposedEngines, 'batchVad'> & { recognizer: RecognizerFor }, metrics: OpsMetrics): TranscriptionPipeline {
  const plain = createTranscriptionPipeline({
    decoder: createFfmpegDecoder({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath, timeoutMs: config.ffmpegTimeoutMs, maxSeconds: config.maxAudioSeconds }),
    recognizer: engines.recognizer, vad: engines.batchVad, diarizer: createClusteringDiarizer(),
  });
  return async (path, options, accountId) => {
    const key = blobs.keyOf(path);
    const started = performance.now();
    const result = await (key ? blobs.withPlaintext(key, (file) => plain(file, options, accountId)) : plain(path, options, accountId));
    metrics.observeRealTime(result.generatedBy?.engine ?? config.asrEngine, result.duration, (performance.now() - started) / 1000);
    return result;
  };
}

export function composeJobServices(config: ClindocConfig, deps: {
  storage: Pick<ComposedStores, 'stores' | 'blobs'>;
  engines: Pick<ComposedEngines, 'settings' | 'recognizer' | 'batchVad'>;
  writers: ComposedWriters;
  metrics: OpsMetrics;
  enqueue: Enqueue;
  /** The recogniser of an engine for an account (its voice-adapted one where it has one); default the device's by name. */
  recognizerFor?: RecognizerFor;
  /** A note's or transcription's final write carries its webhook event into the outbox (one transaction); told at once, the dispatcher need not wait for its next pass. */
  wakeWebhooks: () => void;
}): JobServices {
  const { stores, blobs } = deps.storage;
  const notes = createNoteService({
    notes: stores.notes, templates: stores.templates, writer: (accountId) => deps.writers.noteWriter(accountId), enqueue: deps.enqueue,
    events: { noteFinished: deps.wakeWebhooks },
  });
  const pipeline = composePipeline(config, blobs, { batchVad: deps.engines.batchVad, recognizer: deps.recognizerFor ?? deps.engines.recognizer }, deps.metrics);
  const transcriptions = createTranscriptionService({
    engines: deps.engines.settings, store: stores.transcriptions, blobs, pipeline: () => pipeline, enqueue: deps.enqueue, maxAudioBytes: config.maxAudioBytes,
    events: { transcriptionFinished: deps.wakeWebhooks },
  });
  return { notes, transcriptions, jobs: [...noteJobs(notes), ...transcriptionJobs(transcriptions)] };
}

/** The engine a job will use: each engine has its own job slots (CLINDOC_JOB_CONCURRENCY each), so a hung server holds only its own. */
export function jobLanes(settings: Pick<EngineSettingsService, 'resolve' | 'resolveNotes'>): (job: { kind: string; accountId: string }) => Promise<string> {
  const lanes: Record<string, (accountId: string) => Promise<string>> = {
    [NOTE_JOB]: async (accountId) => `text:${await settings.resolveNotes(accountId)}`,
    [TRANSCRIPTION_JOB]: async (accountId) => `speech:${await settings.resolve(accountId)}`,
  };
  return async (job) => {
    const lane = lanes[job.kind];
    return lane ? lane(job.accountId) : job.kind;
  };
}

export interface ComposedQueue {
  /** The queue of the services' jobs (model downloads have a runner of their own). */
  runner: JobRunner;
  deadLetters: DeadLetterSource;
  /** What the operations endpoints read: a probe of the database and the backlog by kind, model downloads included. */
  opsStorage: OpsStorage;
}

function handlersOf(jobs: ServiceJob[]): Record<string, JobHandler> {
  const handlers: Record<string, JobHandler> = {};
  for (const job of jobs) {
    if (handlers[job.kind]) throw new Error(`two services answer for jobs of kind ${job.kind}`);
    handlers[job.kind] = job;
  }
  return handlers;
}

export async function composeQueue(
  config: ClindocConfig, logger: Logger, storage: Pick<ComposedStores, 'db' | 'shared' | 'stores'>, jobs: ServiceJob[],
  laneOf: (job: { kind: string; accountId: string }) => Promise<string>,
): Promise<ComposedQueue> {
  const handlers = handlersOf(jobs);
  // An API instance queues work and never runs it; workers and the desktop run it.
  const concurrency = config.role !== 'api' ? config.jobConcurrency : 0;
  const sqlite = sqliteOpsStorage(storage.db);
  const { shared } = storage;
  if (!shared) {
    return {
      runner: createJobRunner({ store: storage.stores.jobs, logger, concurrency, maxAttempts: config.jobMaxAttempts, handlers, laneOf }),
      deadLetters: createSqliteDeadLetters(storage.db, [MODEL_PULL_JOB]), opsStorage: sqlite,
    };
  }
  // The queue works through the stores' pool, which closes last: a request still in flight when a
  // drain stops the queue (a note posted as SIGTERM came) can still queue its job, as on SQLite.
  const pgQueue = (await import('./jobs/pg-job-queue.js')).createPgJobQueue({
    pool: shared.pool, handlers, logger, concurrency, maxAttempts: config.jobMaxAttempts, expireInSeconds: config.jobExpireSeconds, laneOf,
    // pg-boss takes expired jobs back at each maintenance pass: as often as the expiry, so a dead worker's job returns on time.
    maintenanceIntervalSeconds: Math.min(30, config.jobExpireSeconds),
  });
  return {
    runner: pgQueue,
    deadLetters: async (accountId, limit) => (await pgQueue.deadLetters(accountId, limit)).map(({ accountId: _a, ...d }) => d),
    opsStorage: {
      ping: () => shared.ping(),
      // Shared notes and transcriptions on PostgreSQL, beside this device's model downloads.
      queue: async () => [
        ...Object.entries(await pgQueue.stats()).map(([kind, d]) => ({ kind, queued: d.queued, running: d.active, oldestQueuedSeconds: d.oldestQueuedAgeSeconds })),
        ...(await sqlite.queue()).filter((q) => q.kind === MODEL_PULL_JOB),
      ],
    },
  };
}
