/**
 * A session's recognition work, in order: decoded audio chunks go through the recogniser and the
 * endpointer, and finals (endpoint, Finalize, CloseStream, server-side close) come out between
 * them exactly where they were asked for. One item runs at a time, so a session never has two
 * recogniser calls in flight; sessions are independent of each other, so with a stream that
 * offers async calls (pocketsphinx on libuv's thread pool) they recognise in parallel.
 *
 * When a segment ends: on the endpointer's `speech_end`; when a wordless stretch outside speech
 * reaches `silenceRolloverSec` (quietly); when an utterance reaches `maxUtteranceSec`; and when
 * the caller asks (`finalize`). A segment that showed a partial always gets its final.
 */
import type { EndpointEvent, Endpointer, RecognitionResult, SpeechStream } from '../transcriptions/ports.js';
import { liveTranscript, type LiveTranscript } from './live-transcript.js';

export interface SessionTuning {
  /** Audio between partial checks, ms. Default 200. */
  partialIntervalMs: number;
  /** Continuous speech that forces a final, s (search cost grows with utterance length). Default 15. */
  maxUtteranceSec: number;
  /** Silence after which an open, wordless stretch is closed without a message, s. Default 4. */
  silenceRolloverSec: number;
}

export const DEFAULT_SESSION_TUNING: SessionTuning = { partialIntervalMs: 200, maxUtteranceSec: 15, silenceRolloverSec: 4 };

export interface RecognitionQueueDeps {
  stream: SpeechStream;
  endpointer: Endpointer;
  /** Endpointer used if the primary one fails at run time. */
  fallbackEndpointer: () => Endpointer;
  sampleRate: number;
  dictation: boolean;
  tuning: SessionTuning;
  /** Sends a transcript (the session drops it once it has ended). */
  emit(transcript: LiveTranscript): void;
  /** The primary endpointer failed and the fallback took over (for a log line; `err` carries no audio). */
  onEndpointerFailure?(err: unknown): void;
  /** After each chunk: back-pressure and the session's duration limit. */
  afterChunk(): void;
  /** Recognising a chunk failed; the queue goes on with what comes next (a final, usually). */
  onFailure(err: unknown): void;
}

export interface RecognitionQueue {
  /** Queues a decoded chunk (16 kHz mono PCM; not to be changed afterwards). */
  pushAudio(pcm: Int16Array): void;
  /**
   * Ends the current segment once everything queued before has been recognised. `always`: send a
   * final even without words when audio was heard (Finalize, endpoint); otherwise only when
   * words were heard or a partial was shown. Rejects when the recogniser fails.
   */
  finalize(always: boolean): Promise<void>;
  /** Forgets queued chunks (finals already asked for stay). */
  dropAudio(): void;
  /** Stops for good: waiting finals resolve without running, the running item finishes alone. */
  stop(): void;
  /** True while an item runs or waits. */
  readonly busy: boolean;
  readonly queuedSamples: number;
  /** Samples handed to the recogniser so far. */
  readonly fedSamples: number;
  readonly partials: number;
  readonly finals: number;
}

type Item =
  | { kind: 'audio'; pcm: Int16Array }
  | { kind: 'final'; always: boolean; resolve: () => void; reject: (err: unknown) => void };

