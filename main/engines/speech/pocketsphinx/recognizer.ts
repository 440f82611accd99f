/**
 * The embedded speech engine: pocketsphinx (Debian's en-us model) through koffi.
 *
 * Batch: the clip is cut into utterances (voice activity when a detector is given, otherwise at
 * the quietest points), decoded in parallel on one batch decoder per recogniser thread and
 * stitched back in order (batch-decoding.ts), in short calls on libuv's thread pool so the event
 * loop stays free and live sessions go first (native-slots.ts, work-scheduler.ts).
 * Streaming: one decoder per session (idle decoders are pooled). Its live CMN is seeded from the
 * session's own first audio, which removes the cold-first-utterance pitfall of a fresh decoder.
 * Stream decoders are tuned for many live sessions on few cores (docs/speech.md, "Live search
 * settings"): no flat-lexicon second pass (it re-searches the whole utterance when it ends, most
 * of a final's cost) and a capped forward search (about half the CPU per second of audio), for
 * no accuracy loss we could measure. Batch decoders have their own settings, tuned on the WER
 * sets with scripts/tune-asr.ts (docs/speech.md, "Batch speed").
 */
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { DomainError, engineUnavailable, invalidRequest } from '../../../services/errors.js';
import type {
  RecognitionOptions,
  RecognitionResult,
  SpeechRecognizer,
  SpeechStream,
  VoiceActivityDetector,
} from '../../../services/transcriptions/ports.js';
import { createBatchDecoding, type BatchDecoding } from './batch-decoding.js';
import {
  createNativeDecoder, parseCmnInit, type DecoderConfig, type NativeDecoder, type SearchPasses, type SearchPruning, type SearchTuning,
} from './decoder.js';
import { loadSphinx, type SphinxLibraries, type SphinxNative } from './native.js';
import { createNativeSlots } from './native-slots.js';
import { createPocketsphinxStream } from './stream.js';

