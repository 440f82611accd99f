/**
 * One native pocketsphinx decoder: configuration, utterance control, hypothesis with word times
 * and posterior confidences, cepstral-mean (CMN) access, and release. Callers own serialisation:
 * a decoder must never run two native calls at once, and the `...Async` calls (koffi on libuv's
 * thread pool) count as running until their promise settles.
 */
import { DomainError } from '../../../services/errors.js';
import type { RecognitionResult, RecognizedWord } from '../../../services/transcriptions/ports.js';
import { NGRAM_AUTO, type Ptr, type SphinxNative } from './native.js';
import { decoderArgs, type DecoderConfig } from './decoder-config.js';
import type { NativeSlots } from './native-slots.js';
import type { WorkClass } from '../../../services/transcriptions/work-scheduler.js';

export { tuningArgs, type DecoderConfig, type LmSpec, type SearchPasses, type SearchPruning, type SearchTuning } from './decoder-config.js';

/** Seconds per pocketsphinx frame (the en-us model's 100 frames per second). */
export const FRAME_SEC = 0.01;

export interface NativeDecoder {
  readonly ps: Ptr;
  startUtt(): void;
  endUtt(): void;
  process(pcm: Int16Array, fullUtt?: boolean): void;
  /** `process` on libuv's thread pool: the event loop (and other sessions) go on meanwhile. */
  processAsync(pcm: Int16Array, fullUtt?: boolean): Promise<void>;
  /** `endUtt` on libuv's thread pool. */
  endUttAsync(): Promise<void>;
  /** Words of the current (or just ended) utterance, `offsetSec` added to times. */
  result(offsetSec: number, withConfidence: boolean): RecognitionResult;
  /** `result` with the segment search (lattice and posteriors after an utterance) off the event loop. */
  resultAsync(offsetSec: number, withConfidence: boolean): Promise<RecognitionResult>;
  /** Current CMN mean vector, or null when the struct layout could not be verified. */
  getCmn(): Float32Array | null;
  setCmn(mean: Float32Array): boolean;
  /** Sum and frame count of a clip's cepstra through the decoder's own front end (seeds CMN). */
  cepstrumSum(pcm: Int16Array): { sum: Float64Array; frames: number } | null;
  /**
   * The cepstral mean pocketsphinx's whole-utterance normalisation would use for `pcm` (frames of
   * zero energy left out, as sphinxbase does), and how many such frames there are; null when the
   * decoder's CMN cannot be set.
   */
  utteranceMean(pcm: Int16Array): { mean: Float32Array; zeroEnergyFrames: number } | null;
  free(): void;
}

/** Filler and sentence tokens pocketsphinx emits that are not words. */
function isFiller(word: string): boolean {
  return word.startsWith('<') || word.startsWith('[') || word.startsWith('+') || word === '';
}

/** `word(2)` is the second pronunciation of `word`. */
export function baseWord(word: string): string {
  const i = word.indexOf('(');
  return i > 0 ? word.slice(0, i) : word;
}

/** Parses `-cmninit` from the acoustic model's feat.params, used to verify the CMN pointer. */
export function parseCmnInit(featParams: string): Float32Array | null {
  const m = /^-cmninit\s+(\S+)/m.exec(featParams);
  if (!m) return null;
  const v = m[1]!.split(',').map(Number);
  return v.every(Number.isFinite) ? Float32Array.from(v) : null;
}

// Offset of `cmn_struct` inside sphinxbase 5prealpha's feat_t on LP64 (checked at run time
// against feat.params' -cmninit before it is trusted).
const FEAT_CMN_STRUCT_OFFSET = 88;

