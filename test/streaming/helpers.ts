/**
 * Helpers for the streaming tests: speech made on the spot with espeak-ng and ffmpeg, a real
 * Clindoc server, a second HTTP server carrying the streaming socket with chosen limits and the
 * embedded engine, and a WebSocket client that records every message.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { createStreamDecoder } from '../../main/engines/audio/index.js';
import { attachStreaming, type StreamingHandle, type StreamingLimits } from '../../main/server/streaming/attach.js';
import { createPocketsphinxRecognizer } from '../../main/engines/speech/pocketsphinx/index.js';
import { createEnergyEndpointer, createSileroVad } from '../../main/engines/vad/index.js';
import { startServer, type TestServer } from '../support/server.js';

export const DIGITS_TEXT = 'hello world. one two three four five six seven eight nine ten.';
export const DIGIT_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

export interface Audio {
  dir: string;
  /** 16 kHz mono WAV of `text` with `padSec` of silence before and after. */
  speak(name: string, text: string, padSec?: number): string;
  /** Re-encodes with ffmpeg; returns the file's bytes. */
  encode(src: string, name: string, args: string[]): Buffer;
  cleanup(): void;
}

export function createAudio(): Audio {
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-stream-'));
  const run = (bin: string, args: string[]): void => void execFileSync(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  return {
    dir,
    speak(name, text, padSec = 0.5) {
      const raw = join(dir, `${name}.espeak.wav`);
      run('espeak-ng', ['-v', 'en-us+m3', '-s', '140', '-w', raw, text]);
      const out = join(dir, `${name}.wav`);
      const ms = Math.round(padSec * 1000);
      run('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-af', `adelay=${ms},apad=pad_dur=${padSec}`, '-ar', '16000', '-ac', '1', out]);
      return out;
    },
    encode(src, name, args) {
      const out = join(dir, name);
      run('ffmpeg', ['-v', 'error', '-y', '-i', src, ...args, out]);
      return readFileSync(out);
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface Message {
  type: string;
  [key: string]: unknown;
}
export interface Word { word: string; start: number; end: number; confidence: number; punctuated_word: string }
export interface Transcript extends Message {
  audio_start: number; audio_end: number; duration: number; text: string; is_final: boolean; isFinal: boolean; words: Word[]; timestamp: string;
}

export interface Client {
  ws: WebSocket;
  messages: Message[];
  /** Resolves with the first message (from `from` on) that matches. */
  next(match: (m: Message) => boolean, from?: number): Promise<Message>;
  /** Resolves with the close code once the socket has closed. */
  closed: Promise<number>;
  sendJson(body: unknown): void;
  /** Sends bytes as `{audio}` messages of `chunk` bytes. */
  sendAudio(bytes: Buffer, chunk: number): void;
  transcripts(): Transcript[];
  errors(): string[];
}

/** Opens a socket and records everything; also settles when the HTTP upgrade is refused. */
export function connect(url: string, headers: Record<string, string> = {}): Client {
  const ws = new WebSocket(url, { headers });
  const messages: Message[] = [];
  const waiters: Array<() => void> = [];
  let done = false;
  ws.on('message', (data) => {
    messages.push(JSON.parse(String(data)) as Message);
    for (const w of waiters) w();
  });
  const closed = new Promise<number>((resolve) => {
    ws.on('close', (code) => {
      done = true;
      for (const w of waiters) w();
      resolve(code);
    });
    ws.on('unexpected-response', (_req, res) => {
      done = true;
      for (const w of waiters) w();
      resolve(-(res.statusCode ?? 0));
    });
    ws.on('error', () => undefined);
  });
  const next = (match: (m: Message) => boolean, from = 0): Promise<Message> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = messages.slice(from).find(match);
        if (found) resolve(found);
        else if (done) reject(new Error(`socket closed without the expected message; got ${messages.map((m) => m.type).join(',')}`));
        return Boolean(found) || done;
      };
      if (!check()) waiters.push(() => void check());
    });
  return {
    ws, messages, next, closed,
    sendJson: (body) => ws.send(JSON.stringify(body)),
    sendAudio(bytes, chunk) {
      for (let off = 0; off < bytes.length; off += chunk) ws.send(JSON.stringify({ audio: bytes.subarray(off, off + chunk).toString('base64') }));
    },
    transcripts: () => messages.filter((m) => m.type === 'transcript') as Transcript[],
    errors: () => messages.filter((m) => m.type === 'error').map((m) => String(m.error)),
  };
}

