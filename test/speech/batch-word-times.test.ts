/**
 * Word times of batch recognition when an utterance is fed in short native calls. pocketsphinx's
 * own silence removal (on by default) moved an utterance's origin to its last silence-to-speech
 * turn when it was fed in several calls: a word at 2 s came back at 3.2 s, a 17 s recording's
 * first word at 11.6 s. Short calls must stamp words where one whole-utterance call does, inside
 * the speech.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPocketsphinxRecognizer } from '../../main/engines/speech/pocketsphinx/index.js';
import type { RecognitionResult } from '../../main/services/transcriptions/ports.js';
import { countingWithPause, createFixtures, type AudioFixtures } from './fixtures.js';

const RATE = 16000;
const LEAD_SEC = 2;
/** Native decoding of seconds of audio on a machine that may be shared: generous limits. */
const SLOW = 300_000;


describe('batch word times with short native calls', () => {
  let fx: AudioFixtures;
  let clip: ReturnType<typeof countingWithPause>;
  // No voice detector: the whole recording is one utterance, silence and pause included.
  const whole = createPocketsphinxRecognizer({ medical: false, threads: 1, batchChunkSec: 0 });
  const chunked = createPocketsphinxRecognizer({ medical: false, threads: 1, batchChunkSec: 1 });

  beforeAll(() => {
    fx = createFixtures();
    clip = countingWithPause(fx, LEAD_SEC, RATE);
  });
  afterAll(async () => {
    await Promise.all([whole.close(), chunked.close()]);
    fx.cleanup();
  }, SLOW);

  const span = (r: RecognitionResult): { first: number; last: number } => {
    expect(r.words.length).toBeGreaterThanOrEqual(6);
    return { first: r.words[0]!.start, last: r.words[r.words.length - 1]!.end };
  };

  it('stamps the first and last word where one whole-utterance call does, inside the speech', async () => {
    expect(clip.speechEnd - clip.speechStart).toBeGreaterThan(6);
    const a = span(await whole.transcribe(clip.pcm, { language: 'en' }));
    const b = span(await chunked.transcribe(clip.pcm, { language: 'en' }));
    for (const t of [a, b]) {
      expect(t.first).toBeGreaterThanOrEqual(clip.speechStart - 0.15);
      expect(t.first).toBeLessThan(clip.speechStart + 0.5);
      expect(t.last).toBeGreaterThan(clip.speechEnd - 0.5);
      expect(t.last).toBeLessThanOrEqual(clip.speechEnd + 0.15);
    }
    expect(Math.abs(b.first - a.first)).toBeLessThanOrEqual(0.15);
    expect(Math.abs(b.last - a.last)).toBeLessThanOrEqual(0.15);
  }, SLOW);
});
