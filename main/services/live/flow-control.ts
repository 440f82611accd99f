/**
 * How much audio a live session holds before it pushes back (docs/streaming.md, "Limits"). Past
 * half of `maxBufferedSeconds` of audio not yet recognised, or two messages' worth of bytes not
 * yet decoded, the session stops reading the socket (TCP pushes back on the client); it reads
 * again below a quarter and one message's worth. What still arrives past the full limit (or eight
 * messages' worth of bytes) is dropped, so memory stays bounded whatever the client does.
 */

export interface FlowLimits {
  /** Audio received but not yet recognised, seconds. */
  maxBufferedSeconds: number;
  /** Largest client message, bytes: the unit of the byte thresholds. */
  maxMessageBytes: number;
}

/** What a session holds right now. */
export interface Backlog {
  /** Decoded audio waiting for the recogniser, seconds. */
  queuedSeconds: number;
  /** Audio bytes received and not yet decoded. */
  pendingBytes: number;
}

/** Whether reading should be paused after this change, given whether it is paused now (hysteresis). */
export function readingPaused(paused: boolean, backlog: Backlog, limits: FlowLimits): boolean {
  if (!paused) return backlog.queuedSeconds > limits.maxBufferedSeconds / 2 || backlog.pendingBytes > limits.maxMessageBytes * 2;
  return !(backlog.queuedSeconds < limits.maxBufferedSeconds / 4 && backlog.pendingBytes < limits.maxMessageBytes);
}

/** Whether an audio chunk of `bytes` is taken in (false: dropped, and the client told). */
export function acceptsChunk(backlog: Backlog, bytes: number, limits: FlowLimits): boolean {
  return backlog.queuedSeconds <= limits.maxBufferedSeconds && backlog.pendingBytes + bytes <= limits.maxMessageBytes * 8;
}
