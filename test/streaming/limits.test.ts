import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { createStreamDecoder } from '../../main/engines/audio/index.js';
import { createPocketsphinxRecognizer } from '../../main/engines/speech/pocketsphinx/index.js';
import { createEnergyEndpointer, createSileroVad } from '../../main/engines/vad/index.js';
import { createStreamSession } from '../../main/server/streaming/session.js';
import { DEFAULT_STREAMING_LIMITS } from '../../main/server/streaming/limits.js';
import type { ServerMessage } from '../../main/server/streaming/messages.js';
import { connect, createAudio, DIGITS_TEXT, startStreaming, type Audio, type StreamingServer, type Transcript } from './helpers.js';
import { waitFor } from '../support/server.js';

describe('streaming limits', () => {
  let s: StreamingServer;
  let audio: Audio;
  let pcm: Buffer;
  beforeAll(async () => {
    audio = createAudio();
    pcm = audio.encode(audio.speak('digits', DIGITS_TEXT), 'digits.raw', ['-f', 's16le', '-ar', '16000', '-ac', '1']);
    s = await startStreaming({ maxMessageBytes: 8192, idleTimeoutSeconds: 1, maxSessionsPerAccount: 1, maxSessionSeconds: 2 });
  });
  afterAll(async () => {
    await s?.close();
    audio?.cleanup();
  });

  it('drops an oversized message with an error and goes on', async () => {
    // Its own server, with no idle limit to race: on a loaded machine the shared server's one-second idle
    // limit could end the session before its CloseStream is read (1008 instead of 1000).
    const roomy = await startStreaming({ maxMessageBytes: 8192, idleTimeoutSeconds: 120 });
    try {
      const c = connect(roomy.url('encoding=linear16'), roomy.keyHeaders());
      await c.next((m) => m.status === 'connected');
      c.sendJson({ audio: pcm.subarray(0, 16000).toString('base64') });
      await c.next((m) => m.type === 'error');
      c.sendJson({ type: 'CloseStream' });
      expect(await c.closed).toBe(1000);
      expect(c.errors()[0]).toMatch(/exceeds the limit of 8192 bytes/);
      expect(c.messages[c.messages.length - 1]!.status).toBe('disconnected');
    } finally {
      await roomy.close();
    }
  });

  it('closes an idle session: error, disconnected, 1008', async () => {
    const c = connect(s.url('encoding=linear16'), s.keyHeaders());
    expect(await c.closed).toBe(1008);
    expect(c.messages.map((m) => m.type === 'error' ? 'error' : m.status)).toEqual(['connected', 'error', 'disconnected']);
    expect(c.errors()[0]).toMatch(/KeepAlive/);
  });

  it('limits concurrent sessions per account', async () => {
    const first = connect(s.url('encoding=linear16'), s.keyHeaders());
    await first.next((m) => m.status === 'connected');
    const second = connect(s.url('encoding=linear16'), s.keyHeaders());
    expect(await second.closed).toBe(1008);
    expect(second.errors()[0]).toMatch(/open streaming sessions/);
    first.sendJson({ type: 'CloseStream' });
    await first.closed;
    const third = connect(s.url('encoding=linear16'), s.keyHeaders());
    await third.next((m) => m.status === 'connected');
    third.sendJson({ type: 'CloseStream' });
    expect(await third.closed).toBe(1000);
  });

  it('holds the per-account limit for sessions that start at the same moment, while the engine choice is read', async () => {
    // The account's engine is read from a database server: it answers nobody until both sessions are
    // waiting for it (or one of them was refused without asking), so both are being set up at once
    // by construction rather than by a delay that a loaded machine may or may not overlap.
    let asking = 0;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = await startStreaming({ maxSessionsPerAccount: 1 }, {
      liveEngine: async () => {
        if (++asking === 2) release();
        await released;
        return 'pocketsphinx';
      },
    });
    try {
      const both = [connect(slow.url('encoding=linear16'), slow.keyHeaders()), connect(slow.url('encoding=linear16'), slow.keyHeaders())];
      void Promise.race(both.map((c) => c.closed)).then(release);
      const outcomes = await Promise.all(both.map((c) => c.next((m) => m.status === 'connected').then(() => 'connected', async () => `closed ${await c.closed}`)));
      expect([...outcomes].sort()).toEqual(['closed 1008', 'connected']);
      expect(both[outcomes.indexOf('closed 1008')]!.errors()[0]).toMatch(/open streaming sessions/);
      const other = both[outcomes.indexOf('connected')]!;
      other.sendJson({ type: 'CloseStream' });
      expect(await other.closed).toBe(1000);
    } finally {
      await slow.close();
    }
  });

  it('ends a session at its duration limit with the words heard so far', async () => {
    const c = connect(s.url('encoding=linear16'), s.keyHeaders());
    await c.next((m) => m.status === 'connected');
    c.sendAudio(pcm, 3200);
    expect(await c.closed).toBe(1008);
    expect(c.errors()[0]).toMatch(/maximum of 2 s/);
    const finals = c.transcripts().filter((t) => t.is_final);
    expect(finals.length).toBeGreaterThan(0);
    expect(Math.max(...finals.map((t) => t.audio_end))).toBeLessThanOrEqual(2.1);
    expect(c.messages[c.messages.length - 1]!.status).toBe('disconnected');
  });

  it('sends disconnected and 1001 to open sessions when the server shuts down', async () => {
    const other = await startStreaming();
    const c = connect(other.url('encoding=linear16'), other.keyHeaders());
    await c.next((m) => m.status === 'connected');
    await other.close();
    expect(await c.closed).toBe(1001);
    expect(c.messages[c.messages.length - 1]!.status).toBe('disconnected');
  });

  it('sends 1001 to a socket whose session was still being set up when the server shut down', async () => {
    // The account's engine choice is held back until after the shutdown, as a slow database would.
    let engineAsked!: () => void;
    const asked = new Promise<void>((resolve) => (engineAsked = resolve));
    let answer!: () => void;
    const gate = new Promise<void>((resolve) => (answer = resolve));
    const other = await startStreaming({}, {
      liveEngine: async () => {
        engineAsked();
        await gate;
        return 'pocketsphinx';
      },
    });
    const c = connect(other.url('encoding=linear16'), other.keyHeaders());
    await asked;
    const closing = other.handle.close();
    expect(await c.closed).toBe(1001);
    answer();
    await closing;
    await other.close();
    expect(c.messages.map((m) => m.status)).not.toContain('connected');
    expect(other.handle.activeSessions()).toBe(0);
  });
});