export interface PocketsphinxOptions {
  /** Model folder with `en-us/`, `en-us.lm.bin`, `cmudict-en-us.dict`. Default Debian's `/usr/share/pocketsphinx/model/en-us`. */
  modelDir?: string;
  /**
   * Acoustic model folder instead of the model folder's `en-us/`: an account's voice-adapted model
   * (main/engines/speech/pocketsphinx/adaptation/), decrypted to a private folder while it is in use.
   */
  hmmDir?: string;
  /** Pronunciation dictionary. Default: the clinical dictionary when `medical`, else the model's cmudict. */
  dictPath?: string;
  /** General language model. Default: the model folder's `en-us.lm.bin`. */
  lmPath?: string;
  /** Interpolate the clinical LM and use the clinical dictionary. Config `CLINDOC_ASR_MEDICAL`; default true. */
  medical?: boolean;
  /**
   * Folder with `clinical.lm.bin` (or `clinical.lm`) and `clinical.dict`, chosen by the caller
   * (composition passes the bundled `resources/asr` found by main/app-files.ts). Without it, or
   * when the files are absent, the recogniser uses the general model: see {@link clinicalModelStatus}.
   */
  resourcesDir?: string;
  /**
   * Weight of the clinical LM in the mixture, 0 to 1. Config `CLINDOC_ASR_CLINICAL_WEIGHT`, default 0.1:
   * chosen with `scripts/eval-wer.ts --sweep` (batch WER, real / synthetic clinical: 0 -> 21.9% / 91.5%,
   * 0.1 -> 26.3% / 80.8%, 0.2 -> 28.1% / 81.9%, 0.5 -> 30.7% / 83.6%).
   */
  clinicalWeight?: number;
  /** Detector used to cut long clips into utterances. Without one, cuts fall at the quietest points. */
  vad?: VoiceActivityDetector;
  /** Longest utterance decoded in one piece, seconds. Default 20. */
  maxUtteranceSec?: number;
  /** Seconds of a session's first audio held back to seed CMN before decoding starts. Default 0.3. */
  warmupSec?: number;
  /** Idle stream decoders kept for reuse (each ~90 MB). Default 2. */
  poolSize?: number;
  /**
   * Search of stream decoders: `fwdflat` (default off), `maxHmmPerFrame` (default 8000; 0 leaves
   * pocketsphinx's own 30000).
   * Default `{fwdflat: false, bestpath: true, maxHmmPerFrame: 8000}`, words per frame unlimited;
   * the best path stays on because word confidences come from it. `keepSilence` (default false):
   * every frame searched, as in batch decoding, so words get true times; pocketsphinx's own
   * silence removal stamps them seconds late after a pause (decoder-config.ts), but live audio
   * reaches the decoder whole, silences included, and searching them costs about half as much CPU
   * again on a clip that is 43% silence (docs/speech.md, "Word times in short calls").
   */
  streamSearch?: Partial<SearchPasses & SearchPruning> & { keepSilence?: boolean };
  /**
   * Search of batch decoders: passes, pruning and tuning (beams, lookahead, frame skip...).
   * Default {@link DEFAULT_BATCH_SEARCH}.
   */
  batchSearch?: BatchSearch;
  /** Utterances of batch clips decoded at once (one decoder each, ~90 MB). Default `threads`. */
  batchParallel?: number;
  /**
   * Audio per native call in batch decoding, seconds: how long a live call may wait behind a
   * batch call. 0 decodes each utterance in one call. Default 1.
   */
  batchChunkSec?: number;
  /**
   * Recogniser calls running at once on libuv's thread pool, all sessions and batch together.
   * Default the number of CPU cores, at most 3: below libuv's pool of
   * 4 (UV_THREADPOOL_SIZE), so file and crypto work still finds a pool thread.
   */
  threads?: number;
  /**
   * Live calls before batch calls, and a thread kept for live sessions while batch runs
   * (work-scheduler.ts). Default true; false makes every call wait its turn in call order
   * (for benchmarks comparing the two).
   */
  liveFirst?: boolean;
  /** Native library names or paths; default Debian's. */
  libraries?: SphinxLibraries;
}

/** The live search settings: options, then environment, then defaults. */
function streamConfig(o: PocketsphinxOptions['streamSearch'] = {}): Pick<DecoderConfig, 'passes' | 'pruning' | 'keepSilence'> {
  const maxHmm = o.maxHmmPerFrame ?? 8000;
  const passes = { fwdflat: o.fwdflat ?? false, bestpath: o.bestpath ?? true };
  const keepSilence = o.keepSilence ?? false;
  if (!(maxHmm > 0)) return { passes, keepSilence };
  const words = o.maxWordsPerFrame;
  return { passes, keepSilence, pruning: { maxHmmPerFrame: Math.round(maxHmm), ...(words && words > 0 ? { maxWordsPerFrame: words } : {}) } };
}

/** A snapshot of the recogniser's thread pool. */
export interface RecognizerScheduling {
  threads: number;
  active: number;
  waiting: number;
  started: Readonly<Record<'live' | 'batch', number>>;
}

/** Settings of batch decoders. */
export type BatchSearch = Partial<SearchPasses & SearchPruning> & SearchTuning;

/**
 * Batch search settings, chosen with scripts/tune-asr.ts (docs/speech.md, "Batch speed"): no
 * flat-lexicon second pass. On the WER sets (clinical LM) it kept real-speech WER at 26.3%, took
 * synthetic clinical dictation from 68.9% to 65.0% and a third off the CPU per audio second
 * (0.30 -> 0.20). `-maxhmmpf 5000` with it cost a real-speech word; lower `-lw` gained real
 * words but lost clinical ones and ran slower.
 */
export const DEFAULT_BATCH_SEARCH: BatchSearch = { fwdflat: false };

