/**
 * Word times of a live pocketsphinx stream fed in short pieces. With pocketsphinx's own silence
 * removal (its default) every silence-to-speech turn inside an utterance moved the utterance's
 * origin to that turn: 2 s of silence then counting, fed in 0.5 s pieces, stamped the first word
 * at 6.22 s and the last one at 12.76 s, past the end of the 10.9 s of audio. With every frame
 * searched (`streamSearch.keepSilence`, off by default for its CPU cost: docs/speech.md) the
 * words sit inside the speech.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPocketsphinxRecognizer } from '../../main/engines/speech/pocketsphinx/index.js';
import type { RecognitionResult, SpeechStream } from '../../main/services/transcriptions/ports.js';
import { countingWithPause, createFixtures, type AudioFixtures } from './fixtures.js';

const RATE = 16000;
const LEAD_SEC = 2;
const PIECE = RATE / 2;
/** Native decoding of seconds of audio on a machine that may be shared: generous limits. */
const SLOW = 300_000;


/** Feeds the whole recording in 0.5 s pieces through the async calls (as the live queue does), then ends it. */
async function decodeLive(stream: SpeechStream, pcm: Int16Array): Promise<RecognitionResult> {
  try {
    for (let i = 0; i < pcm.length; i += PIECE) await stream.acceptAsync!(pcm.subarray(i, i + PIECE));
    return await stream.finalizeUtteranceAsync!();
  } finally {
    stream.close();
  }
}

describe('live word times with every frame searched', () => {
  let fx: AudioFixtures;
  let clip: ReturnType<typeof countingWithPause>;
  const recognizer = createPocketsphinxRecognizer({ medical: false, threads: 1, poolSize: 0, streamSearch: { keepSilence: true } });

  beforeAll(() => {
    fx = createFixtures();
    clip = countingWithPause(fx, LEAD_SEC, RATE);
  });
  afterAll(async () => {
    await recognizer.close();
    fx.cleanup();
  }, SLOW);

  it('stamps the first word after the silence and the last one inside the audio', async () => {
    const r = await decodeLive(recognizer.createStream!({ language: 'en' }), clip.pcm);
    expect(r.words.length).toBeGreaterThanOrEqual(6);
    const duration = clip.pcm.length / RATE;
    expect(r.words[0]!.start).toBeGreaterThanOrEqual(LEAD_SEC - 0.15);
    expect(r.words[0]!.start).toBeLessThan(LEAD_SEC + 0.5);
    expect(r.words.at(-1)!.end).toBeLessThanOrEqual(Math.min(duration, clip.speechEnd + 0.15));
    expect(r.words.at(-1)!.end).toBeGreaterThan(clip.speechEnd - 0.5);
  }, SLOW);
});