export interface StreamingServer {
  app: TestServer;
  /** Socket URL of the streaming server with the chosen limits (embedded engine). */
  url: (query?: string) => string;
  /** Socket URL of the composition's own server. */
  appUrl: (query?: string) => string;
  handle: StreamingHandle;
  keyHeaders(): Record<string, string>;
  close(): Promise<void>;
}

/**
 * The real Clindoc (accounts, tokens, its own socket) plus a second server whose socket uses the
 * embedded pocketsphinx engine with the general English model, real Silero VAD and `limits`.
 * Decoders are not pooled unless asked, so each session starts from a fresh decoder.
 */
export async function startStreaming(
  limits: Partial<StreamingLimits> = {},
  engine: { poolSize?: number; liveEngine?: (accountId: string) => Promise<string> } = {},
): Promise<StreamingServer> {
  const app = await startServer();
  const server: Server = createServer((_req, res) => res.writeHead(404).end());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as { port: number }).port;
  const recognizer = createPocketsphinxRecognizer({ medical: false, poolSize: engine.poolSize ?? 0 });
  const vad = createSileroVad();
  const handle = attachStreaming({
    server, logger: app.clindoc.logger, accounts: app.clindoc.accounts, port: () => port, allowedOrigins: ['http://allowed.example'],
    allowedHosts: [], recognizer: () => recognizer, vad: () => vad, fallbackEndpointer: createEnergyEndpointer, limits, createDecoder: (o) => createStreamDecoder(o),
    ...(engine.liveEngine ? { liveEngine: engine.liveEngine } : {}),
  });
  const path = '/v1/audio/transcriptions/stream';
  return {
    app, handle,
    url: (query = '') => `ws://127.0.0.1:${port}${path}${query ? `?${query}` : ''}`,
    appUrl: (query = '') => `ws://127.0.0.1:${app.port}${path}${query ? `?${query}` : ''}`,
    keyHeaders: () => ({ 'X-API-KEY': app.creds.apiKey, 'X-ACCOUNT-ID': app.creds.accountId }),
    async close() {
      await handle.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await recognizer.close();
      await vad.close();
      await app.close();
    },
  };
}

/** Process ids of this process's ffmpeg children (read from /proc). */
export function ffmpegChildren(): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const close = stat.lastIndexOf(')');
      const comm = stat.slice(stat.indexOf('(') + 1, close);
      const ppid = Number(stat.slice(close + 2).split(' ')[1]);
      if (ppid === process.pid && comm === 'ffmpeg') out.push(Number(entry));
    } catch {
      // the process ended while we looked
    }
  }
  return out;
}

/** Checks the word timing rules a client relies on; returns the problems found. */
export function timingProblems(t: Transcript, audioSeconds: number): string[] {
  const problems: string[] = [];
  let prevStart = -1;
  for (const w of t.words) {
    if (!(w.start >= 0 && w.end >= w.start)) problems.push(`bad span ${w.start}-${w.end}`);
    if (w.start < t.audio_start - 0.011 || w.end > t.audio_end + 0.011) problems.push(`word outside window ${w.start}-${w.end} of ${t.audio_start}-${t.audio_end}`);
    if (w.end > audioSeconds + 0.05) problems.push(`word after the audio ends: ${w.end}`);
    if (w.start < prevStart) problems.push('words out of order');
    if (!(w.confidence >= 0 && w.confidence <= 1)) problems.push(`confidence ${w.confidence}`);
    prevStart = w.start;
  }
  if (Math.abs(t.duration - (t.audio_end - t.audio_start)) > 0.002) problems.push('duration is not audio_end - audio_start');
  return problems;
}
