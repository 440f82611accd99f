/** Limits of the streaming socket (API-DECISIONS "Streaming"; values documented in docs/streaming.md). */
export interface StreamingLimits {
  /** Largest client frame, bytes (the JSON text with its base64). Larger frames are dropped with an error. Default 1 MiB. */
  maxMessageBytes: number;
  /** Audio one session may send, seconds; then an error and close 1008. Default 7200 (2 h). */
  maxSessionSeconds: number;
  /** Seconds with neither audio nor KeepAlive before the session is closed (1008). Default 30. */
  idleTimeoutSeconds: number;
  /** Open sessions per account; one more gets an error and close 1008. Default 6. */
  maxSessionsPerAccount: number;
  /** Audio received but not yet recognised, seconds, before chunks are dropped (reading pauses at half). Default 10. */
  maxBufferedSeconds: number;
}

export const DEFAULT_STREAMING_LIMITS: StreamingLimits = {
  maxMessageBytes: 1024 * 1024,
  maxSessionSeconds: 7200,
  idleTimeoutSeconds: 30,
  maxSessionsPerAccount: 6,
  maxBufferedSeconds: 10,
};