/** Initialises pocketsphinx with `cfg` (and its language-model mixture); throws `engine_unavailable`. */
function initDecoder(native: SphinxNative, cfg: DecoderConfig): Ptr {
  const argv = decoderArgs(cfg);
  const config = native.cmd_ln_parse_r(null, native.ps_args(), argv.length, argv, 1);
  if (!config) throw new DomainError('engine_unavailable', 'pocketsphinx rejected its configuration');
  const ps = native.ps_init(config);
  native.cmd_ln_free_r(config); // ps_init holds its own reference
  if (!ps) throw new DomainError('engine_unavailable', 'pocketsphinx could not load its model');
  if (!cfg.mixPath) return ps;
  const psConfig = native.ps_get_config(ps);
  const lmath = native.ps_get_logmath(ps);
  const general = native.ngram_model_read(psConfig, cfg.lmPath, NGRAM_AUTO, lmath);
  const clinical = native.ngram_model_read(psConfig, cfg.mixPath, NGRAM_AUTO, lmath);
  if (!general || !clinical) {
    native.ps_free(ps);
    throw new DomainError('engine_unavailable', 'pocketsphinx could not load the clinical language model');
  }
  const w = cfg.mixWeight ?? 0.5;
  const set = native.ngram_model_set_init(psConfig, [general, clinical], ['general', 'clinical'], Float32Array.from([1 - w, w]), 2);
  // The set keeps its own references; the search takes one on the set.
  native.ps_set_lm(ps, 'mixed', set);
  native.ps_set_search(ps, 'mixed');
  native.ngram_model_free(set);
  return ps;
}

/** The live CMN struct, once its values match the model's `-cmninit` (else null: CMN is left alone). */
function verifiedCmnPointer(native: SphinxNative, ps: Ptr, expectedCmn: Float32Array | null): Ptr | null {
  if (!expectedCmn) return null;
  const feat = native.ps_get_feat(ps);
  const candidate = feat ? native.readPointer(feat, FEAT_CMN_STRUCT_OFFSET) : null;
  if (!candidate) return null;
  const v = new Float32Array(expectedCmn.length);
  native.cmn_live_get(candidate, v);
  return v.every((x, i) => Math.abs(x - expectedCmn[i]!) < 0.01) ? candidate : null;
}

/** Walks a segment iterator into words; the iterator is consumed (and freed) by the walk. */
function walkSegments(native: SphinxNative, lmath: Ptr, first: Ptr, offsetSec: number, withConfidence: boolean): RecognitionResult {
  const words: RecognizedWord[] = [];
  for (let seg = first; seg; seg = native.ps_seg_next(seg)) {
    const raw = native.ps_seg_word(seg);
    if (isFiller(raw)) continue;
    const sf = [0];
    const ef = [0];
    native.ps_seg_frames(seg, sf, ef);
    let confidence = 0;
    if (withConfidence) {
      const post = native.ps_seg_prob(seg, [0], [0], [0]);
      confidence = Math.max(0, Math.min(1, native.logmath_exp(lmath, post)));
    }
    words.push({
      word: baseWord(raw).toLowerCase(),
      start: round3(offsetSec + Math.max(0, sf[0]!) * FRAME_SEC),
      end: round3(offsetSec + Math.max(0, ef[0]! + 1) * FRAME_SEC),
      confidence: round3(confidence),
    });
  }
  const text = words.map((w) => w.word).join(' ');
  const confidence = words.length ? round3(words.reduce((s, w) => s + w.confidence, 0) / words.length) : 0;
  return { text, words, confidence };
}

/**
 * Creates a decoder; throws `engine_unavailable` if pocketsphinx rejects the configuration.
 * `slots`, when given, caps the async calls running at once across the decoders sharing it, and
 * `cls` says which class of work this decoder's calls are (live sessions go before batch).
 */
