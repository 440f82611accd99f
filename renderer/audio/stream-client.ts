import type { StreamMessage } from '../api/types.js';

export type StreamState = 'connecting' | 'open' | 'reconnecting' | 'closed';

/** The parts of the browser WebSocket the client uses (tests hand in a real `ws` socket). */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  onclose: ((ev: { code: number }) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  send(data: string): void;
  close(code?: number): void;
}

export interface StreamClientDeps {
  /** A fresh socket URL each time (a new temporary token per connection). */
  connectUrl(): Promise<string>;
  openSocket?(url: string): SocketLike;
  /** Every server message, with the index of the first audio sample sent on that connection. */
  onMessage(message: StreamMessage, audioBaseSample: number): void;
  onState(state: StreamState): void;
  /** Errors to show; the session goes on (contract streaming rule 3). */
  onError(message: string): void;
  /** Audio kept while disconnected, in 16 kHz samples; the oldest is dropped beyond it. Default 30 s. */
  maxBufferedSamples?: number;
  /** Waits before successive reconnection attempts; the last repeats. */
  retryDelaysMs?: number[];
  setTimer?(fn: () => void, ms: number): unknown;
}

export interface StreamClient {
  start(): void;
  /** Queues `linear16` bytes; sent once the server said `connected`. */
  sendAudio(bytes: Uint8Array, base64: string): void;
  /** Flushes (`CloseStream`), waits for the last finals and closes; no reconnection after. */
  stop(timeoutMs?: number): Promise<void>;
  state(): StreamState;
}

const OPEN = 1;

/**
 * The live-transcription socket with the contract's rules: audio only after `connected`;
 * `error` messages are surfaced and the session continues; an unexpected close reconnects with
 * backoff and a new token, and audio captured meanwhile is sent on the new connection, so no
 * dictated words and no text already received are lost.
 */
export function createStreamClient(deps: StreamClientDeps): StreamClient {
  const open = deps.openSocket ?? ((url: string) => new WebSocket(url) as unknown as SocketLike);
  const setTimer = deps.setTimer ?? ((fn: () => void, ms: number) => setTimeout(fn, ms));
  const delays = deps.retryDelaysMs ?? [250, 1000, 2000, 4000];
  const maxBuffered = deps.maxBufferedSamples ?? 16_000 * 30;
  let socket: SocketLike | undefined;
  let connected = false;
  let state: StreamState = 'closed';
  let stopping = false;
  let attempt = 0;
  let sentSamples = 0; // samples sent over every connection so far
  let base = 0; // first sample of the current connection
  const pending: { base64: string; samples: number }[] = [];
  let pendingSamples = 0;
  let onStopped: (() => void) | undefined;

  const setState = (s: StreamState): void => {
    state = s;
    deps.onState(s);
  };
  const flush = (): void => {
    while (connected && socket && socket.readyState === OPEN && pending.length > 0) {
      const chunk = pending.shift()!;
      pendingSamples -= chunk.samples;
      socket.send(JSON.stringify({ audio: chunk.base64 }));
      sentSamples += chunk.samples;
    }
  };
  const scheduleReconnect = (): void => {
    const wait = delays[Math.min(attempt, delays.length - 1)]!;
    attempt++;
    setState('reconnecting');
    setTimer(() => void connect(), wait);
  };
  async function connect(): Promise<void> {
    if (stopping) return;
    let url: string;
    try {
      url = await deps.connectUrl();
    } catch (err) {
      deps.onError(`Could not reach the transcription service: ${(err as Error).message}`);
      scheduleReconnect();
      return;
    }
    if (stopping) return;
    const ws = open(url);
    socket = ws;
    connected = false;
    ws.onmessage = (ev) => {
      let message: StreamMessage;
      try {
        message = JSON.parse(String(ev.data)) as StreamMessage;
      } catch {
        return;
      }
      if (message.type === 'status' && message.status === 'connected') {
        connected = true;
        attempt = 0;
        base = sentSamples;
        setState('open');
        flush();
      }
      if (message.type === 'error') deps.onError(message.error);
      deps.onMessage(message, base);
    };
    ws.onerror = () => undefined; // the close event follows and decides
    ws.onclose = (ev) => {
      if (socket !== ws) return;
      connected = false;
      socket = undefined;
      if (stopping) {
        setState('closed');
        onStopped?.();
        return;
      }
      if (ev.code !== 1000) deps.onError(`The transcription connection closed (code ${ev.code}); reconnecting.`);
      scheduleReconnect();
    };
  }

  return {
    start() {
      stopping = false;
      attempt = 0;
      setState('connecting');
      void connect();
    },
    sendAudio(bytes, base64) {
      const samples = bytes.length / 2;
      pending.push({ base64, samples });
      pendingSamples += samples;
      while (pendingSamples > maxBuffered && pending.length > 1) pendingSamples -= pending.shift()!.samples;
      flush();
    },
    // The server closes the socket once the last finals are sent; the bound only ends a stop whose
    // server never answers. At 5 s a busy computer was still recognising the last sentence and its
    // words were dropped (the dictate-anywhere test, two suites on two cores).
    stop(timeoutMs = 60_000) {
      stopping = true;
      const ws = socket;
      if (!ws || ws.readyState !== OPEN) {
        ws?.close();
        socket = undefined;
        setState('closed');
        return Promise.resolve();
      }
      flush();
      return new Promise<void>((resolve) => {
        let done = false;
        const finish = (): void => {
          if (done) return;
          done = true;
          resolve();
        };
        onStopped = finish;
        ws.send(JSON.stringify({ type: 'CloseStream' }));
        setTimer(() => {
          if (done) return;
          ws.close();
          socket = undefined;
          setState('closed');
          finish();
        }, timeoutMs);
      });
    },
    state: () => state,
  };
}
