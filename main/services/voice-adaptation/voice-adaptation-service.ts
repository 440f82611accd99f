/**
 * Voice adaptation (issue 27 point 9): the physician reads the enrollment sentences, and with
 * consent their own corrected dictation joins them; a background run adapts the embedded
 * recogniser's acoustic model to that voice (MLLR, then MAP). The model is measured on held-out
 * sentences before it is turned on, and used only for that account's recognition.
 *
 * One document per account holds the state (which sentence has which recording, the model's
 * blob, the last run); recordings (16 kHz mono 16-bit samples) and the model are blobs in the
 * account's encrypted storage.
 */
import type { AdaptationPatch, AdaptationRecording, AdaptationState } from '../../../shared/api/voice-adaptation.js';
import type { Enqueue, ServiceJob } from '../background-work.js';
import { DomainError, invalidRequest, notFound } from '../errors.js';
import type { DocumentStore } from '../storage.js';
import type { AdaptationBlobs, AdaptationUtterance, CorrectedDictation, MeasureRecognizer, VoiceAdapter } from './ports.js';
import { ENROLLMENT_SENTENCES, MINIMUM_RECORDINGS } from './sentences.js';
import { wordErrors } from './measure.js';

export const VOICE_ADAPTATION_JOB = 'voice_adaptation';
const DOC_ID = 'voice';
/** Longest enrollment recording, seconds. */
export const MAX_RECORDING_SECONDS = 30;
/** Shortest: less is a click or an empty recording. */
const MIN_RECORDING_SECONDS = 0.3;
/** Corrected dictation longer than this is left out: one alignment of minutes of speech costs more than it teaches. */
const MAX_DICTATION_SECONDS = 60;

interface ModelRef {
  blob: string;
  adaptedAt: string;
  recordingsUsed: number;
  measured?: { heldOutSentences: number; werBefore: number; werAfter: number };
}

interface VoiceDoc {
  enabled: boolean;
  useCorrectedDictation: boolean;
  recordings: Record<string, { blob: string; durationSeconds: number }>;
  run?: { status: 'adapting' | 'failed'; error?: { error: string; message: string } };
  model?: ModelRef;
}

export interface VoiceAdaptationDeps {
  store: DocumentStore;
  blobs: AdaptationBlobs;
  adapter: VoiceAdapter;
  recognize: MeasureRecognizer;
  correctedDictation: CorrectedDictation;
  enqueue: Enqueue;
  /** Upload limit in bytes (CLINDOC_MAX_AUDIO_BYTES). */
  maxUploadBytes: number;
  /** Told when an account's model changes, is turned off or goes, so a loaded adapted recogniser is let go. */
  modelChanged?: (accountId: string) => void;
  now?: () => Date;
}

export type VoiceAdaptationService = ReturnType<typeof createVoiceAdaptationService>;

/** A recording's samples as stored, and back. */
const bytesOf = (pcm: Int16Array): Buffer => Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
const samplesOf = (bytes: Buffer): Int16Array => new Int16Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + (bytes.length & ~1)));

const blank = (): VoiceDoc => ({ enabled: false, useCorrectedDictation: false, recordings: {} });

function stateOf(doc: VoiceDoc): AdaptationState {
  const recorded = Object.keys(doc.recordings).length;
  const status = doc.run?.status ?? (doc.model ? 'ready' : recorded ? 'recording' : 'not_enrolled');
  const m = doc.model;
  return {
    status, enabled: doc.enabled, useCorrectedDictation: doc.useCorrectedDictation, minimumRecordings: MINIMUM_RECORDINGS,
    sentences: ENROLLMENT_SENTENCES.map((s) => {
      const r = doc.recordings[s.id];
      return { id: s.id, text: s.text, recorded: Boolean(r), ...(r ? { durationSeconds: r.durationSeconds } : {}) };
    }),
    ...(m ? { adaptedAt: m.adaptedAt, recordingsUsed: m.recordingsUsed, ...(m.measured ? { measured: m.measured } : {}) } : {}),
    ...(doc.run?.status === 'failed' && doc.run.error ? { error: doc.run.error } : {}),
  };
}

