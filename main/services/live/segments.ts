/**
 * When a live session's segments end and what its partials and finals say. Each decoded chunk goes
 * through the recogniser and the endpointer; a segment ends on the endpointer's `speech_end`; when
 * a wordless stretch outside speech reaches `silenceRolloverSec` (quietly); when an utterance
 * reaches `maxUtteranceSec`; and when the session asks (`finalize`). A segment that showed a
 * partial always gets its final. The order in which chunks and finals arrive here is the session
 * queue's business (session-queue.ts): this module is called one item at a time.
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

export interface SegmenterDeps {
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
}

export interface Segmenter {
  /** Recognises one decoded chunk and ends the segment where the rules say. */
  recognise(pcm: Int16Array): Promise<void>;
  /** Ends the current segment: `always` sends a final without words when audio was heard. */
  finalize(always: boolean): Promise<void>;
  /** Results that come back after this are dropped. */
  stop(): void;
  /** Samples handed to the recogniser so far. */
  readonly fedSamples: number;
  readonly partials: number;
  readonly finals: number;
}

/** The stream's async call where it has one (pocketsphinx on libuv's thread pool), else the sync one. */
function accept(stream: SpeechStream, pcm: Int16Array): Promise<void> {
  if (stream.acceptAsync) return stream.acceptAsync(pcm);
  stream.accept(pcm);
  return Promise.resolve();
}

function finalizeUtterance(stream: SpeechStream): Promise<RecognitionResult> {
  return stream.finalizeUtteranceAsync ? stream.finalizeUtteranceAsync() : Promise.resolve(stream.finalizeUtterance());
}

/** Creates one session's segment rules. */
export function createSegmenter(deps: SegmenterDeps): Segmenter {
  const { stream, sampleRate, tuning } = deps;
  const partialEvery = Math.round((tuning.partialIntervalMs * sampleRate) / 1000);
  let endpointer = deps.endpointer;
  let stopped = false;
  let fed = 0;
  let segStart = 0;
  let lastPartialCheck = 0;
  let lastPartialText = '';
  let partialShown = false;
  const counts = { partials: 0, finals: 0 };
  const window = (): { start: number; end: number } => ({ start: segStart / sampleRate, end: fed / sampleRate });

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

  const finalize = async (always: boolean): Promise<void> => {
    const result = await finalizeUtterance(stream);
    if (stopped) return;
    const heard = window();
    const hasAudio = fed > segStart;
    segStart = fed;
    lastPartialCheck = fed;
    lastPartialText = '';
    const shown = partialShown;
    partialShown = false;
    if (result.words.length > 0 || shown || (always && hasAudio)) {
      counts.finals++;
      deps.emit(liveTranscript(result, heard, { isFinal: true, dictation: deps.dictation }));
    }
  };

  const maybePartial = (): void => {
    if (fed - lastPartialCheck < partialEvery) return;
    lastPartialCheck = fed;
    const result = stream.partial();
    if (!result || result.words.length === 0) return;
    const msg = liveTranscript(result, window(), { isFinal: false, dictation: deps.dictation });
    if (msg.text === lastPartialText || msg.words.length === 0) return;
    lastPartialText = msg.text;
    partialShown = true;
    counts.partials++;
    deps.emit(msg);
  };

  const recognise = async (pcm: Int16Array): Promise<void> => {
    // The recogniser (thread pool) and the detector (onnxruntime) work on the chunk side by side.
    const [, events] = await Promise.all([accept(stream, pcm), endpoints(pcm)]);
    if (stopped) return;
    fed += pcm.length;
    if (events.some((e) => e.type === 'speech_end')) {
      for (const e of events) if (e.type === 'speech_end') await finalize(true);
      return;
    }
    const segSec = (fed - segStart) / sampleRate;
    if ((!endpointer.inSpeech && segSec >= tuning.silenceRolloverSec) || segSec >= tuning.maxUtteranceSec) await finalize(false);
    else maybePartial();
  };

  return {
    recognise,
    finalize,
    stop() {
      stopped = true;
    },
    get fedSamples() {
      return fed;
    },
    get partials() {
      return counts.partials;
    },
    get finals() {
      return counts.finals;
    },
  };
}