export function createNativeDecoder(
  native: SphinxNative,
  cfg: DecoderConfig,
  expectedCmn: Float32Array | null,
  slots?: NativeSlots,
  cls: WorkClass = 'live',
): NativeDecoder {
  const offThread = <T>(fn: () => Promise<T>): Promise<T> => (slots ? slots.run(fn, cls) : fn());
  const ps = initDecoder(native, cfg);
  const lmath = native.ps_get_logmath(ps);
  const cmnPtr = verifiedCmnPointer(native, ps, expectedCmn);
  let freed = false;
  let fe: Ptr | null = null;
  const walk = (first: Ptr, offsetSec: number, withConfidence: boolean): RecognitionResult => walkSegments(native, lmath, first, offsetSec, withConfidence);

  return {
    ps,
    startUtt() {
      // Segment frames count from the start of the stream, which this libpocketsphinx never
      // resets on its own: restarting it per utterance makes word times utterance-relative
      // (a reused decoder, or a session's later utterances, would otherwise drift). The live
      // cepstral mean lives in the feature module and survives the restart.
      native.ps_start_stream(ps);
      if (native.ps_start_utt(ps) < 0) throw new DomainError('internal', 'pocketsphinx could not start an utterance');
    },
    endUtt() {
      native.ps_end_utt(ps);
    },
    async endUttAsync() {
      await offThread(() => native.endUttAsync(ps));
    },
    process(pcm, fullUtt = false) {
      if (pcm.length === 0) return;
      if (native.ps_process_raw(ps, pcm, pcm.length, 0, fullUtt ? 1 : 0) < 0) {
        throw new DomainError('internal', 'pocketsphinx failed to process audio');
      }
    },
    async processAsync(pcm, fullUtt = false) {
      if (pcm.length === 0) return;
      if ((await offThread(() => native.processRawAsync(ps, pcm, fullUtt))) < 0) {
        throw new DomainError('internal', 'pocketsphinx failed to process audio');
      }
    },
    result(offsetSec, withConfidence) {
      return walk(native.ps_seg_iter(ps), offsetSec, withConfidence);
    },
    async resultAsync(offsetSec, withConfidence) {
      return walk(await offThread(() => native.segIterAsync(ps)), offsetSec, withConfidence);
    },
    getCmn() {
      if (!cmnPtr || !expectedCmn) return null;
      const v = new Float32Array(expectedCmn.length);
      native.cmn_live_get(cmnPtr, v);
      return v;
    },
    setCmn(mean) {
      if (!cmnPtr) return false;
      native.cmn_live_set(cmnPtr, mean);
      return true;
    },
    cepstrumSum(pcm) {
      if (!expectedCmn || !cmnPtr) return null;
      fe ??= native.fe_init_auto_r(native.ps_get_config(ps));
      if (!fe) return null;
      const rows = native.cepstra(fe, pcm, expectedCmn.length);
      const sum = new Float64Array(expectedCmn.length);
      for (const r of rows) for (let j = 0; j < sum.length; j++) sum[j] = sum[j]! + r[j]!;
      return { sum, frames: rows.length };
    },
    utteranceMean(pcm) {
      if (!expectedCmn || !cmnPtr) return null;
      fe ??= native.fe_init_auto_r(native.ps_get_config(ps));
      if (!fe) return null;
      const sum = new Float64Array(expectedCmn.length);
      let kept = 0;
      let zeroEnergyFrames = 0;
      // A front end keeps its noise estimate, the samples short of a frame and its pre-emphasis
      // for the next call: right for one stream's consecutive audio, wrong for separate
      // utterances (the mean would depend on which utterance this decoder had before). The
      // decoder's own front end starts afresh the same way (startUtt).
      native.fe_start_stream(fe);
      native.fe_start_utt(fe);
      for (const r of native.cepstra(fe, pcm, expectedCmn.length)) {
        // c0 is log energy: below 0 only for (near) digital silence, which sphinxbase's CMN skips.
        if (r[0]! < 0) {
          zeroEnergyFrames++;
          continue;
        }
        kept++;
        for (let j = 0; j < sum.length; j++) sum[j] = sum[j]! + r[j]!;
      }
      if (kept === 0) return null;
      return { mean: Float32Array.from(sum, (v) => v / kept), zeroEnergyFrames };
    },
    free() {
      if (freed) return;
      freed = true;
      if (fe) native.fe_free(fe);
      native.ps_free(ps);
    },
  };
}

export function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
