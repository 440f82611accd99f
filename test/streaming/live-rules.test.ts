/**
 * The live-session rules (main/services/live) without a socket, a decoder or a model: a scripted
 * recogniser stream and endpointer show when segments end and what partials and finals say.
 */
import { describe, it, expect } from 'vitest';
import {
  acceptsChunk, createSessionQueue, DEFAULT_SESSION_TUNING, readingPaused, sessionEndpointer, type LiveTranscript,
} from '../../main/services/live/index.js';
import type { EndpointEvent, Endpointer, EndpointingDetector, RecognitionResult, SpeechStream } from '../../main/services/transcriptions/ports.js';

const RATE = 16000;
const chunk = (seconds: number): Int16Array => new Int16Array(Math.round(seconds * RATE));

/** A stream that "hears" the words it is told to, placed at the time they are told. */
function scriptedStream(): SpeechStream & { say(word: string): void } {
  let heard = 0;
  let words: RecognitionResult['words'] = [];
  const result = (): RecognitionResult => ({ text: words.map((w) => w.word).join(' '), words, confidence: words.length ? 0.9 : 0 });
  return {
    say(word) {
      words = [...words, { word, start: heard / RATE, end: heard / RATE + 0.3, confidence: 0.9 }];
    },
    accept(pcm) {
      heard += pcm.length;
    },
    partial: () => (words.length ? result() : null),
    finalizeUtterance() {
      const r = result();
      words = [];
      return r;
    },
    close() {},
  };
}

/** An endpointer that answers each push with the next scripted events. */
function scriptedEndpointer(script: EndpointEvent[][], failAt = Infinity): Endpointer & { pushes: number } {
  let inSpeech = false;
  const ep = {
    pushes: 0,
    get inSpeech() {
      return inSpeech;
    },
    async push() {
      if (ep.pushes++ >= failAt) throw new Error('model broke');
      const events = script.shift() ?? [];
      for (const e of events) inSpeech = e.type === 'speech_start';
      return events;
    },
  };
  return ep;
}

function queueWith(stream: SpeechStream, endpointer: Endpointer, extra: { fallback?: Endpointer; onFailure?: (err: unknown) => void } = {}) {
  const sent: LiveTranscript[] = [];
  const queue = createSessionQueue({
    stream, endpointer, fallbackEndpointer: () => extra.fallback ?? scriptedEndpointer([]), sampleRate: RATE, dictation: false, decode: () => undefined,
    tuning: DEFAULT_SESSION_TUNING, emit: (t) => sent.push(t), afterChunk: () => undefined, onFailure: (err) => { throw err; },
    ...(extra.onFailure ? { onEndpointerFailure: extra.onFailure } : {}),
  });
  return { queue, sent };
}

describe('live session rules: when a segment ends', () => {
  it('sends a final with the words when the endpointer hears the end of speech', async () => {
    const stream = scriptedStream();
    const { queue, sent } = queueWith(stream, scriptedEndpointer([[{ type: 'speech_start', time: 0.1 }], [], [{ type: 'speech_end', time: 0.9 }]]));
    queue.pushAudio(chunk(0.5));
    stream.say('cough');
    queue.pushAudio(chunk(0.5));
    queue.pushAudio(chunk(0.5));
    await queue.finalize(false); // waits for the audio queued before it
    const finals = sent.filter((t) => t.isFinal);
    expect(finals).toHaveLength(1);
    expect(finals[0]).toMatchObject({ start: 0, end: 1.5, text: 'Cough.' });
  });

  it('closes a wordless stretch of silence quietly, and the next final starts where it ended', async () => {
    const stream = scriptedStream();
    const { queue, sent } = queueWith(stream, scriptedEndpointer([]));
    queue.pushAudio(chunk(DEFAULT_SESSION_TUNING.silenceRolloverSec));
    queue.pushAudio(chunk(1));
    await queue.finalize(true);
    expect(sent).toEqual([expect.objectContaining({ isFinal: true, start: DEFAULT_SESSION_TUNING.silenceRolloverSec, end: DEFAULT_SESSION_TUNING.silenceRolloverSec + 1, words: [] })]);
  });

  it('forces a final when continuous speech runs past the longest utterance', async () => {
    const stream = scriptedStream();
    const { queue, sent } = queueWith(stream, scriptedEndpointer([[{ type: 'speech_start', time: 0 }]]));
    stream.say('talking');
    for (let s = 0; s < DEFAULT_SESSION_TUNING.maxUtteranceSec; s++) queue.pushAudio(chunk(1));
    await queue.finalize(false);
    const finals = sent.filter((t) => t.isFinal);
    expect(finals).toHaveLength(1);
    expect(finals[0]!.end).toBe(DEFAULT_SESSION_TUNING.maxUtteranceSec);
  });

  it('sends a changed partial, not the same one twice, and always a final for a segment that showed one', async () => {
    const stream = scriptedStream();
    const { queue, sent } = queueWith(stream, scriptedEndpointer([[{ type: 'speech_start', time: 0 }]]));
    stream.say('chest');
    queue.pushAudio(chunk(0.25));
    queue.pushAudio(chunk(0.25)); // same words: no second partial
    await queue.finalize(false);
    expect(sent.map((t) => [t.isFinal, t.text])).toEqual([[false, 'Chest.'], [true, 'Chest.']]);
    // Without words and without a partial, a final that was not insisted on is not sent.
    queue.pushAudio(chunk(0.25));
    await queue.finalize(false);
    expect(sent).toHaveLength(2);
  });

  it('keeps ending segments with the fallback endpointer once the detector fails', async () => {
    const stream = scriptedStream();
    const failures: unknown[] = [];
    const fallback = scriptedEndpointer([[{ type: 'speech_start', time: 0.5 }], [{ type: 'speech_end', time: 1 }]]);
    const { queue, sent } = queueWith(stream, scriptedEndpointer([], 0), { fallback, onFailure: (err) => failures.push(err) });
    queue.pushAudio(chunk(0.5));
    stream.say('better');
    queue.pushAudio(chunk(0.5));
    await queue.finalize(false);
    expect(failures).toHaveLength(1);
    expect(fallback.pushes).toBe(2);
    expect(sent.filter((t) => t.isFinal).map((t) => t.text)).toEqual(['Better.']);
  });
});

