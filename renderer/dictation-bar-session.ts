import type { ApiClient } from './api/client.js';
import type { StreamMessage } from './api/types.js';
import type { Capture, CaptureOptions } from './audio/capture.js';
import { createChunkSender } from './audio/pcm.js';
import type { StreamClient, StreamClientDeps, StreamState } from './audio/stream-client.js';
import type { BarEvent } from '../shared/dictation-bar-bridge.js';

export interface BarSessionDeps {
  /** A client for the local API, or undefined when there are no credentials yet. */
  client(): Promise<ApiClient | undefined>;
  startCapture(options: CaptureOptions): Promise<Capture>;
  createStream(deps: StreamClientDeps): StreamClient;
  /** Recognition language and dictation formatting, as the physician set them in the app. */
  prefs(): { language: string; formatting: boolean };
  /** Everything the main process needs to know (it decides what to do with it). */
  report(event: BarEvent): void;
}

export interface BarSession {
  start(): Promise<void>;
  /** Closes the microphone, sends the rest, waits for the last finals, then reports `capture-stopped`. */
  stop(): Promise<void>;
}

/**
 * How long a stop waits for a connection still being made: it ends as soon as the socket opens or
 * fails, so this only bounds a connection that hangs. At 5 s, a busy computer (two test suites on two
 * cores) opened the socket after the physician's stop and every word said was dropped.
 */
const CONNECT_GRACE_MS = 30_000;

/**
 * The dictation bar's microphone session: capture -> 16 kHz linear16 -> the local API's streaming
 * socket, each partial and final reported to the main process, which types finals where the
 * cursor is. No text is kept here and nothing is decided here.
 */
export function createBarSession(deps: BarSessionDeps): BarSession {
  let capture: Capture | undefined;
  let stream: StreamClient | undefined;
  let running = false;
  let starting: Promise<void> | undefined;
  let streamState: StreamState = 'closed';
  let onStreamState: (() => void) | undefined;
  // In the same 100 ms messages as the main window sends.
  const chunks = createChunkSender((bytes, base64) => stream?.sendAudio(bytes, base64));

  const connectedOrTimeout = (ms: number): Promise<void> =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done(): void {
        clearTimeout(timer);
        onStreamState = undefined;
        resolve();
      }
      onStreamState = () => {
        if (streamState === 'open' || streamState === 'closed') done();
      };
    });

  const onMessage = (m: StreamMessage): void => {
    if (m.type !== 'transcript') return;
    deps.report(m.is_final ? { type: 'final', text: m.text } : { type: 'partial', text: m.text });
  };

  async function open(): Promise<void> {
    if (running) return;
    running = true;
    const client = await deps.client();
    if (!client) {
      running = false;
      deps.report({ type: 'capture-failed', message: 'Clindoc has no credentials for its local API yet: open the app once and connect.' });
      return;
    }
    const { language, formatting } = deps.prefs();
    stream = deps.createStream({
      connectUrl: () => client.streamUrl({ language, dictation: formatting, sampleRate: 16_000 }),
      onMessage,
      onState: (state) => {
        streamState = state;
        onStreamState?.();
      },
      // Connection trouble is retried by the stream client; audio meanwhile is kept and sent later.
      onError: () => undefined,
    });
    try {
      capture = await deps.startCapture({
        onAudio: (samples) => chunks.push(samples),
        onLevel: () => undefined,
      });
    } catch (err) {
      running = false;
      stream = undefined;
      const name = (err as { name?: string }).name;
      deps.report({
        type: 'capture-failed',
        message: name === 'NotAllowedError' ? 'Microphone access was refused. Allow it in the system settings.' : `The microphone could not be opened: ${(err as Error).message}`,
      });
      return;
    }
    stream.start();
    deps.report({ type: 'capture-started' });
  }

  return {
    start() {
      starting ??= open().finally(() => (starting = undefined));
      return starting;
    },
    async stop() {
      await starting; // a stop pressed while the microphone is still opening waits for it, then closes it
      if (!running) {
        deps.report({ type: 'capture-stopped' });
        return;
      }
      running = false;
      const c = capture;
      capture = undefined;
      await c?.stop().catch(() => undefined);
      chunks.flush();
      // Audio spoken before the socket connected is queued in the stream client; give the connection
      // a moment so those words are recognised rather than dropped by an early stop.
      if (streamState === 'connecting' || streamState === 'reconnecting') await connectedOrTimeout(CONNECT_GRACE_MS);
      await stream?.stop();
      stream = undefined;
      deps.report({ type: 'capture-stopped' });
    },
  };
}
