import { randomUUID } from 'node:crypto';
import type { Announcement, BlobStore, Page, TranscriptionRecord, TranscriptionStore } from '../storage.js';
import { DomainError, invalidRequest, notFound, isOutOfSpace } from '../errors.js';
import type { EngineSettingsService } from './engine-settings.js';
import { storedStatus, type ServiceJob, type WebhookSubject } from '../background-work.js';

/** Options of a V2 upload (API-DECISIONS "Transcriptions"). */
export interface TranscriptionOptions {
  language: string;
  dictation: boolean;
  diarization: boolean;
  webhookUrl?: string;
  /** Recogniser chosen for this request (`pocketsphinx`, `onnx-ctc`...); account default when absent. */
  engine?: string;
}

export interface TranscribedWord {
  word: string;
  punctuated_word: string;
  start: number;
  end: number;
  confidence: number;
  speaker: number | null;
}

export interface TranscribedUtterance {
  speaker: number | null;
  start: number;
  end: number;
  text: string;
  confidence: number;
}

/** What the recognition pipeline produces for one recording. */
export interface TranscriptResult {
  text: string;
  duration: number;
  confidence: number;
  speakers: number | null;
  words: TranscribedWord[];
  utterances: TranscribedUtterance[];
  /** The recogniser and model that made it (recorded with the transcript). */
  generatedBy?: { engine: string; model?: string; fallbackFrom?: { engine: string; model?: string; reason: string } };
}

/** Turns a stored audio file into a transcript (decode, segment, recognise, diarize, format). */
/** Recognition of one stored recording; `accountId` picks that account's own adapted recogniser where it has one (voice adaptation). */
export type TranscriptionPipeline = (audioPath: string, options: TranscriptionOptions, accountId?: string) => Promise<TranscriptResult>;