/** Batch settings as the decoder takes them: only what differs from pocketsphinx's defaults. */
function batchConfig(o: BatchSearch): Pick<DecoderConfig, 'passes' | 'pruning' | 'tuning'> {
  const { fwdflat, bestpath, maxHmmPerFrame, maxWordsPerFrame, ...tuning } = o;
  return {
    ...(fwdflat !== undefined || bestpath !== undefined ? { passes: { fwdflat: fwdflat ?? true, bestpath: bestpath ?? true } } : {}),
    ...(maxHmmPerFrame || maxWordsPerFrame ? { pruning: { maxHmmPerFrame: maxHmmPerFrame || 30000, ...(maxWordsPerFrame ? { maxWordsPerFrame } : {}) } } : {}),
    tuning,
  };
}

const DEBIAN_MODEL = '/usr/share/pocketsphinx/model/en-us';

/** Measured default weight of the clinical LM (README "Speech"); configuration may override it. */
const DEFAULT_CLINICAL_WEIGHT = 0.1;

function assertEnglish(options: RecognitionOptions): void {
  const lang = (options.language ?? 'en').toLowerCase();
  if (lang !== 'en' && !lang.startsWith('en-')) {
    throw invalidRequest(`language ${options.language} is not supported by the pocketsphinx engine (English only)`);
  }
}

/** Paths of the clinical artefacts, or null when they have not been built. */
export function clinicalArtefacts(resourcesDir: string): { lm: string; dict: string } | null {
  const lmBin = join(resourcesDir, 'clinical.lm.bin');
  const lm = existsSync(lmBin) ? lmBin : join(resourcesDir, 'clinical.lm');
  const dict = join(resourcesDir, 'clinical.dict');
  return existsSync(lm) && existsSync(dict) ? { lm, dict } : null;
}

/** Whether the embedded recogniser mixes in the clinical language model, and if not, why. */
export interface ClinicalModelStatus {
  /** True when recognition uses the clinical language model and dictionary. */
  loaded: boolean;
  /** The folder the model is loaded from, or where it was looked for. */
  path?: string;
  /** Why it is not loaded: `disabled` by configuration, or `missing` from `path`. */
  reason?: 'disabled' | 'missing';
}

/**
 * What a recogniser created with these options will use. A missing model is never an error: the
 * general model transcribes instead, and the caller warns once at start-up.
 */
export function clinicalModelStatus(options: Pick<PocketsphinxOptions, 'medical' | 'resourcesDir'>): ClinicalModelStatus {
  const path = options.resourcesDir;
  if (options.medical === false) return { loaded: false, ...(path ? { path } : {}), reason: 'disabled' };
  if (!path || !clinicalArtefacts(path)) return { loaded: false, ...(path ? { path } : {}), reason: 'missing' };
  return { loaded: true, path };
}

/**
 * Creates the embedded recogniser (name `pocketsphinx`). Native libraries and models load on first
 * use; a missing installation surfaces as DomainError `engine_unavailable`.
 */
