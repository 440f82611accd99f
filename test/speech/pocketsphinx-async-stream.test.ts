import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPocketsphinxRecognizer } from '../../main/engines/speech/pocketsphinx/index.js';
import type { RecognitionResult, SpeechStream } from '../../main/services/transcriptions/ports.js';
import { createFixtures, DIGIT_WORDS, DIGITS_TEXT, hits, type AudioFixtures } from './fixtures.js';

const CHUNK = 1600; // 100 ms, as the live socket hands it over

/** Median shift of the words both results recognised (a misheard word does not skew it). */
function shift(from: RecognitionResult, to: RecognitionResult): number {
  const d: number[] = [];
  for (const w of from.words) {
    const match = to.words.find((x) => x.word === w.word && ['hello', 'world', ...DIGIT_WORDS].includes(w.word));
    if (match) d.push(match.start - w.start);
  }
  d.sort((x, y) => x - y);
  return d.length >= 3 ? d[Math.floor(d.length / 2)]! : NaN;
}

/** Feeds `pcm` through the async calls, chunk by chunk, and finalizes. */
async function decodeAsync(stream: SpeechStream, pcm: Int16Array): Promise<RecognitionResult> {
  for (let i = 0; i < pcm.length; i += CHUNK) await stream.acceptAsync!(pcm.subarray(i, i + CHUNK));
  return stream.finalizeUtteranceAsync!();
}

function padded(speech: Int16Array, padSec: number): Int16Array {
  const out = new Int16Array(Math.round(padSec * 16000) + speech.length);
  out.set(speech, out.length - speech.length);
  return out;
}

describe('pocketsphinx streams off the event loop', () => {
  let fx: AudioFixtures;
  let speech: Int16Array;
  // Pool of 1: the decoder a closed stream gives back is the next stream's.
  const recognizer = createPocketsphinxRecognizer({ medical: false, poolSize: 1 });

  beforeAll(() => {
    fx = createFixtures();
    speech = padded(fx.pcm(fx.speak('digits', DIGITS_TEXT)), 0.3);
  });
  afterAll(async () => {
    await recognizer.close();
    fx.cleanup();
  });

  it('decodes two sessions at once, each with its own words and times', async () => {
    const early = recognizer.createStream({ language: 'en' });
    const late = recognizer.createStream({ language: 'en' });
    const lateAudio = padded(speech, 2);
    // Both sessions' chunks are in flight together, as concurrent sockets would have them.
    const [a, b] = await Promise.all([decodeAsync(early, speech), decodeAsync(late, lateAudio)]);
    early.close();
    late.close();
    expect(hits(a.text, DIGIT_WORDS).length).toBeGreaterThanOrEqual(5);
    expect(hits(b.text, DIGIT_WORDS).length).toBeGreaterThanOrEqual(5);
    expect(Math.abs(shift(a, b) - 2)).toBeLessThan(0.1);
    for (const r of [a, b]) {
      expect(r.words.every((w) => w.confidence >= 0 && w.confidence <= 1)).toBe(true);
      expect(r.words.some((w) => w.confidence > 0 && w.confidence < 1)).toBe(true);
    }
  });

  it('gives the same words and times as the synchronous calls', async () => {
    const viaSync = recognizer.createStream({ language: 'en' });
    for (let i = 0; i < speech.length; i += CHUNK) viaSync.accept(speech.subarray(i, i + CHUNK));
    const s = viaSync.finalizeUtterance();
    viaSync.close();
    const viaAsync = recognizer.createStream({ language: 'en' });
    const a = await decodeAsync(viaAsync, speech);
    viaAsync.close();
    expect(a.text).toBe(s.text);
    expect(a.words.map((w) => [w.start, w.end])).toEqual(s.words.map((w) => [w.start, w.end]));
  });

  it('places a later utterance of the session at its own time, on a reused decoder too', async () => {
    const stream = recognizer.createStream({ language: 'en' });
    const first = await decodeAsync(stream, speech);
    const second = await decodeAsync(stream, speech);
    stream.close();
    const clipSec = speech.length / 16000;
    expect(Math.abs(shift(first, second) - clipSec)).toBeLessThan(0.1);
    expect(second.words.at(-1)!.end).toBeLessThanOrEqual(2 * clipSec + 0.01);
  });

  it('lets close() wait for a running call and hands back a decoder that decodes cleanly', async () => {
    const stream = recognizer.createStream({ language: 'en' });
    const pending = stream.acceptAsync!(speech.subarray(0, speech.length / 2));
    stream.close();
    await pending;
    expect(stream.partial()).toBeNull();
    expect(await stream.finalizeUtteranceAsync!()).toEqual({ text: '', words: [], confidence: 0 });
    const next = recognizer.createStream({ language: 'en' });
    const r = await decodeAsync(next, speech);
    next.close();
    expect(hits(r.text, DIGIT_WORDS).length).toBeGreaterThanOrEqual(5);
    expect(r.words[0]!.start).toBeLessThan(1.5);
  });

  it('refuses a synchronous call while an async one is running, then goes on', async () => {
    const stream = recognizer.createStream({ language: 'en' });
    const pending = stream.acceptAsync!(speech.subarray(0, 16000));
    expect(() => stream.accept(speech.subarray(16000, 17600))).toThrow(/busy/);
    await pending;
    for (let i = 16000; i < speech.length; i += CHUNK) stream.accept(speech.subarray(i, i + CHUNK));
    expect(hits(stream.finalizeUtterance().text, DIGIT_WORDS).length).toBeGreaterThanOrEqual(5);
    stream.close();
  });
});
