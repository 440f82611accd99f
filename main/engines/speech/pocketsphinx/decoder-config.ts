/**
 * How a pocketsphinx decoder is configured: the language model (and the clinical mixture), the
 * search passes, pruning and tuning, and the command line they become.
 */

/** Where the language model comes from. */
export interface LmSpec {
  /** Main language model (ARPA or sphinx binary). */
  lmPath: string;
  /** Optional second model interpolated with the first (the clinical LM). */
  mixPath?: string;
  /** Weight of `mixPath` in the interpolation, 0 to 1. */
  mixWeight?: number;
}

/** pocketsphinx's optional second and third search passes, run when an utterance ends. */
export interface SearchPasses {
  /** Flat-lexicon re-search of the whole utterance (`-fwdflat`); the costly part of `ps_end_utt`. */
  fwdflat: boolean;
  /** Word lattice and best path (`-bestpath`); also what word posteriors (confidences) come from. */
  bestpath: boolean;
}

/** Caps on the forward search, per 10 ms frame: the main lever on its CPU cost. */
export interface SearchPruning {
  /** Active HMMs kept (`-maxhmmpf`; pocketsphinx's default 30000). */
  maxHmmPerFrame: number;
  /** Distinct words that may end (`-maxwpf`); unlimited when absent, as capping it cost accuracy. */
  maxWordsPerFrame?: number;
}

/**
 * Further knobs of the forward search (pocketsphinx flags; its own defaults where absent), tuned
 * with `scripts/tune-asr.ts` on the repository's WER sets.
 */
export interface SearchTuning {
  /** Main HMM beam (`-beam`, default 1e-48): wider is slower and finds more. */
  beam?: number;
  /** Word-exit beam (`-wbeam`, default 7e-29). */
  wordBeam?: number;
  /** Phone-transition beam (`-pbeam`, default 1e-48). */
  phoneBeam?: number;
  /** Phone lookahead window in frames (`-pl_window`, default 5; 0 turns lookahead off). */
  phoneLookahead?: number;
  /** Search every Nth frame (`-ds`, default 1). */
  frameSkip?: number;
  /** Gaussians scored per mixture (`-topn`, default 4). */
  topGaussians?: number;
  /** Language weight (`-lw`, default 6.5); the fwdflat and best-path weights follow in proportion. */
  languageWeight?: number;
}

export interface DecoderConfig extends LmSpec {
  /** Acoustic model folder (`.../en-us/en-us`). */
  hmmDir: string;
  dictPath: string;
  sampleRate: number;
  /** Passes after the forward search; pocketsphinx's default (both on) when absent. */
  passes?: SearchPasses;
  /** Absolute pruning of the forward search; pocketsphinx's defaults when absent. */
  pruning?: SearchPruning;
  /** Beams, lookahead, frame skipping, Gaussian selection, language weight. */
  tuning?: SearchTuning;
  /**
   * Searches every frame, silence included (`-remove_silence no`). With pocketsphinx's own voice
   * detection on (its default) the front end drops silent frames, so segment frames count only
   * voiced ones, and on each silence-to-speech turn inside an utterance fed in several calls it
   * moves the utterance's origin (`utt_start_frame`) to that turn: word times come out seconds
   * late. Batch decoding cuts utterances with its own detector and needs true times.
   */
  keepSilence?: boolean;
}

/** pocketsphinx's default `-lw`, `-fwdflatlw`, `-bestpathlw`. */
const DEFAULT_LW = 6.5;
const DEFAULT_FWDFLAT_LW = 8.5;
const DEFAULT_BESTPATH_LW = 9.5;

/** Command-line flags of a search tuning. */
export function tuningArgs(t: SearchTuning = {}): string[] {
  const args: string[] = [];
  const flag = (name: string, value: number | undefined): void => {
    if (value !== undefined && Number.isFinite(value)) args.push(name, String(value));
  };
  flag('-beam', t.beam);
  flag('-wbeam', t.wordBeam);
  flag('-pbeam', t.phoneBeam);
  flag('-pl_window', t.phoneLookahead);
  flag('-ds', t.frameSkip);
  flag('-topn', t.topGaussians);
  if (t.languageWeight !== undefined) {
    const k = t.languageWeight / DEFAULT_LW;
    flag('-lw', t.languageWeight);
    flag('-fwdflatlw', Math.round(DEFAULT_FWDFLAT_LW * k * 100) / 100);
    flag('-bestpathlw', Math.round(DEFAULT_BESTPATH_LW * k * 100) / 100);
  }
  return args;
}

/** pocketsphinx's command line for a configuration. With a mixture the set is installed after init; loading -lm too would hold it twice. */
export function decoderArgs(cfg: DecoderConfig): string[] {
  return [
    '-hmm', cfg.hmmDir, ...(cfg.mixPath ? [] : ['-lm', cfg.lmPath]), '-dict', cfg.dictPath,
    '-samprate', String(cfg.sampleRate), '-logfn', '/dev/null', ...(cfg.keepSilence ? ['-remove_silence', 'no'] : []),
    ...(cfg.passes ? ['-fwdflat', cfg.passes.fwdflat ? 'yes' : 'no', '-bestpath', cfg.passes.bestpath ? 'yes' : 'no'] : []),
    ...(cfg.pruning ? ['-maxhmmpf', String(cfg.pruning.maxHmmPerFrame)] : []),
    ...(cfg.pruning?.maxWordsPerFrame ? ['-maxwpf', String(cfg.pruning.maxWordsPerFrame)] : []),
    ...tuningArgs(cfg.tuning),
  ];
}