describe('back-pressure', () => {
  it('keeps the audio waiting for recognition bounded when a client sends far faster than real time', async () => {
    const audio = createAudio();
    const speech = audio.encode(audio.speak('digits', DIGITS_TEXT), 'digits.raw', ['-f', 's16le', '-ar', '16000', '-ac', '1']);
    const recognizer = createPocketsphinxRecognizer({ medical: false, poolSize: 0 });
    const vad = createSileroVad();
    const sent: ServerMessage[] = [];
    let pauses = 0;
    let resumes = 0;
    let ended = false;
    const limits = { ...DEFAULT_STREAMING_LIMITS, maxBufferedSeconds: 2 };
    const session = createStreamSession({
      socket: { send: (m) => sent.push(m), close: () => undefined, pause: () => pauses++, resume: () => resumes++ },
      createDecoder: () => createStreamDecoder({ encoding: 'linear16', sampleRate: 16000 }),
      stream: recognizer.createStream({ language: 'en' }),
      endpointer: vad.createEndpointer({ endSilenceMs: 400 }),
      fallbackEndpointer: () => createEnergyEndpointer({ endSilenceMs: 400, minSpeechMs: 96 }),
      limits, dictation: false, container: false, sampleRate: 16000, logger: pino({ level: 'silent' }),
      onEnd: () => {
        ended = true;
      },
    });
    // 30 s of speech in one burst: this caller ignores pause(), as a flood of frames already
    // in flight would.
    for (let k = 0; k < 6; k++) {
      for (let off = 0; off < speech.length; off += 3200) {
        session.receive(Buffer.from(JSON.stringify({ audio: speech.subarray(off, off + 3200).toString('base64') })), false);
      }
    }
    const stats = session.stats();
    expect(pauses).toBe(1);
    expect(stats.peakQueuedSeconds).toBeLessThanOrEqual(limits.maxBufferedSeconds + 0.1);
    expect(stats.droppedChunks).toBeGreaterThan(0);
    expect(sent.filter((m) => m.type === 'error').every((m) => m.type === 'error' && /faster than it can be transcribed/.test(m.error))).toBe(true);
    await waitFor(async () => (session.stats().queuedSeconds === 0 ? true : undefined));
    expect(resumes).toBe(1);
    // What was kept is transcribed.
    expect(sent.some((m) => m.type === 'transcript' && (m as unknown as Transcript).words.length > 0)).toBe(true);
    await session.shutdown(1000, 'done');
    expect(ended).toBe(true);
    await recognizer.close();
    await vad.close();
    audio.cleanup();
  });
});