/** Creates a session's queue. */
export function createRecognitionQueue(deps: RecognitionQueueDeps): RecognitionQueue {
  const { stream, sampleRate, tuning } = deps;
  const partialEvery = Math.round((tuning.partialIntervalMs * sampleRate) / 1000);
  const items: Item[] = [];
  let endpointer = deps.endpointer;
  let queuedSamples = 0;
  let running = false;
  let stopped = false;
  let fed = 0;
  let segStart = 0;
  let lastPartialCheck = 0;
  let lastPartialText = '';
  let partialShown = false;
  let partials = 0;
  let finals = 0;

  const accept = (pcm: Int16Array): Promise<void> => {
    if (stream.acceptAsync) return stream.acceptAsync(pcm);
    stream.accept(pcm);
    return Promise.resolve();
  };
  const finalizeUtterance = (): Promise<RecognitionResult> =>
    stream.finalizeUtteranceAsync ? stream.finalizeUtteranceAsync() : Promise.resolve(stream.finalizeUtterance());

  const endpoints = async (pcm: Int16Array): Promise<EndpointEvent[]> => {
    try {
      return await endpointer.push(pcm);
    } catch (err) {
      // The detector failed (model missing or broken): keep finals coming with the fallback.
      deps.onEndpointerFailure?.(err);
      endpointer = deps.fallbackEndpointer();
      return endpointer.push(pcm);
    }
  };

  const finalizeSegment = async (always: boolean): Promise<void> => {
    const result = await finalizeUtterance();
    if (stopped) return;
    const window = { start: segStart / sampleRate, end: fed / sampleRate };
    const hasAudio = fed > segStart;
    segStart = fed;
    lastPartialCheck = fed;
    lastPartialText = '';
    const shown = partialShown;
    partialShown = false;
    if (result.words.length > 0 || shown || (always && hasAudio)) {
      finals++;
      deps.emit(liveTranscript(result, window, { isFinal: true, dictation: deps.dictation }));
    }
  };

  const maybePartial = (): void => {
    if (fed - lastPartialCheck < partialEvery) return;
    lastPartialCheck = fed;
    const result = stream.partial();
    if (!result || result.words.length === 0) return;
    const msg = liveTranscript(result, { start: segStart / sampleRate, end: fed / sampleRate }, { isFinal: false, dictation: deps.dictation });
    if (msg.text === lastPartialText || msg.words.length === 0) return;
    lastPartialText = msg.text;
    partialShown = true;
    partials++;
    deps.emit(msg);
  };

  const recognise = async (pcm: Int16Array): Promise<void> => {
    // The recogniser (thread pool) and the detector (onnxruntime) work on the chunk side by side.
    const [, events] = await Promise.all([accept(pcm), endpoints(pcm)]);
    if (stopped) return;
    fed += pcm.length;
    let finalized = false;
    for (const e of events) {
      if (e.type === 'speech_end') {
        await finalizeSegment(true);
        finalized = true;
      }
    }
    const segSec = (fed - segStart) / sampleRate;
    if (!finalized && !endpointer.inSpeech && segSec >= tuning.silenceRolloverSec) await finalizeSegment(false);
    else if (!finalized && segSec >= tuning.maxUtteranceSec) await finalizeSegment(false);
    else if (!finalized) maybePartial();
  };

  const run = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      while (items.length > 0 && !stopped) {
        const item = items.shift()!;
        if (item.kind === 'audio') {
          queuedSamples -= item.pcm.length;
          try {
            await recognise(item.pcm);
          } catch (err) {
            deps.onFailure(err);
          }
          if (!stopped) deps.afterChunk();
        } else {
          try {
            await finalizeSegment(item.always);
            item.resolve();
          } catch (err) {
            item.reject(err);
          }
        }
      }
    } finally {
      running = false;
    }
  };

  return {
    pushAudio(pcm) {
      if (stopped) return;
      items.push({ kind: 'audio', pcm });
      queuedSamples += pcm.length;
      void run();
    },
    finalize(always) {
      if (stopped) return Promise.resolve();
      return new Promise((resolve, reject) => {
        items.push({ kind: 'final', always, resolve, reject });
        void run();
      });
    },
    dropAudio() {
      for (let i = items.length - 1; i >= 0; i--) if (items[i]!.kind === 'audio') items.splice(i, 1);
      queuedSamples = 0;
    },
    stop() {
      stopped = true;
      for (const item of items.splice(0)) if (item.kind === 'final') item.resolve();
      queuedSamples = 0;
    },
    get busy() {
      return running || items.length > 0;
    },
    get queuedSamples() {
      return queuedSamples;
    },
    get fedSamples() {
      return fed;
    },
    get partials() {
      return partials;
    },
    get finals() {
      return finals;
    },
  };
}
