/**
 * The rules of a live transcription session, apart from any socket: the session's one queue and
 * the order of its work (session-queue.ts), when segments end and what a partial or final says
 * (segments.ts, live-transcript.ts), how much audio a session holds before pushing back
 * (flow-control.ts), the decoder port (ports.ts), and which endpointer a session gets. The
 * WebSocket protocol layer (main/server/streaming/) applies them.
 */
import type { Endpointer, EndpointerFactory, EndpointingDetector, EndpointingOptions } from '../transcriptions/ports.js';

export { createSessionQueue, type SessionQueue, type SessionQueueDeps } from './session-queue.js';
export { createSegmenter, DEFAULT_SESSION_TUNING, type Segmenter, type SegmenterDeps, type SessionTuning } from './segments.js';
export type { StreamDecoder, StreamDecoderFactory, StreamDecoderParams } from './ports.js';
export { liveTranscript, type LiveTranscript } from './live-transcript.js';
export { acceptsChunk, readingPaused, type Backlog, type FlowLimits } from './flow-control.js';

/** 400 ms of silence ends an utterance (most of a final's latency); 96 ms of speech starts one. */
export const DEFAULT_ENDPOINTING: EndpointingOptions = { endSilenceMs: 400, minSpeechMs: 96 };

/**
 * A session's endpointer: the detector's own when there is a detector (Silero), else the fallback
 * (energy). The session's segment rules switch to the fallback if the detector fails later.
 */
export function sessionEndpointer(detector: EndpointingDetector | undefined, fallback: EndpointerFactory, options: EndpointingOptions): Endpointer {
  return detector ? detector.createEndpointer(options) : fallback(options);
}