/** A failure's kind and message for the state, never patient text: the adapter's own messages name tools and exits only. */
function failureOf(err: unknown): { error: string; message: string } {
  if (err instanceof DomainError) return { error: err.kind, message: err.message };
  const message = err instanceof Error && /^[\w .,'()-]{1,200}$/.test(err.message) ? err.message : 'the adaptation tools failed';
  return { error: 'adaptation_failed', message };
}

/** The account's document, read and written one change at a time per account, so two uploads side by side both land. */
function documents(deps: Pick<VoiceAdaptationDeps, 'store'>, now: () => Date) {
  const queues = new Map<string, Promise<unknown>>();
  const serial = <T>(accountId: string, fn: () => Promise<T>): Promise<T> => {
    const next = (queues.get(accountId) ?? Promise.resolve()).then(fn, fn);
    const settled = next.catch(() => undefined);
    queues.set(accountId, settled);
    void settled.then(() => {
      if (queues.get(accountId) === settled) queues.delete(accountId);
    });
    return next;
  };
  const load = async (accountId: string): Promise<{ doc: VoiceDoc; createdAt?: number }> => {
    const record = await deps.store.get(accountId, DOC_ID);
    return record ? { doc: record.body as VoiceDoc, createdAt: record.createdAt } : { doc: blank() };
  };
  const save = async (accountId: string, doc: VoiceDoc, createdAt?: number): Promise<void> => {
    const at = now().getTime();
    await deps.store.put({ id: DOC_ID, accountId, body: doc, createdAt: createdAt ?? at, updatedAt: at });
  };
  return {
    serial, load, save,
    /** Reads, changes and writes the account's document in its turn; `change` returns what the caller answers. */
    update: <T>(accountId: string, change: (doc: VoiceDoc) => T | Promise<T>): Promise<T> => serial(accountId, async () => {
      const { doc, createdAt } = await load(accountId);
      const answer = await change(doc);
      await save(accountId, doc, createdAt);
      return answer;
    }),
  };
}
type Documents = ReturnType<typeof documents>;

function sentence(id: string) {
  const s = ENROLLMENT_SENTENCES.find((e) => e.id === id);
  if (!s) throw notFound('enrollment sentence');
  return s;
}

type Measured = NonNullable<ModelRef['measured']>;

/**
 * Word error rates of the base model and of each adapted one on the held-out recordings; the
 * adapted model with the fewest errors is kept (the first, MLLR then MAP, without held-out ones).
 */
async function choose(deps: Pick<VoiceAdaptationDeps, 'recognize'>, models: Buffer[], heldOut: Array<{ pcm: Int16Array; text: string }>): Promise<{ model: Buffer; measured?: Measured }> {
  if (!heldOut.length) return { model: models[0]! };
  const count = async (model: Buffer | null): Promise<{ errors: number; words: number }> => {
    const recognizer = await deps.recognize(model);
    const total = { errors: 0, words: 0 };
    try {
      for (const h of heldOut) {
        const e = wordErrors(h.text, await recognizer.transcribe(h.pcm));
        total.errors += e.errors;
        total.words += e.words;
      }
    } finally {
      await recognizer.close();
    }
    return total;
  };
  const before = await count(null);
  let best = { model: models[0]!, errors: Number.POSITIVE_INFINITY };
  for (const model of models) {
    const { errors } = await count(model);
    if (errors < best.errors) best = { model, errors };
  }
  const rate = (errors: number): number => Math.round((errors / Math.max(1, before.words)) * 1000) / 1000;
  return { model: best.model, measured: { heldOutSentences: heldOut.length, werBefore: rate(before.errors), werAfter: rate(best.errors) } };
}

/** The material of a run: enrollment recordings (held-out ones apart) and, with consent, corrected dictation. */
async function material(deps: Pick<VoiceAdaptationDeps, 'blobs' | 'correctedDictation'>, accountId: string, doc: VoiceDoc) {
  const adaptOn: AdaptationUtterance[] = [];
  const heldOut: Array<{ pcm: Int16Array; text: string }> = [];
  for (const s of ENROLLMENT_SENTENCES) {
    const r = doc.recordings[s.id];
    if (!r) continue;
    const pcm = samplesOf(await deps.blobs.read(r.blob));
    (s.heldOut ? heldOut : adaptOn).push({ pcm, text: s.text });
  }
  if (doc.useCorrectedDictation) {
    for (const d of await deps.correctedDictation(accountId)) {
      const audio = await deps.blobs.decode(d.audioKey).catch(() => undefined);
      if (audio && audio.durationSec <= MAX_DICTATION_SECONDS) adaptOn.push({ pcm: audio.pcm, text: d.text });
    }
  }
  return { adaptOn, heldOut };
}

/** One run (the job): adapt, measure, keep the model; a failure is the state's `failed`, never a retry. */
async function run(deps: VoiceAdaptationDeps, docs: Documents, now: () => Date, accountId: string): Promise<void> {
  const { doc } = await docs.load(accountId);
  if (doc.run?.status !== 'adapting') return;
  let model: ModelRef | undefined;
  let failure: { error: string; message: string } | undefined;
  try {
    const { adaptOn, heldOut } = await material(deps, accountId, doc);
    const adapted = await deps.adapter.adapt(adaptOn);
    const { model: kept, measured } = await choose(deps, adapted.models.map((m) => m.model), heldOut);
    model = { blob: await deps.blobs.write(kept), adaptedAt: now().toISOString(), recordingsUsed: adapted.used, ...(measured ? { measured } : {}) };
  } catch (err) {
    failure = failureOf(err);
  }
  const orphan = await docs.serial(accountId, async () => {
    const current = await deps.store.get(accountId, DOC_ID);
    const latest = current?.body as VoiceDoc | undefined;
    // Deleted (or a new run asked for) while this one ran: its model is nobody's.
    if (!latest || latest.run?.status !== 'adapting') return model?.blob;
    const old = latest.model?.blob;
    if (model) {
      latest.model = model;
      // Turned on only when it measurably helped on sentences it never saw.
      latest.enabled = Boolean(model.measured && model.measured.werAfter < model.measured.werBefore);
      delete latest.run;
    } else {
      latest.run = { status: 'failed', ...(failure ? { error: failure } : {}) };
    }
    await docs.save(accountId, latest, current!.createdAt);
    deps.modelChanged?.(accountId);
    return model ? old : undefined;
  });
  if (orphan) await deps.blobs.delete(orphan);
}

/** Stores one enrollment recording (encrypted) as 16 kHz mono samples; replaces an earlier one of the same sentence. */
async function saveRecording(deps: VoiceAdaptationDeps, docs: Documents, accountId: string, sentenceId: string, upload: NodeJS.ReadableStream): Promise<AdaptationRecording> {
  sentence(sentenceId);
  const uploaded = await deps.blobs.writeStream(upload, deps.maxUploadBytes);
  let stored: string;
  let durationSeconds: number;
  try {
    const audio = await deps.blobs.decode(uploaded);
    durationSeconds = Math.round(audio.durationSec * 100) / 100;
    if (!audio.pcm.length || audio.durationSec < MIN_RECORDING_SECONDS) throw invalidRequest('audio: the recording is empty');
    if (audio.durationSec > MAX_RECORDING_SECONDS) throw invalidRequest(`audio: a recording may last at most ${MAX_RECORDING_SECONDS} s`);
    stored = await deps.blobs.write(bytesOf(audio.pcm));
  } finally {
    await deps.blobs.delete(uploaded);
  }
  const replaced = await docs.update(accountId, (doc) => {
    const old = doc.recordings[sentenceId]?.blob;
    doc.recordings[sentenceId] = { blob: stored, durationSeconds };
    return old;
  });
  if (replaced) await deps.blobs.delete(replaced);
  return { sentenceId, durationSeconds };
}

export function createVoiceAdaptationService(deps: VoiceAdaptationDeps) {
  const now = deps.now ?? (() => new Date());
  const docs = documents(deps, now);
  return {
    state: async (accountId: string): Promise<AdaptationState> => stateOf((await docs.load(accountId)).doc),
    saveRecording: (accountId: string, sentenceId: string, upload: NodeJS.ReadableStream) => saveRecording(deps, docs, accountId, sentenceId, upload),

    async deleteRecording(accountId: string, sentenceId: string): Promise<void> {
      sentence(sentenceId);
      const old = await docs.update(accountId, (doc) => {
        const blob = doc.recordings[sentenceId]?.blob;
        delete doc.recordings[sentenceId];
        return blob;
      });
      if (old) await deps.blobs.delete(old);
    },

    /** Queues a run (202); 409 below the minimum of recordings or while one is under way. */
    async startRun(accountId: string): Promise<AdaptationState> {
      const state = await docs.update(accountId, (doc) => {
        const count = Object.keys(doc.recordings).length;
        if (count < MINIMUM_RECORDINGS) throw new DomainError('conflict', `adaptation needs at least ${MINIMUM_RECORDINGS} recorded sentences; ${count} recorded`);
        if (doc.run?.status === 'adapting') throw new DomainError('conflict', 'an adaptation run is already under way');
        doc.run = { status: 'adapting' };
        return stateOf(doc);
      });
      await deps.enqueue(VOICE_ADAPTATION_JOB, accountId, accountId);
      return state;
    },

    async change(accountId: string, patch: AdaptationPatch): Promise<AdaptationState> {
      const state = await docs.update(accountId, (doc) => {
        if (patch.enabled === true && !doc.model) throw new DomainError('conflict', 'there is no adapted model to turn on yet: record the sentences and run an adaptation first');
        if (patch.enabled !== undefined) doc.enabled = patch.enabled;
        if (patch.useCorrectedDictation !== undefined) doc.useCorrectedDictation = patch.useCorrectedDictation;
        return stateOf(doc);
      });
      deps.modelChanged?.(accountId);
      return state;
    },

    /** Removes recordings and the adapted model (corrected dictation is never copied: nothing else to remove). */
    async deleteAll(accountId: string): Promise<void> {
      const blobs = await docs.serial(accountId, async () => {
        const { doc } = await docs.load(accountId);
        await deps.store.delete(accountId, DOC_ID);
        return [...Object.values(doc.recordings).map((r) => r.blob), ...(doc.model ? [doc.model.blob] : [])];
      });
      deps.modelChanged?.(accountId);
      for (const blob of blobs) await deps.blobs.delete(blob);
    },

    /** The blob of the account's adapted model when it is turned on; undefined otherwise. */
    async activeModel(accountId: string): Promise<string | undefined> {
      const { doc } = await docs.load(accountId);
      return doc.enabled && doc.model ? doc.model.blob : undefined;
    },

    run: (accountId: string) => run(deps, docs, now, accountId),

    /** The queue gave up on a run (its attempts failed before it could record why): the state says so. */
    async giveUp(accountId: string): Promise<void> {
      await docs.update(accountId, (doc) => {
        if (doc.run?.status === 'adapting') doc.run = { status: 'failed', error: { error: 'adaptation_failed', message: 'the adaptation run could not complete' } };
      });
    },
  };
}

/** The service's job, for the queue. */
export function voiceAdaptationJobs(service: VoiceAdaptationService): ServiceJob[] {
  return [{ kind: VOICE_ADAPTATION_JOB, run: (accountId) => service.run(accountId), giveUp: (accountId) => service.giveUp(accountId) }];
}