/** A gate a test opens by hand: what a slow external decoder looks like to the queue. */
function gate(): { wait: () => Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { wait: () => opened, open };
}

describe('live session rules: one queue, in the order the client asked', () => {
  /** A queue whose decoder turns each byte pair into one sample at once, as the in-process PCM decoder does. */
  function decodingQueue(stream = scriptedStream()) {
    const decoded: number[] = [];
    const sent: LiveTranscript[] = [];
    const queue: ReturnType<typeof createSessionQueue> = createSessionQueue({
      stream, endpointer: scriptedEndpointer([]), fallbackEndpointer: () => scriptedEndpointer([]), sampleRate: RATE, dictation: false,
      tuning: DEFAULT_SESSION_TUNING, emit: (t) => sent.push(t), afterChunk: () => undefined, onFailure: (err) => { throw err; },
      decode(bytes) {
        decoded.push(bytes.length);
        queue.pushAudio(new Int16Array(bytes.length / 2));
      },
    });
    return { queue, decoded, sent, stream };
  }
  const bytes = (seconds: number): Buffer => Buffer.alloc(Math.round(seconds * RATE) * 2);

  it('holds encoded audio that arrives behind a final until the final is done, and counts it as pending', async () => {
    const { queue, decoded, sent } = decodingQueue();
    const decoder = gate();
    queue.pushEncoded(bytes(0.5));
    expect(decoded).toEqual([16000]);
    const final = queue.finalize(true, decoder.wait);
    queue.pushEncoded(bytes(0.25));
    expect(decoded).toEqual([16000]);
    expect(queue.pendingBytes).toBe(8000);
    expect(queue.busy).toBe(true);
    decoder.open();
    expect(await final).toBe(true);
    expect(decoded).toEqual([16000, 8000]);
    expect(queue.pendingBytes).toBe(0);
    await queue.finalize(true);
    // The first final covers the audio before Finalize, the second the audio after it.
    expect(sent.map((t) => [t.start, t.end])).toEqual([[0, 0.5], [0.5, 0.75]]);
  });

  it('recognises audio the decoder hands over while a final waits for it before that final', async () => {
    const { queue, sent } = decodingQueue();
    queue.pushAudio(chunk(0.5));
    // A decoder that still held 0.25 s when Finalize came: it hands it over during the wait.
    const final = queue.finalize(true, async () => queue.pushAudio(chunk(0.25)));
    expect(await final).toBe(true);
    expect(sent.map((t) => [t.isFinal, t.start, t.end])).toEqual([[true, 0, 0.75]]);
  });

  it('on a server-side end drops the audio and the finals that have not started; those finals answer false', async () => {
    const { queue, decoded, sent } = decodingQueue();
    const decoder = gate();
    const waiting = queue.finalize(true, decoder.wait);
    queue.pushEncoded(bytes(1));
    queue.drop();
    expect(queue.pendingBytes).toBe(0);
    decoder.open();
    expect(await waiting).toBe(false);
    expect(await queue.finalize(false)).toBe(true);
    expect(decoded).toEqual([]);
    expect(sent).toEqual([]);
  });
});

describe('live session rules: which endpointer, and how much audio is held', () => {
  it("uses the detector's own endpointer when there is a detector, the fallback otherwise", () => {
    const own = scriptedEndpointer([]);
    const energy = scriptedEndpointer([]);
    const detector: EndpointingDetector = { segments: async () => [], createEndpointer: () => own };
    const options = { endSilenceMs: 400, minSpeechMs: 96 };
    expect(sessionEndpointer(detector, () => energy, options)).toBe(own);
    expect(sessionEndpointer(undefined, () => energy, options)).toBe(energy);
  });

  it('pauses reading past half the buffer, resumes below a quarter, and drops past the full limit', () => {
    const limits = { maxBufferedSeconds: 8, maxMessageBytes: 1000 };
    const at = (queuedSeconds: number, pendingBytes = 0) => ({ queuedSeconds, pendingBytes });
    expect(readingPaused(false, at(4), limits)).toBe(false);
    expect(readingPaused(false, at(4.1), limits)).toBe(true);
    expect(readingPaused(false, at(0, 2001), limits)).toBe(true);
    expect(readingPaused(true, at(3), limits)).toBe(true); // between a quarter and a half: stays paused
    expect(readingPaused(true, at(1.9, 999), limits)).toBe(false);
    expect(acceptsChunk(at(8), 100, limits)).toBe(true);
    expect(acceptsChunk(at(8.1), 100, limits)).toBe(false);
    expect(acceptsChunk(at(0, 7900), 200, limits)).toBe(false);
  });
});
