import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createPocketsphinxRecognizer } from '../../main/engines/speech/pocketsphinx/index.js';
import { normalizeWords } from '../../main/engines/speech/pocketsphinx/text-normalizer.js';
import { createSileroVad } from '../../main/engines/vad/index.js';
import { editDistance } from '../../main/services/clinical-language/edit-distance.js';
import type { RecognitionResult } from '../../main/services/transcriptions/ports.js';
import { createFixtures, DIGIT_WORDS, DIGITS_TEXT, hits, type AudioFixtures } from './fixtures.js';

const RATE = 16000;
const UTTERANCES = ['one two three four five.', 'six seven eight nine ten.', 'hello world.', 'three four five six seven.'];
const GAP_SEC = 1.5;
/** Native decoding of tens of seconds of audio, on a machine that may be shared: generous limits. */
const SLOW = 300_000;

/** Utterances separated by silence, with where each one's audio lies (seconds). */
function multiSegment(fx: AudioFixtures, times = 1): { pcm: Int16Array; spans: Array<{ start: number; end: number }>; reference: string } {
  const parts: Int16Array[] = [];
  const spans: Array<{ start: number; end: number }> = [];
  let at = 0;
  const texts = Array.from({ length: times }, () => UTTERANCES).flat();
  texts.forEach((text, i) => {
    const speech = fx.pcm(fx.speak(`u${i % UTTERANCES.length}`, text));
    const gap = new Int16Array(Math.round(GAP_SEC * RATE));
    parts.push(gap, speech);
    at += gap.length;
    spans.push({ start: at / RATE, end: (at + speech.length) / RATE });
    at += speech.length;
  });
  parts.push(new Int16Array(Math.round(GAP_SEC * RATE)));
  const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let o = 0;
  for (const p of parts) {
    pcm.set(p, o);
    o += p.length;
  }
  return { pcm, spans, reference: texts.join(' ') };
}

const errors = (reference: string, r: RecognitionResult): number =>
  editDistance(normalizeWords(reference), normalizeWords(r.text), { transpositions: false });

describe('batch recognition on every recogniser thread', () => {
  let fx: AudioFixtures;
  let clip: ReturnType<typeof multiSegment>;
  const vad = createSileroVad();
  // The path before: one decoder, each utterance in one call, one after another.
  const sequential = createPocketsphinxRecognizer({ medical: false, vad, threads: 1, batchParallel: 1, batchChunkSec: 0 });
  const parallelWhole = createPocketsphinxRecognizer({ medical: false, vad, threads: 2, batchParallel: 2, batchChunkSec: 0 });
  // The product's batch path: parallel, short calls.
  const parallel = createPocketsphinxRecognizer({ medical: false, vad, threads: 2 });
  let reference: RecognitionResult;

  beforeAll(async () => {
    fx = createFixtures();
    clip = multiSegment(fx);
    reference = await sequential.transcribe(clip.pcm, { language: 'en' });
  }, SLOW);
  afterAll(async () => {
    await Promise.all([sequential.close(), parallelWhole.close(), parallel.close()]);
    await vad.close();
    fx.cleanup();
  }, SLOW);

  it('gives exactly the sequential words and times when utterances are decoded in parallel', async () => {
    expect((await vad.segments(clip.pcm, RATE)).length).toBeGreaterThanOrEqual(UTTERANCES.length);
    const result = await parallelWhole.transcribe(clip.pcm, { language: 'en' });
    expect(result).toEqual(reference);
  }, SLOW);

  it('decodes in short calls as well as sequentially, words in order inside their own utterance', async () => {
    const result = await parallel.transcribe(clip.pcm, { language: 'en' });
    expect(errors(clip.reference, result)).toBeLessThanOrEqual(errors(clip.reference, reference));
    expect(hits(result.text, DIGIT_WORDS).length).toBeGreaterThanOrEqual(6); // of 15
    for (let i = 1; i < result.words.length; i++) expect(result.words[i]!.start).toBeGreaterThanOrEqual(result.words[i - 1]!.end - 0.001);
    // Every word lies in the span of one utterance (times are offset by the utterance's start),
    // and every utterance is heard.
    const spanOf = (t: number): number => clip.spans.findIndex((s) => t >= s.start - 0.3 && t <= s.end + 0.3);
    for (const w of result.words) {
      expect(spanOf(w.start)).toBeGreaterThanOrEqual(0);
      expect(spanOf(w.end)).toBe(spanOf(w.start));
    }
    expect(new Set(result.words.map((w) => spanOf(w.start))).size).toBe(UTTERANCES.length);
  }, SLOW);
});

describe('live dictation beside a long batch transcription', () => {
  let fx: AudioFixtures;
  const vad = createSileroVad();
  // One thread, three batch decoders: every batch decoder always has a call waiting, so a live
  // call that waited its turn in call order would queue behind up to three of them.
  const recognizer = createPocketsphinxRecognizer({ medical: false, vad, threads: 1, batchParallel: 3, batchChunkSec: 0.5 });

  beforeAll(() => {
    fx = createFixtures();
  });
  afterAll(async () => {
    vi.useRealTimers(); // also when the test failed with the clock still
    await recognizer.close();
    await vad.close();
    fx.cleanup();
  }, SLOW);

  it("gets the live session's final while the batch job runs, and the batch job still finishes", async () => {
    const long = multiSegment(fx, 2);
    // The live voice is made before the count starts (espeak and ffmpeg block the event loop).
    const speech = fx.pcm(fx.speak('live', DIGITS_TEXT));
    // The policy's clock stands still (`performance.now`, all it reads): a batch call that waited
    // 2 s would otherwise go before live calls (the no-starvation rule, tested with a hand-moved
    // clock in the work-scheduler tests), and on a loaded machine every batch call waits that long.
    // With the clock still, which waiting call starts next is the policy alone: between live calls
    // the test only runs microtasks, so no batch call can slip in on how the OS schedules threads.
    vi.useFakeTimers({ toFake: ['performance'] });
    let batchDone = false;
    const batch = recognizer.transcribe(long.pcm, { language: 'en' });
    void batch.then(() => (batchDone = true), () => (batchDone = true));
    // The session starts once batch work holds the thread (a turn of the event loop at a time).
    while (recognizer.scheduling.started.batch === 0 && !batchDone) await new Promise((r) => setImmediate(r));

    const before = recognizer.scheduling.started;
    const stream = recognizer.createStream({ language: 'en' });
    const chunk = RATE / 2;
    for (let i = 0; i < speech.length; i += chunk) await stream.acceptAsync!(speech.subarray(i, i + chunk));
    const final = await stream.finalizeUtteranceAsync!();
    const after = recognizer.scheduling.started;
    stream.close();
    vi.useRealTimers();

    expect(batchDone).toBe(false);
    expect(hits(final.text, DIGIT_WORDS).length).toBeGreaterThanOrEqual(3); // of 10, as the other stream tests
    const liveCalls = after.live - before.live;
    const batchCalls = after.batch - before.batch;
    expect(liveCalls).toBeGreaterThan(0);
    // Live first: each live call waited for at most the one batch call holding the thread.
    expect(batchCalls).toBeLessThanOrEqual(liveCalls + 1);

    const result = await batch;
    expect(hits(result.text, DIGIT_WORDS).length).toBeGreaterThanOrEqual(10); // of 30
    expect(result.words[result.words.length - 1]!.end).toBeGreaterThan(long.spans[long.spans.length - 2]!.end);
  }, SLOW);
});