export interface TranscriptionV2View {
  id: string;
  status: TranscriptionRecord['status'];
  language: string;
  duration: number | null;
  text: string | null;
  confidence: number | null;
  speakers: number | null;
  utterances: TranscribedUtterance[];
  words: TranscribedWord[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
  error: string | null;
  /** Extension: the recogniser and model that made the transcript. */
  generatedBy?: { engine: string; model?: string; fallbackFrom?: { engine: string; model?: string; reason: string } };
}

export interface TranscriptionV1View {
  id: string;
  payload: { transcription: string };
  timestamp: { start: number; complete?: number };
}

export const TRANSCRIPTION_JOB = 'audio_transcription';

/** MIME types the contract lists for V2 uploads, plus common aliases browsers and tools send. */
export const AUDIO_TYPES = [
  'audio/wav', 'audio/wave', 'audio/x-wav', 'audio/vnd.wave', 'audio/mpeg', 'audio/mp3', 'audio/flac', 'audio/x-flac', 'audio/ogg',
  'audio/webm', 'audio/mp4', 'audio/m4a', 'audio/x-m4a', 'audio/aac', 'audio/opus', 'video/webm', 'video/mp4', 'application/ogg',
];

export interface TranscriptionEvents {
  /** Called after a transcription reaches a final state (webhooks), and awaited. Must not throw. */
  transcriptionFinished?(event: { accountId: string; id: string; status: 'completed' | 'failed'; webhookUrl?: string }): void | Promise<void>;
}

export interface TranscriptionService {
  /** Streams uploaded audio into blob storage (415 for unsupported types, 413 past the limit). */
  storeAudio(stream: NodeJS.ReadableStream, contentType: string): Promise<{ key: string; type: string }>;
  /** Records stored audio as a pending transcription and queues it (400, audio dropped, for an engine not configured here). */
  accept(accountId: string, audio: { key: string; type: string }, options: TranscriptionOptions): Promise<Pick<TranscriptionV2View, 'id' | 'created_at' | 'updated_at'> & { status: 'pending' }>;
  /** Drops audio stored for an upload that was then refused. */
  discardAudio(key: string): Promise<void>;
  getV2(accountId: string, id: string): Promise<TranscriptionV2View>;
  getV1(accountId: string, id: string): Promise<TranscriptionV1View>;
  list(accountId: string, limit: number, cursor?: string): Promise<Page<TranscriptionV2View>>;
  delete(accountId: string, id: string): Promise<void>;
  /** Job runner entry point. */
  process(id: string): Promise<void>;
  fail(id: string, message: string): Promise<void>;
}

const iso = (t: number | null): string | null => (t === null ? null : new Date(t).toISOString());

export function toV2View(r: TranscriptionRecord): TranscriptionV2View {
  const result = r.result as unknown as TranscriptResult | null;
  return {
    id: r.id,
    status: r.status,
    language: String(r.options.language ?? 'en'),
    duration: result?.duration ?? null,
    text: result?.text ?? null,
    confidence: result?.confidence ?? null,
    speakers: result?.speakers ?? null,
    utterances: result?.utterances ?? [],
    words: result?.words ?? [],
    created_at: iso(r.createdAt)!,
    updated_at: iso(r.updatedAt)!,
    completed_at: iso(r.completedAt),
    error: r.error,
    ...(result?.generatedBy ? { generatedBy: { ...result.generatedBy } } : {}),
  };
}

/**
 * Statuses a job may still write over. Jobs are delivered at least once (two runs of one job can
 * overlap, a give-up can come twice), so job writes are conditional on these and only the write
 * that lands announces the transcription.
 */
const UNFINISHED = { statusIn: ['pending', 'processing'] } as const;

export function createTranscriptionService(deps: {
  store: TranscriptionStore;
  blobs: BlobStore;
  pipeline: () => TranscriptionPipeline;
  /** Queues a job; resolves once it is stored. */
  enqueue: (kind: string, accountId: string, resourceId: string) => Promise<void>;
  maxAudioBytes: number;
  events?: TranscriptionEvents;
  /** Engine choice (request, account default, device default); without it `engine` passes through unchecked. */
  engines?: Pick<EngineSettingsService, 'resolve'>;
  now?: () => number;
}): TranscriptionService {
  const now = deps.now ?? Date.now;
  /** The webhook event a final write carries into the outbox, with the upload's own webhookUrl. */
  const announcement = (record: TranscriptionRecord, status: 'completed' | 'failed'): Announcement => {
    const requestUrl = typeof record.options.webhookUrl === 'string' ? record.options.webhookUrl : undefined;
    return { event: status === 'completed' ? 'audio_transcription.succeeded' : 'audio_transcription.failed', ...(requestUrl ? { requestUrl } : {}) };
  };
  const finish = async (record: TranscriptionRecord, status: 'completed' | 'failed'): Promise<void> => {
    const webhookUrl = typeof record.options.webhookUrl === 'string' ? record.options.webhookUrl : undefined;
    await deps.events?.transcriptionFinished?.({ accountId: record.accountId, id: record.id, status, ...(webhookUrl ? { webhookUrl } : {}) });
  };
  return {
    async storeAudio(stream, contentType) {
      const type = normaliseAudioType(contentType);
      const { key } = await deps.blobs.write(stream, deps.maxAudioBytes);
      return { key, type };
    },
    discardAudio: (key) => deps.blobs.delete(key),
    async accept(accountId, audio, requested) {
      const { key, type } = audio;
      let options = requested;
      if (deps.engines) {
        try {
          // Fixed at upload, so a job resumed after a crash uses the engine the caller was promised.
          options = { ...requested, engine: await deps.engines.resolve(accountId, requested.engine) };
        } catch (err) {
          await deps.blobs.delete(key);
          throw err;
        }
      }
      const t = now();
      const id = randomUUID();
      let inserted = false;
      try {
        await deps.store.insert({
          id, accountId, status: 'pending', options: { ...options }, audioBlob: key, audioType: type, result: null, error: null,
          createdAt: t, updatedAt: t, startedAt: null, completedAt: null,
        });
        inserted = true;
        await deps.enqueue(TRANSCRIPTION_JOB, accountId, id);
      } catch (err) {
        // Not accepted (a full disk, say): the record and the audio go too, so none is left without
        // its job, and the room comes back.
        if (inserted) await deps.store.delete(accountId, id).catch(() => undefined);
        await deps.blobs.delete(key);
        throw err;
      }
      return { id, status: 'pending', created_at: iso(t)!, updated_at: iso(t)! };
    },
    async getV2(accountId, id) {
      const record = await deps.store.get(accountId, id);
      if (!record) throw notFound('transcription');
      return toV2View(record);
    },
    async getV1(accountId, id) {
      const record = await deps.store.get(accountId, id);
      if (!record) throw notFound('transcription');
      const result = record.result as unknown as TranscriptResult | null;
      return {
        id: record.id,
        payload: { transcription: result?.text ?? '' },
        timestamp: { start: record.createdAt, ...(record.completedAt !== null ? { complete: record.completedAt } : {}) },
      };
    },
    async list(accountId, limit, cursor) {
      const page = await deps.store.list(accountId, limit, cursor);
      return { items: page.items.map(toV2View), nextCursor: page.nextCursor };
    },
    async delete(accountId, id) {
      const record = await deps.store.get(accountId, id);
      if (!record) throw notFound('transcription');
      if (record.audioBlob) await deps.blobs.delete(record.audioBlob);
      await deps.store.delete(accountId, id);
    },
    async process(id) {
      const record = await deps.store.getForJob(id);
      if (!record || record.status === 'completed' || record.status === 'failed') return;
      if (!record.audioBlob || !(await deps.blobs.exists(record.audioBlob))) {
        await this.fail(id, 'the uploaded audio is no longer available');
        return;
      }
      // Deleted, or finished by another run of the job, since the read.
      if (!(await deps.store.update(id, { status: 'processing', startedAt: now(), updatedAt: now() }, UNFINISHED))) return;
      try {
        const result = await deps.pipeline()(deps.blobs.pathOf(record.audioBlob), record.options as unknown as TranscriptionOptions, record.accountId);
        const t = now();
        const written = await deps.store.update(
          id, { status: 'completed', result: result as unknown as Record<string, unknown>, completedAt: t, updatedAt: t, error: null }, UNFINISHED,
          announcement(record, 'completed'),
        );
        if (!written) return; // deleted, or another run of the job wrote it first
        await finish(record, 'completed');
      } catch (err) {
        // Engine outages and a full disk are retried by the runner; anything else fails the transcription now.
        if ((err instanceof DomainError && err.kind === 'engine_unavailable') || isOutOfSpace(err)) throw err;
        await this.fail(id, err instanceof DomainError ? err.message : 'transcription failed');
      }
    },
    async fail(id, message) {
      const record = await deps.store.getForJob(id);
      if (!record) return;
      const t = now();
      // A late give-up (after a crash, or after another run completed) leaves a finished transcription as it is.
      if (!(await deps.store.update(id, { status: 'failed', error: message, completedAt: t, updatedAt: t }, UNFINISHED, announcement(record, 'failed')))) return;
      await finish(record, 'failed');
    },
  };
}

/** The transcription job, for the composition to register with the queue: recognise a recording, or record that the queue gave up. */
export function transcriptionJobs(service: Pick<TranscriptionService, 'process' | 'fail'>): ServiceJob[] {
  return [{ kind: TRANSCRIPTION_JOB, run: (id) => service.process(id), giveUp: (id, message) => service.fail(id, message) }];
}

/** What a transcription's webhook events (`audio_transcription.*`) re-read before each attempt: its status, or nothing once deleted. */
export const transcriptionWebhooks = (store: Pick<TranscriptionStore, 'get'>): WebhookSubject => storedStatus(TRANSCRIPTION_JOB, store);

/** Lower-cased MIME type without parameters; 415 unless it is an accepted audio type. */
export function normaliseAudioType(contentType: string | undefined): string {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (!AUDIO_TYPES.includes(type)) {
    throw new DomainError('unsupported_media_type', type ? `unsupported audio type "${type.slice(0, 100)}"` : 'audio Content-Type is required');
  }
  return type;
}

/** Parses the V2 upload options from form fields or query parameters (strings). */
export function parseTranscriptionOptions(fields: Record<string, unknown>): TranscriptionOptions {
  const bool = (name: string, fallback: boolean): boolean => {
    const value = fields[name];
    if (value === undefined || value === '') return fallback;
    if (value === true || value === 'true' || value === '1') return true;
    if (value === false || value === 'false' || value === '0') return false;
    throw invalidRequest(`${name}: must be true or false`);
  };
  const language = fields.language === undefined || fields.language === '' ? 'en' : fields.language;
  if (typeof language !== 'string' || !/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$|^multi$/.test(language)) throw invalidRequest('language: must be a language tag such as en or en-US');
  const options: TranscriptionOptions = { language, dictation: bool('dictation', false), diarization: bool('diarization', true) };
  const webhookUrl = fields.webhookUrl;
  if (webhookUrl !== undefined && webhookUrl !== '') {
    if (typeof webhookUrl !== 'string') throw invalidRequest('webhookUrl: must be a URL');
    options.webhookUrl = webhookUrl;
  }
  const engine = fields.engine;
  if (engine !== undefined && engine !== '') {
    if (typeof engine !== 'string' || !/^[a-z0-9-]{1,40}$/.test(engine)) throw invalidRequest('engine: must be an engine name');
    options.engine = engine;
  }
  return options;
}
