import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createAudio, DIGITS_TEXT, DIGIT_WORDS, startStreaming, timingProblems, type Audio, type StreamingServer, type Transcript } from './helpers.js';

const RATE = 16000;
const GAP_SEC = 1.5;
/**
 * A hang guard, not a speed check: ~45 s of audio in three sessions, decoded on two recogniser
 * threads, took 23-30 s here at load 6-8 and 59 s at load 14. What fails a broken server is the
 * words and their times below. (Five digits instead of ten, or 0.5 s chunks instead of 0.1 s, did
 * not shorten it measurably at load 6-8, and five digits alone were misheard: the work stays.)
 */
const LIMIT_MS = 120_000;

const digitHits = (text: string): string[] => text.toLowerCase().replace(/[^a-z ]/g, ' ').split(/\s+/).filter((w) => DIGIT_WORDS.includes(w));

/** `leadSec` of silence, the utterance, a pause, the utterance again: 16-bit mono PCM bytes. */
function session(utterance: Buffer, leadSec: number): Buffer {
  const silence = (sec: number): Buffer => Buffer.alloc(Math.round(sec * RATE) * 2);
  return Buffer.concat([silence(leadSec), utterance, silence(GAP_SEC), utterance]);
}

describe('concurrent live sessions', () => {
  let s: StreamingServer;
  let audio: Audio;
  let utterance: Buffer;

  beforeAll(async () => {
    audio = createAudio();
    // 0.5 s of silence either side of the speech (see createAudio).
    utterance = audio.encode(audio.speak('digits', DIGITS_TEXT), 'digits.raw', ['-f', 's16le', '-ar', '16000', '-ac', '1']);
    // Everything is sent at once: let it all wait for recognition instead of being refused.
    s = await startStreaming({ maxBufferedSeconds: 60 });
  });
  afterAll(async () => {
    await s?.close();
    audio?.cleanup();
  });

  it('recognises three sessions at once, each with its own words at its own times', async () => {
    const leads = [0, 1, 2];
    const clients = leads.map(() => connect(s.url('encoding=linear16&sample_rate=16000'), s.keyHeaders()));
    await Promise.all(clients.map((c) => c.next((m) => m.type === 'status' && m.status === 'connected')));
    // Interleave the sessions' chunks so their recognition overlaps throughout.
    const streams = leads.map((lead) => session(utterance, lead));
    for (let off = 0; off < Math.max(...streams.map((b) => b.length)); off += 3200) {
      clients.forEach((c, i) => {
        if (off < streams[i]!.length) c.sendJson({ audio: streams[i]!.subarray(off, off + 3200).toString('base64') });
      });
    }
    for (const c of clients) c.sendJson({ type: 'CloseStream' });
    expect(await Promise.all(clients.map((c) => c.closed))).toEqual([1000, 1000, 1000]);

    const utteranceSec = utterance.length / 2 / RATE;
    clients.forEach((c, i) => {
      expect(c.errors()).toEqual([]);
      const finals = c.transcripts().filter((t: Transcript) => t.is_final && t.words.length > 0);
      const seconds = streams[i]!.length / 2 / RATE;
      for (const t of c.transcripts()) expect(timingProblems(t, seconds)).toEqual([]);
      expect(digitHits(finals.map((t) => t.text).join(' ')).length).toBeGreaterThanOrEqual(8);
      // Each utterance's first word starts where that session's speech starts, the second one too.
      const onsets = [0, 1].map((u) => leads[i]! + 0.5 + u * (utteranceSec + GAP_SEC));
      for (const onset of onsets) {
        const first = finals.flatMap((t) => t.words).find((w) => w.end > onset - 0.3);
        expect(first, `session ${i}, speech at ${onset.toFixed(2)} s`).toBeDefined();
        expect(Math.abs(first!.start - onset)).toBeLessThan(0.4);
      }
    });
  }, LIMIT_MS);
});
