/**
 * Greedy CTC decoding of a model's per-frame token scores into timed words: best token per
 * frame, repeats collapsed, blanks dropped. A word's times come from the frames of its first and
 * last tokens; its confidence is the mean, over its tokens, of the softmax probability of the
 * chosen token averaged across the frames it was emitted on.
 */
import type { RecognitionResult, RecognizedWord } from '../../../services/transcriptions/ports.js';
import type { CtcVocabulary } from './vocabulary.js';

interface Emission { token: number; first: number; last: number; prob: number }

/**
 * Decodes `frames` x `vocabSize` scores (logits or log-probabilities, row-major).
 * @param frameSec seconds per output frame (audio duration / frames)
 * @param offsetSec added to every time (position of this chunk in the whole clip)
 */
export function decodeCtcGreedy(scores: Float32Array, frames: number, vocabSize: number, vocab: CtcVocabulary, frameSec: number, offsetSec = 0): RecognizedWord[] {
  const emissions: Emission[] = [];
  let prev = -1;
  let run: Emission | null = null;
  let runProbSum = 0;
  let runFrames = 0;
  for (let f = 0; f < frames; f++) {
    const row = f * vocabSize;
    let best = 0;
    let max = -Infinity;
    for (let v = 0; v < vocabSize; v++) {
      const s = scores[row + v]!;
      if (s > max) [max, best] = [s, v];
    }
    let sum = 0;
    for (let v = 0; v < vocabSize; v++) sum += Math.exp(scores[row + v]! - max);
    const prob = 1 / sum;
    if (best === prev && run) {
      run.last = f;
      runProbSum += prob;
      runFrames++;
    } else {
      if (run) run.prob = runProbSum / runFrames;
      run = null;
      if (best !== vocab.blankId && vocab.tokens[best]) {
        run = { token: best, first: f, last: f, prob };
        emissions.push(run);
        runProbSum = prob;
        runFrames = 1;
      }
    }
    prev = best;
  }
  if (run) run.prob = runProbSum / runFrames;
  return groupWords(emissions, vocab, frameSec, offsetSec);
}

function groupWords(emissions: Emission[], vocab: CtcVocabulary, frameSec: number, offsetSec: number): RecognizedWord[] {
  const words: RecognizedWord[] = [];
  let text = '';
  let parts: Emission[] = [];
  const flush = (): void => {
    const w = text.trim().toLowerCase();
    if (w && parts.length) {
      words.push({
        word: w,
        start: offsetSec + parts[0]!.first * frameSec,
        end: offsetSec + (parts[parts.length - 1]!.last + 1) * frameSec,
        confidence: parts.reduce((s, p) => s + p.prob, 0) / parts.length,
      });
    }
    text = '';
    parts = [];
  };
  for (const e of emissions) {
    const t = vocab.tokens[e.token]!;
    if (vocab.wordMark.kind === 'delimiter') {
      if (t === vocab.wordMark.token) { flush(); continue; }
      text += t;
      parts.push(e);
    } else {
      if (t.startsWith(vocab.wordMark.token)) flush();
      const piece = t.split(vocab.wordMark.token).join('');
      if (piece) {
        text += piece;
        parts.push(e);
      }
    }
  }
  flush();
  return words;
}

/** Joins words into a result with the mean confidence. */
export function toResult(words: RecognizedWord[]): RecognitionResult {
  return {
    text: words.map((w) => w.word).join(' '),
    words,
    confidence: words.length ? words.reduce((s, w) => s + w.confidence, 0) / words.length : 0,
  };
}
