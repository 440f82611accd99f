/**
 * Dictate anywhere from speech to the focused window, without Electron: synthetic speech (espeak-ng)
 * plays the microphone of the dictation bar's session (renderer/dictation-bar-session.ts), which
 * streams it to a real local API; the finals it reports drive the decision logic
 * (main/services/dictation/dictate-anywhere.ts), whose typer types them into an xterm under Xvfb.
 * Only the Electron glue between these pieces (IPC, the global shortcut) is left out.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import WebSocket from 'ws';
import { startServer, type TestServer } from '../support/server.js';
import { speechWav } from '../support/audio.js';
import { createApiClient } from '../../renderer/api/client.js';
import { createStreamClient, type SocketLike } from '../../renderer/audio/stream-client.js';
import { createBarSession } from '../../renderer/dictation-bar-session.js';
import { createDictateAnywhere, joinFinal } from '../../main/services/dictation/dictate-anywhere.js';
import { chooseTextTyper } from '../../main/typing/choose-typer.js';
import { findExecutable } from '../../main/typing/run-tool.js';
import type { TextTyper } from '../../main/services/dictation/typing-port.js';
import type { BarEvent } from '../../shared/dictation-bar-bridge.js';
import { missingTools, openTextWindow, startXvfb, until, type XSession } from './x-session.js';

const speechTools = ['espeak-ng', 'ffmpeg'].filter((t) => !findExecutable(t));
const reason = speechTools.length ? `${speechTools.join(', ')} not installed` : missingTools();
if (reason) console.warn(`[speech to window] skipped: ${reason}`);

/** The WAV's samples as the microphone would hand them over: 16 kHz floats in 100 ms pieces, then a second of silence. */
function microphoneFrom(wav: Buffer): Float32Array[] {
  const data = wav.indexOf('data', 12) + 8; // ffmpeg writes a LIST chunk before the samples, so the header is not always 44 bytes
  const length = wav.readUInt32LE(data - 4) & ~1;
  const pcm = new Int16Array(wav.buffer.slice(wav.byteOffset + data, wav.byteOffset + data + length));
  const all = new Float32Array(pcm.length + 16_000);
  for (let i = 0; i < pcm.length; i++) all[i] = pcm[i]! / 0x8000;
  const pieces: Float32Array[] = [];
  for (let i = 0; i < all.length; i += 1600) pieces.push(all.subarray(i, i + 1600));
  return pieces;
}

describe.skipIf(Boolean(reason))('dictate anywhere: speech to the cursor of the focused window', () => {
  let server: TestServer;
  let x: XSession;
  beforeAll(async () => {
    server = await startServer();
    x = await startXvfb();
  });
  afterAll(async () => {
    await x?.close();
    await server?.close();
  });

  it('types what the physician said, final by final, into the focused X window', { timeout: 120_000 }, async () => {
    const choice = await chooseTextTyper({ platform: 'linux', env: x.env });
    const typer = (choice as { typer: TextTyper }).typer;
    const events: BarEvent[] = [];
    const client = createApiClient({ baseUrl: server.base, ...server.creds });
    const session = createBarSession({
      client: async () => client,
      prefs: () => ({ language: 'en', formatting: true }),
      createStream: (d) => createStreamClient({ ...d, openSocket: (url) => new WebSocket(url) as unknown as SocketLike }),
      startCapture: async (o) => {
        for (const piece of microphoneFrom(speechWav('blood pressure is one twenty over eighty. the patient has a mild fever.').bytes)) o.onAudio(piece);
        return { sampleRate: 16_000, deviceLabel: 'espeak-ng', stop: async () => undefined };
      },
      report: (e) => {
        events.push(e);
        d.dispatch(e);
      },
    });
    const d = createDictateAnywhere({
      typer,
      bar: {
        show: () => undefined,
        hide: () => undefined,
        startCapture: () => void session.start(),
        stopCapture: () => void session.stop(),
        render: () => undefined,
        copy: () => undefined,
      },
    });
    const win = await openTextWindow(x);
    try {
      d.dispatch({ type: 'shortcut' });
      await until(() => events.some((e) => e.type === 'capture-started'), 10_000, 'the microphone to open');
      d.dispatch({ type: 'shortcut' });
      await until(() => d.state().phase === 'idle', 60_000, 'the last finals to be typed');

      const finals = events.filter((e): e is Extract<BarEvent, { type: 'final' }> => e.type === 'final').map((e) => e.text.trim()).filter(Boolean);
      expect(finals.length).toBeGreaterThan(0);
      // pocketsphinx on espeak-ng's voice gets few words right, but dictation formatting turns
      // "one twenty over eighty" into the reading a chart wants.
      expect(finals.join(' ')).toMatch(/120\/80/);
      let tail = '';
      const expected = finals.map((f) => {
        const piece = joinFinal(tail, f);
        tail = piece.slice(-1);
        return piece;
      }).join('');
      expect(await win.waitFor(expected)).toBe(expected);
      expect(events.at(-1)).toEqual({ type: 'capture-stopped' });
    } finally {
      await win.close();
    }
  });
});
