/**
 * koffi declarations for Debian's libpocketsphinx3 / libsphinxbase3 (0.8+5prealpha). Only the
 * handful of C functions the recogniser needs are bound; pointers stay opaque `void *`.
 * The 5prealpha signatures differ from 0.8's (no utterance id in ps_get_hyp, no score in
 * ps_seg_iter); binding the wrong one corrupts the stack, so they are spelled out here.
 */
import koffi, { type LibraryHandle } from 'koffi';
import { engineUnavailable } from '../../../services/errors.js';

/** Opaque native pointer as koffi hands it back. */
export type Ptr = unknown;

export interface SphinxNative {
  ps_args(): Ptr;
  cmd_ln_parse_r(inout: Ptr, defn: Ptr, argc: number, argv: string[], strict: number): Ptr;
  cmd_ln_free_r(config: Ptr): number;
  ps_init(config: Ptr): Ptr;
  ps_free(ps: Ptr): number;
  /** Restarts the stream clock: segment frames of the next utterance count from its own start. */
  ps_start_stream(ps: Ptr): number;
  ps_start_utt(ps: Ptr): number;
  ps_end_utt(ps: Ptr): number;
  ps_process_raw(ps: Ptr, data: Int16Array, n: number, noSearch: number, fullUtt: number): number;
  ps_get_hyp(ps: Ptr, outScore: number[]): string | null;
  ps_seg_iter(ps: Ptr): Ptr;
  ps_seg_next(seg: Ptr): Ptr;
  ps_seg_word(seg: Ptr): string;
  ps_seg_frames(seg: Ptr, sf: number[], ef: number[]): void;
  ps_seg_prob(seg: Ptr, ascr: number[], lscr: number[], lback: number[]): number;
  ps_seg_free(seg: Ptr): void;
  ps_get_n_frames(ps: Ptr): number;
  ps_get_logmath(ps: Ptr): Ptr;
  ps_get_feat(ps: Ptr): Ptr;
  ps_get_config(ps: Ptr): Ptr;
  ps_set_lm(ps: Ptr, name: string, lm: Ptr): number;
  ps_set_search(ps: Ptr, name: string): number;
  logmath_exp(lmath: Ptr, logp: number): number;
  ngram_model_read(config: Ptr, path: string, type: number, lmath: Ptr): Ptr;
  ngram_model_write(model: Ptr, path: string, type: number): number;
  ngram_model_free(model: Ptr): number;
  ngram_model_set_init(config: Ptr, models: Ptr[], names: string[], weights: Float32Array, n: number): Ptr;
  cmn_live_get(cmn: Ptr, vec: Float32Array): void;
  cmn_live_set(cmn: Ptr, vec: Float32Array): void;
  fe_init_auto_r(config: Ptr): Ptr;
  fe_free(fe: Ptr): number;
  /** Starts a new stream in a front end: forgets its noise estimate (spectral noise removal). */
  fe_start_stream(fe: Ptr): void;
  /** Starts a new utterance in a front end: forgets the samples and pre-emphasis left from the last one. */
  fe_start_utt(fe: Ptr): number;
  /** Cepstra (frames x 13) of a clip through a front end configured like the decoder's. */
  cepstra(fe: Ptr, pcm: Int16Array, veclen: number): Float32Array[];
  /** Reads a pointer stored at `offset` bytes inside a native struct. */
  readPointer(base: Ptr, offset: number): Ptr;
  /** Runs ps_process_raw on koffi's worker thread so a long clip does not block the event loop. */
  processRawAsync(ps: Ptr, data: Int16Array, fullUtt: boolean): Promise<number>;
  /** Runs ps_end_utt (lattice and posteriors: the costly part of a batch decode) off the event loop. */
  endUttAsync(ps: Ptr): Promise<number>;
  /**
   * Runs ps_seg_iter off the event loop: after an utterance ends it builds the lattice, best path
   * and word posteriors (the costly part of a final's confidences).
   */
  segIterAsync(ps: Ptr): Promise<Ptr>;
}

/** sphinxbase's NGRAM_AUTO / NGRAM_BIN file types. */
export const NGRAM_AUTO = 0;
export const NGRAM_BIN = 2;

/** File names (or paths) of the native libraries; configuration may point elsewhere. */
export interface SphinxLibraries {
  /** Default Debian's `libpocketsphinx.so.3` (config `CLINDOC_POCKETSPHINX_LIB`). */
  pocketsphinx?: string;
  /** Default Debian's `libsphinxbase.so.3` (config `CLINDOC_SPHINXBASE_LIB`). */
  sphinxbase?: string;
}

/**
 * Loads both libraries and binds the functions. Throws `engine_unavailable` when the Debian
 * packages are missing, so the API can answer 503 instead of crashing.
 */
