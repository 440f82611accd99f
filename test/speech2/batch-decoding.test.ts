import { describe, expect, it } from 'vitest';
import { createBatchDecoding } from '../../main/engines/speech/pocketsphinx/batch-decoding.js';
import type { NativeDecoder } from '../../main/engines/speech/pocketsphinx/decoder.js';
import type { RecognitionResult, SpeechSegment, VoiceActivityDetector } from '../../main/services/transcriptions/ports.js';

const RATE = 16000;
/** Speech at 1-2 s, 4-5 s, 7-8 s and 10-11 s; each stretch's samples carry its number (1000 x n). */
const SPEECH: SpeechSegment[] = [1, 4, 7, 10].map((s) => ({ start: s, end: s + 1 }));

function clip(): Int16Array {
  const pcm = new Int16Array(12 * RATE);
  SPEECH.forEach((seg, i) => pcm.fill(1000 * (i + 1), seg.start * RATE, seg.end * RATE));
  return pcm;
}

/** Hears the stretches of SPEECH that carry sound in this clip. */
const vad: VoiceActivityDetector = { segments: async (pcm) => SPEECH.filter((s) => pcm[(s.start + 0.5) * RATE] !== 0) };

/**
 * Decoders that "recognise" the number carried by the loudest samples they were fed, as a word at
 * 0.25 s into the utterance. Their calls finish when the test says so, in any order it likes.
 */
function fakeDecoders(options: { chunked?: boolean; failOn?: number } = {}) {
  const pending: Array<() => void> = [];
  const calls: Array<{ samples: number; fullUtt: boolean }> = [];
  let inUse = 0;
  let maxInUse = 0;
  let made = 0;
  let freed = 0;
  const newDecoder = (): NativeDecoder => {
    made++;
    let loudest = 0;
    const later = <T>(value: () => T): Promise<T> => new Promise((resolve, reject) => pending.push(() => {
      try {
        resolve(value());
      } catch (err) {
        reject(err);
      }
    }));
    const dec: Partial<NativeDecoder> = {
      startUtt() {
        inUse++;
        maxInUse = Math.max(maxInUse, inUse);
        loudest = 0;
      },
      processAsync(pcm, fullUtt = false) {
        calls.push({ samples: pcm.length, fullUtt });
        for (const v of pcm) loudest = Math.max(loudest, v);
        return later(() => {
          if (options.failOn !== undefined && loudest === options.failOn * 1000) throw new Error('native failure');
        });
      },
      endUttAsync: () => later(() => undefined),
      resultAsync(offsetSec): Promise<RecognitionResult> {
        return later(() => {
          inUse--;
          const word = { word: `word${loudest / 1000}`, start: offsetSec + 0.25, end: offsetSec + 0.5, confidence: 0.5 };
          return { text: word.word, words: [word], confidence: 0.5 };
        });
      },
      utteranceMean: () => (options.chunked ? { mean: new Float32Array(13).fill(1), zeroEnergyFrames: 0 } : null),
      setCmn: () => true,
      free: () => void freed++,
    };
    return dec as NativeDecoder;
  };
  return {
    newDecoder,
    calls,
    stats: () => ({ made, freed, maxInUse }),
    /** Lets the newest waiting call finish first (later utterances overtake earlier ones). */
    async drain(until: Promise<unknown>): Promise<void> {
      let done = false;
      void until.finally(() => (done = true)).catch(() => undefined);
      while (!done) {
        pending.pop()?.();
        await new Promise((r) => setImmediate(r));
      }
    },
  };
}

describe('parallel batch decoding', () => {
  it('decodes utterances on at most `parallel` decoders and stitches them in order, times offset', async () => {
    const fake = fakeDecoders();
    const batch = createBatchDecoding({ newDecoder: fake.newDecoder, parallel: 2, sampleRate: RATE, maxUtteranceSec: 20, chunkSec: 0, vad });
    const run = batch.decodeClip(clip());
    await fake.drain(run);
    const result = await run;
    expect(result.words.map((w) => w.word)).toEqual(['word1', 'word2', 'word3', 'word4']);
    // Each utterance starts 0.25 s before its speech (the planner's padding); the word 0.25 s in.
    expect(result.words.map((w) => w.start)).toEqual([1, 4, 7, 10]);
    expect(result.text).toBe('word1 word2 word3 word4');
    expect(fake.stats()).toMatchObject({ made: 2, maxInUse: 2 });
    expect(fake.calls.every((c) => c.fullUtt)).toBe(true);
    await batch.close();
    expect(fake.stats().freed).toBe(2);
  });

  it('feeds utterances in short calls when the decoder can take the utterance mean', async () => {
    const fake = fakeDecoders({ chunked: true });
    const batch = createBatchDecoding({ newDecoder: fake.newDecoder, parallel: 3, sampleRate: RATE, maxUtteranceSec: 20, chunkSec: 0.25, vad });
    const run = batch.decodeClip(clip());
    await fake.drain(run);
    expect((await run).words.map((w) => w.word)).toEqual(['word1', 'word2', 'word3', 'word4']);
    // 1.5 s utterances (1 s of speech padded 0.25 s each side) in 0.25 s calls.
    expect(fake.calls.length).toBe(4 * 6);
    expect(fake.calls.every((c) => !c.fullUtt && c.samples <= 0.25 * RATE)).toBe(true);
    await batch.close();
  });

  it('fails a clip whose utterance fails, replaces that decoder, and decodes the next clip', async () => {
    const fake = fakeDecoders({ failOn: 3 });
    const batch = createBatchDecoding({ newDecoder: fake.newDecoder, parallel: 2, sampleRate: RATE, maxUtteranceSec: 20, chunkSec: 0, vad });
    const failing = batch.decodeClip(clip());
    await fake.drain(failing);
    await expect(failing).rejects.toThrow('native failure');
    expect(fake.stats().freed).toBe(1);
    const quiet = clip();
    quiet.fill(0, 7 * RATE, 8 * RATE); // no third utterance this time
    const next = batch.decodeClip(quiet);
    await fake.drain(next);
    expect((await next).words.map((w) => w.word)).toEqual(['word1', 'word2', 'word4']);
    await batch.close();
    expect(fake.stats().made - fake.stats().freed).toBe(0);
  });
});