export function createPocketsphinxRecognizer(options: PocketsphinxOptions = {}): SpeechRecognizer & {
  createStream(options: RecognitionOptions): SpeechStream;
  close(): Promise<void>;
  /** Decided once, at creation: the files it found then are the ones it loads. */
  readonly clinicalModel: ClinicalModelStatus;
  /** The recogniser threads now: calls running and waiting, calls started per class (benchmarks, tests). */
  readonly scheduling: RecognizerScheduling;
} {
  const modelDir = options.modelDir ?? DEBIAN_MODEL;
  const clinicalModel = clinicalModelStatus(options);
  const clinical = clinicalModel.loaded ? clinicalArtefacts(clinicalModel.path!) : null;
  const maxUtteranceSec = options.maxUtteranceSec ?? 20;
  const poolSize = options.poolSize ?? 2;
  const streamSearch = streamConfig(options.streamSearch);
  const threads = Math.max(1, options.threads ?? Math.min(availableParallelism(), 3));
  const slots = createNativeSlots(threads, options.liveFirst === false ? { batchSlotsWhileLive: threads, maxBatchWaitMs: 0 } : {});
  const batchSearch = batchConfig(options.batchSearch ?? DEFAULT_BATCH_SEARCH);
  const sampleRate = 16000;

  let native: SphinxNative | null = null;
  let config: DecoderConfig | null = null;
  let expectedCmn: Float32Array | null = null;
  let batch: BatchDecoding | null = null;
  const idle: NativeDecoder[] = [];
  const liveStreams = new Set<SpeechStream>();
  let closed = false;

  function setup(): { native: SphinxNative; config: DecoderConfig } {
    if (closed) throw engineUnavailable('the pocketsphinx engine has been closed');
    if (native && config) return { native, config };
    const hmmDir = options.hmmDir ?? join(modelDir, 'en-us');
    if (!existsSync(join(hmmDir, 'mdef'))) {
      throw engineUnavailable('the pocketsphinx en-us model is not installed (Debian package pocketsphinx-en-us)');
    }
    const featParams = join(hmmDir, 'feat.params');
    expectedCmn = existsSync(featParams) ? parseCmnInit(readFileSync(featParams, 'utf8')) : null;
    config = {
      hmmDir,
      lmPath: options.lmPath ?? join(modelDir, 'en-us.lm.bin'),
      dictPath: options.dictPath ?? (clinical ? clinical.dict : join(modelDir, 'cmudict-en-us.dict')),
      sampleRate,
      ...(clinical ? { mixPath: clinical.lm, mixWeight: options.clinicalWeight ?? DEFAULT_CLINICAL_WEIGHT } : {}),
    };
    native = loadSphinx(options.libraries);
    return { native, config };
  }

  function newDecoder(search: Pick<DecoderConfig, 'passes' | 'pruning' | 'tuning' | 'keepSilence'>, cls: 'live' | 'batch'): NativeDecoder {
    const s = setup();
    return createNativeDecoder(s.native, { ...s.config, ...search }, expectedCmn, slots, cls);
  }

  function batchDecoding(): BatchDecoding {
    setup(); // a missing installation fails the call, not a decoder deep inside it
    batch ??= createBatchDecoding({
      // Every frame searched: pocketsphinx's own silence removal stamps chunked words late (decoder-config.ts).
      newDecoder: () => newDecoder({ ...batchSearch, keepSilence: true }, 'batch'),
      parallel: options.batchParallel ?? threads,
      sampleRate,
      maxUtteranceSec,
      chunkSec: options.batchChunkSec ?? 1,
      ...(options.vad ? { vad: options.vad } : {}),
    });
    return batch;
  }

  return {
    name: 'pocketsphinx',
    sampleRate,
    clinicalModel,
    get scheduling() {
      return { threads, active: slots.active, waiting: slots.waiting, started: slots.started };
    },
    transcribe(pcm, opts) {
      try {
        assertEnglish(opts);
      } catch (err) {
        return Promise.reject(err);
      }
      let run: Promise<RecognitionResult>;
      try {
        run = batchDecoding().decodeClip(pcm);
      } catch (err) {
        run = Promise.reject(err);
      }
      return run.catch((err: unknown) => {
        if (err instanceof DomainError) throw err;
        throw new DomainError('internal', 'speech recognition failed', { cause: err });
      });
    },
    createStream(opts) {
      assertEnglish(opts);
      const dec = idle.pop() ?? newDecoder(streamSearch, 'live');
      const leave = slots.openLive();
      const stream = createPocketsphinxStream(dec, {
        sampleRate,
        warmupSec: options.warmupSec ?? 0.3,
        release: (reusable) => {
          leave();
          liveStreams.delete(stream);
          if (reusable && !closed && idle.length < poolSize) idle.push(dec);
          else dec.free();
        },
      });
      liveStreams.add(stream);
      return stream;
    },
    async close() {
      closed = true;
      await batch?.close();
      batch = null;
      for (const d of idle.splice(0)) d.free();
      for (const s of [...liveStreams]) s.close();
    },
  };
}
