/**
 * Part of the one composition: voice adaptation (issue 27 point 9). The service with its ports
 * (sphinxtrain, the encrypted blob store, ffmpeg, the pocketsphinx recogniser), and the recogniser
 * lookup that gives an account with an adapted model, turned on, its own pocketsphinx recogniser
 * for live and batch recognition. Every other account, and every other engine, gets the registry's.
 *
 * An adapted recogniser loads its model from a private folder (RAM-backed where there is one) that
 * holds the decrypted model for as long as the recogniser is loaded: it is removed when the model
 * changes or goes, after CLINDOC_MODEL_IDLE_SECONDS unused, and at close; a process killed before
 * that has it swept at its next start (sweepPlaintextCopies).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import type { ComposedStores } from './compose-stores.js';
import type { ComposedEngines } from './compose-engine-choice.js';
import { pocketsphinxOptions } from './compose-engine-specs.js';
import type { Enqueue, ServiceJob } from './services/background-work.js';
import type { SpeechRecognizer, SpeechStream } from './services/transcriptions/ports.js';
import type { AdaptationBlobs, CorrectedDictation, MeasureRecognizer } from './services/voice-adaptation/ports.js';
import { createVoiceAdaptationService, voiceAdaptationJobs, type VoiceAdaptationService } from './services/voice-adaptation/voice-adaptation-service.js';
import { clinicalArtefacts, clinicalModelStatus, createPocketsphinxRecognizer } from './engines/speech/pocketsphinx/index.js';
import { createSphinxtrainAdapter } from './engines/speech/pocketsphinx/adaptation/sphinxtrain.js';
import { materializeModel } from './engines/speech/pocketsphinx/adaptation/model-folder.js';
import { createFfmpegDecoder } from './engines/audio/index.js';

const DEBIAN_MODEL = '/usr/share/pocketsphinx/model/en-us';
/** The base acoustic model every adapted one starts from. */
const BASE_HMM = join(DEBIAN_MODEL, 'en-us');

export interface ComposedVoiceAdaptation {
  service: VoiceAdaptationService;
  jobs: ServiceJob[];
  /** The recogniser of an engine name for an account: its adapted pocketsphinx where it has one turned on. */
  recognizerFor(engine: string | undefined, accountId: string | undefined): Promise<SpeechRecognizer>;
  /** Unloads every adapted recogniser and removes their folders. */
  close(): Promise<void>;
}

type Blobs = ComposedStores['blobs'];

function adaptationBlobs(config: ClindocConfig, blobs: Blobs): AdaptationBlobs {
  const decoder = createFfmpegDecoder({ ffmpegPath: config.ffmpegPath, ffprobePath: config.ffprobePath, timeoutMs: config.ffmpegTimeoutMs, maxSeconds: config.maxAudioSeconds });
  return {
    writeStream: async (source, maxBytes) => (await blobs.write(source, maxBytes)).key,
    write: async (bytes) => (await blobs.write(Readable.from([bytes]), bytes.length + 1)).key,
    read: (key) => blobs.withPlaintext(key, (path) => readFile(path)),
    delete: (key) => blobs.delete(key),
    decode: (key) => blobs.withPlaintext(key, async (path) => {
      const audio = await decoder.decodeFile(path, { sampleRate: 16000 });
      return { pcm: audio.channels[0] ?? new Int16Array(0), durationSec: audio.durationSec };
    }),
  };
}

/**
 * The account's dictation with its final text: a visit with one recording (a batch transcription,
 * whose audio is kept) and the visit's transcript as the physician left it. Live dictation keeps no
 * audio, so it cannot be used. Visits with several recordings are left out: which words belong to
 * which recording is not known.
 */
function correctedDictation(stores: ComposedStores['stores']): CorrectedDictation {
  return async (accountId) => {
    const found: Array<{ audioKey: string; text: string }> = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const visits = await stores.visits.list(accountId, 100, cursor);
      for (const v of visits.items) {
        const [recording, ...more] = v.content.recordings;
        if (!recording || more.length || !v.content.transcript.trim()) continue;
        const t = await stores.transcriptions.get(accountId, recording.transcriptionId);
        if (t?.status === 'completed' && t.audioBlob) found.push({ audioKey: t.audioBlob, text: v.content.transcript });
      }
      if (!visits.nextCursor) break;
      cursor = visits.nextCursor;
    }
    return found;
  };
}

interface Loaded {
  blob: string;
  recognizer: Promise<SpeechRecognizer & { close(): Promise<void> }>;
  users: number;
  retired: boolean;
  idle?: NodeJS.Timeout;
}

/** A stream that says when it closes. */
function closingStream(stream: SpeechStream, closed: () => void): SpeechStream {
  return {
    accept: stream.accept.bind(stream), partial: stream.partial.bind(stream), finalizeUtterance: stream.finalizeUtterance.bind(stream),
    ...(stream.acceptAsync ? { acceptAsync: stream.acceptAsync.bind(stream) } : {}),
    ...(stream.finalizeUtteranceAsync ? { finalizeUtteranceAsync: stream.finalizeUtteranceAsync.bind(stream) } : {}),
    close: () => {
      stream.close();
      closed();
    },
  };
}

/**
 * The adapted recognisers loaded now, one per account. Each handle counts the work running on it,
 * so a recogniser retired (model changed, turned off, deleted, idle) closes only once that work is done.
 */