export function loadSphinx(libraries: SphinxLibraries = {}): SphinxNative {
  let ps: LibraryHandle;
  let sb: LibraryHandle;
  try {
    sb = koffi.load(libraries.sphinxbase ?? 'libsphinxbase.so.3');
    ps = koffi.load(libraries.pocketsphinx ?? 'libpocketsphinx.so.3');
  } catch (err) {
    throw engineUnavailable('pocketsphinx is not installed (Debian packages libpocketsphinx3 and pocketsphinx-en-us)');
  }
  const f = {
    ps_args: ps.func('void *ps_args()'),
    cmd_ln_parse_r: sb.func('void *cmd_ln_parse_r(void *inout, void *defn, int argc, const char **argv, int strict)'),
    cmd_ln_free_r: sb.func('int cmd_ln_free_r(void *config)'),
    ps_init: ps.func('void *ps_init(void *config)'),
    ps_free: ps.func('int ps_free(void *ps)'),
    ps_start_stream: ps.func('int ps_start_stream(void *ps)'),
    ps_start_utt: ps.func('int ps_start_utt(void *ps)'),
    ps_end_utt: ps.func('int ps_end_utt(void *ps)'),
    ps_process_raw: ps.func('int ps_process_raw(void *ps, const int16_t *data, size_t n, int no_search, int full_utt)'),
    ps_get_hyp: ps.func('const char *ps_get_hyp(void *ps, _Out_ int32_t *score)'),
    ps_seg_iter: ps.func('void *ps_seg_iter(void *ps)'),
    ps_seg_next: ps.func('void *ps_seg_next(void *seg)'),
    ps_seg_word: ps.func('const char *ps_seg_word(void *seg)'),
    ps_seg_frames: ps.func('void ps_seg_frames(void *seg, _Out_ int *sf, _Out_ int *ef)'),
    ps_seg_prob: ps.func('int32_t ps_seg_prob(void *seg, _Out_ int32_t *ascr, _Out_ int32_t *lscr, _Out_ int32_t *lback)'),
    ps_seg_free: ps.func('void ps_seg_free(void *seg)'),
    ps_get_n_frames: ps.func('int ps_get_n_frames(void *ps)'),
    ps_get_logmath: ps.func('void *ps_get_logmath(void *ps)'),
    ps_get_feat: ps.func('void *ps_get_feat(void *ps)'),
    ps_get_config: ps.func('void *ps_get_config(void *ps)'),
    ps_set_lm: ps.func('int ps_set_lm(void *ps, const char *name, void *lm)'),
    ps_set_search: ps.func('int ps_set_search(void *ps, const char *name)'),
    logmath_exp: sb.func('double logmath_exp(void *lmath, int logb_p)'),
    ngram_model_read: sb.func('void *ngram_model_read(void *config, const char *path, int type, void *lmath)'),
    ngram_model_write: sb.func('int ngram_model_write(void *model, const char *path, int type)'),
    ngram_model_free: sb.func('int ngram_model_free(void *model)'),
    ngram_model_set_init: sb.func(
      'void *ngram_model_set_init(void *config, void **models, const char **names, const float *weights, int n)',
    ),
    cmn_live_get: sb.func('void cmn_live_get(void *cmn, _Out_ float *vec)'),
    cmn_live_set: sb.func('void cmn_live_set(void *cmn, const float *vec)'),
    fe_init_auto_r: sb.func('void *fe_init_auto_r(void *config)'),
    fe_free: sb.func('int fe_free(void *fe)'),
    fe_start_stream: sb.func('void fe_start_stream(void *fe)'),
    fe_start_utt: sb.func('int fe_start_utt(void *fe)'),
    fe_process_utt: sb.func('int fe_process_utt(void *fe, const int16_t *spch, size_t n, _Out_ void **cep, _Out_ int32_t *nframes)'),
    ckd_free_2d: sb.func('void ckd_free_2d(void *p)'),
  };
  return {
    ...(f as unknown as Omit<SphinxNative, 'readPointer' | 'processRawAsync' | 'endUttAsync' | 'segIterAsync' | 'cepstra'>),
    cepstra(fe, pcm, veclen) {
      const cep: unknown[] = [null];
      const nframes = [0];
      if (f.fe_process_utt(fe, pcm, pcm.length, cep, nframes) < 0 || !cep[0]) return [];
      const rows: Float32Array[] = [];
      const first = koffi.decode(cep[0], 0, 'void *');
      // ckd_calloc_2d stores the rows contiguously after row 0.
      const flat = koffi.decode(first, 'float', nframes[0]! * veclen) as number[];
      for (let i = 0; i < nframes[0]!; i++) rows.push(Float32Array.from(flat.slice(i * veclen, (i + 1) * veclen)));
      f.ckd_free_2d(cep[0]);
      return rows;
    },
    readPointer(base, offset) {
      return koffi.decode(base, offset, 'void *');
    },
    processRawAsync(decoder, data, fullUtt) {
      return new Promise((resolve, reject) => {
        f.ps_process_raw.async(decoder, data, data.length, 0, fullUtt ? 1 : 0, (err: unknown, rv: number) =>
          err ? reject(err) : resolve(rv),
        );
      });
    },
    endUttAsync(decoder) {
      return new Promise((resolve, reject) => {
        f.ps_end_utt.async(decoder, (err: unknown, rv: number) => (err ? reject(err) : resolve(rv)));
      });
    },
    segIterAsync(decoder) {
      return new Promise((resolve, reject) => {
        f.ps_seg_iter.async(decoder, (err: unknown, seg: Ptr) => (err ? reject(err) : resolve(seg)));
      });
    },
  };
}