function adaptedRecognizers(logger: Logger, idleMs: number) {
  const loaded = new Map<string, Loaded>();
  const release = (entry: Loaded): void => {
    if (!entry.retired || entry.users > 0) return;
    void entry.recognizer.then((r) => r.close()).catch((err: unknown) => logger.warn({ errName: (err as Error)?.name }, 'an adapted recogniser could not be closed'));
  };
  const retire = (accountId: string): void => {
    const entry = loaded.get(accountId);
    if (!entry) return;
    loaded.delete(accountId);
    clearTimeout(entry.idle);
    entry.retired = true;
    release(entry);
  };
  const handle = (accountId: string, entry: Loaded, r: SpeechRecognizer): SpeechRecognizer => {
    const start = (): (() => void) => {
      entry.users += 1;
      clearTimeout(entry.idle);
      let done = false;
      return () => {
        if (done) return;
        done = true;
        entry.users -= 1;
        if (entry.users === 0 && !entry.retired) entry.idle = setTimeout(() => retire(accountId), idleMs).unref();
        release(entry);
      };
    };
    return {
      name: r.name, sampleRate: r.sampleRate, ...(r.model ? { model: r.model } : {}),
      async transcribe(pcm, options) {
        const end = start();
        try {
          return await r.transcribe(pcm, options);
        } finally {
          end();
        }
      },
      createStream(options): SpeechStream {
        const end = start();
        try {
          return closingStream(r.createStream!(options), end);
        } catch (err) {
          end();
          throw err;
        }
      },
    };
  };
  return {
    retire,
    /** The account's recogniser on model `blob`, loaded by `load` when it is not loaded yet (or was retired while loading). */
    async get(accountId: string, blob: string, load: () => Loaded['recognizer']): Promise<SpeechRecognizer> {
      for (;;) {
        if (loaded.get(accountId)?.blob !== blob) retire(accountId);
        let entry = loaded.get(accountId);
        if (!entry) {
          entry = { blob, recognizer: load(), users: 0, retired: false };
          loaded.set(accountId, entry);
          entry.recognizer.catch(() => retire(accountId));
        }
        const recognizer = await entry.recognizer;
        if (!entry.retired) return handle(accountId, entry, recognizer);
      }
    },
    close(): void {
      for (const accountId of [...loaded.keys()]) retire(accountId);
    },
  };
}

/** The adapter's dictionary: the one the recogniser decodes with, so every word it knows can be aligned. */
function dictionaryOf(files: { medical: boolean; resourcesDir: string }): { dictPath: string; baseModel: string } {
  const clinical = clinicalModelStatus(files);
  return {
    dictPath: (clinical.loaded ? clinicalArtefacts(clinical.path!)?.dict : undefined) ?? join(DEBIAN_MODEL, 'cmudict-en-us.dict'),
    baseModel: clinical.loaded ? 'en-us + clinical' : 'en-us',
  };
}

export function composeVoiceAdaptation(config: ClindocConfig, logger: Logger, deps: {
  storage: Pick<ComposedStores, 'stores' | 'blobs'>;
  engines: Pick<ComposedEngines, 'recognizer' | 'batchVad'>;
  enqueue: Enqueue;
}): ComposedVoiceAdaptation {
  const files = { medical: config.asrMedical, resourcesDir: config.resources.asrDir };
  const { dictPath, baseModel } = dictionaryOf(files);
  const blobs = adaptationBlobs(config, deps.storage.blobs);
  /** A pocketsphinx recogniser on a packed adapted model; closing it removes its folder. */
  const build = (model: Buffer) => {
    const folder = materializeModel(model, BASE_HMM);
    const inner = createPocketsphinxRecognizer({ ...pocketsphinxOptions(config, { pocketsphinxFiles: files, batchVad: deps.engines.batchVad }), hmmDir: folder.dir });
    return {
      name: inner.name, sampleRate: inner.sampleRate, model: `${baseModel}, adapted to the account's voice`,
      transcribe: inner.transcribe.bind(inner), createStream: inner.createStream.bind(inner),
      async close() {
        try {
          await inner.close();
        } finally {
          folder.remove();
        }
      },
    };
  };
  const measure: MeasureRecognizer = async (model) => {
    if (!model) {
      const base = deps.engines.recognizer('pocketsphinx');
      return { transcribe: async (pcm) => (await base.transcribe(pcm, { language: 'en' })).text, close: async () => undefined };
    }
    const adapted = build(model);
    return { transcribe: async (pcm) => (await adapted.transcribe(pcm, { language: 'en' })).text, close: () => adapted.close() };
  };
  const loaded = adaptedRecognizers(logger, config.models.idleSeconds * 1000);
  const retire = loaded.retire;

  const service = createVoiceAdaptationService({
    store: deps.storage.stores.voiceAdaptation, blobs, enqueue: deps.enqueue, maxUploadBytes: config.maxAudioBytes, recognize: measure,
    adapter: createSphinxtrainAdapter({ modelDir: DEBIAN_MODEL, dictPath }), correctedDictation: correctedDictation(deps.storage.stores),
    modelChanged: retire,
  });

  return {
    service,
    jobs: voiceAdaptationJobs(service),
    async recognizerFor(engine = config.asrEngine, accountId) {
      if (engine !== 'pocketsphinx' || !accountId) return deps.engines.recognizer(engine);
      const blob = await service.activeModel(accountId);
      if (!blob) {
        retire(accountId);
        return deps.engines.recognizer(engine);
      }
      try {
        return await loaded.get(accountId, blob, async () => build(await blobs.read(blob)));
      } catch (err) {
        // A model that cannot be read or loaded: this account's recognition goes on with the general model.
        logger.warn({ errName: (err as Error)?.name }, 'an adapted acoustic model could not be loaded: the general model recognises instead');
        return deps.engines.recognizer(engine);
      }
    },
    async close() {
      loaded.close();
    },
  };
}
