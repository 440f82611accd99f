/**
 * `clindoc stream FILE`: the reference client of the live transcription socket, and the worked
 * example in docs/streaming.md. It streams a file at real-time pace (100 ms chunks, as a
 * microphone would) and prints each partial and final line as it arrives.
 *
 * With `encoding` the file is raw audio of that encoding and is sent byte for byte; without it
 * the file is container audio (WAV, WebM, Ogg...) that the server identifies from its header.
 */
import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { WebSocket } from 'ws';

export interface StreamFileOptions {
  file: string;
  /** Server base (`ws://127.0.0.1:8080`) or the full socket URL. */
  url: string;
  apiKey?: string;
  token?: string;
  accountId: string;
  encoding?: string;
  sampleRate?: number;
  dictation?: boolean;
  /** Pace chunks at real time (default true); false sends as fast as the socket drains. */
  realtime?: boolean;
  out: (line: string) => void;
}

const STREAM_PATH = '/v1/audio/transcriptions/stream';
const CHUNK_SEC = 0.1;
const BYTES_PER_SAMPLE: Record<string, number> = { linear16: 2, linear32: 4, alaw: 1, mulaw: 1 };

/** Bytes per second of a WAV file, from its `fmt ` chunk; undefined when it is not a WAV. */
export function wavByteRate(bytes: Buffer): number | undefined {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 4) !== 'RIFF' || bytes.toString('latin1', 8, 12) !== 'WAVE') return undefined;
  for (let off = 12; off + 8 <= bytes.length;) {
    const id = bytes.toString('latin1', off, off + 4);
    const size = bytes.readUInt32LE(off + 4);
    if (id === 'fmt ' && off + 16 <= bytes.length) return bytes.readUInt32LE(off + 16);
    off += 8 + size + (size & 1);
  }
  return undefined;
}

/** Duration of a media file through ffprobe, or undefined when ffprobe cannot say. */
function probeSeconds(file: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    execFile('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', file], (err, stdout) => {
      const s = Number(String(stdout).trim());
      resolve(err || !Number.isFinite(s) || s <= 0 ? undefined : s);
    });
  });
}

/** Bytes that make one second of the file's audio, so chunks can be paced at real time. */
async function byteRate(options: StreamFileOptions, bytes: Buffer): Promise<number> {
  const enc = options.encoding;
  if (enc && BYTES_PER_SAMPLE[enc]) return BYTES_PER_SAMPLE[enc]! * (options.sampleRate ?? 16000);
  const wav = enc ? undefined : wavByteRate(bytes);
  if (wav) return wav;
  const seconds = await probeSeconds(options.file);
  // Unknown length: 32 kB/s is 16 kHz linear16, a conservative pace for compressed audio.
  return seconds ? bytes.length / seconds : 32000;
}

/** The socket URL with the session parameters (and, for a token, the query credentials). */
export function streamUrl(options: StreamFileOptions): string {
  const base = new URL(options.url);
  if (!base.pathname.endsWith(STREAM_PATH)) base.pathname = base.pathname.replace(/\/$/, '') + STREAM_PATH;
  const q = base.searchParams;
  if (options.encoding) q.set('encoding', options.encoding);
  if (options.sampleRate) q.set('sample_rate', String(options.sampleRate));
  if (options.dictation) q.set('dictation', 'true');
  if (!options.apiKey && options.token) {
    q.set('api_token', options.token);
    q.set('account_id', options.accountId);
  }
  return base.toString();
}

const fmt = (x: number): string => x.toFixed(2);

/**
 * Streams `file` to the live socket and prints `partial`/`final` lines through `out`. Resolves
 * when the server has sent `disconnected` and closed; rejects when the session was refused
 * (close 1008) or failed.
 */
export async function streamFile(options: StreamFileOptions): Promise<void> {
  const bytes = await readFile(options.file);
  const rate = await byteRate(options, bytes);
  // Whole sample frames per chunk for raw audio, so no chunk splits a sample.
  const align = options.encoding ? (BYTES_PER_SAMPLE[options.encoding] ?? 1) : 1;
  const chunkBytes = Math.max(align, Math.round((rate * CHUNK_SEC) / align) * align);
  const headers: Record<string, string> = {};
  if (options.apiKey) {
    headers['X-API-KEY'] = options.apiKey;
    headers['X-ACCOUNT-ID'] = options.accountId;
  }
  const ws = new WebSocket(streamUrl(options), { headers });
  let lastError: string | undefined;

  const send = async (): Promise<void> => {
    const t0 = Date.now();
    for (let i = 0, off = 0; off < bytes.length; i++, off += chunkBytes) {
      if (ws.readyState !== WebSocket.OPEN) return;
      ws.send(JSON.stringify({ audio: bytes.subarray(off, off + chunkBytes).toString('base64') }));
      const due = options.realtime === false ? 0 : t0 + (i + 1) * CHUNK_SEC * 1000 - Date.now();
      // Without pacing, still let the socket drain so the client does not buffer the whole file.
      if (options.realtime === false) while (ws.bufferedAmount > 1 << 20) await new Promise((r) => setTimeout(r, 10));
      if (due > 0) await new Promise((r) => setTimeout(r, due));
    }
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'CloseStream' }));
  };

  await new Promise<void>((resolve, reject) => {
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Record<string, unknown>;
      if (m.type === 'status') {
        options.out(String(m.status));
        if (m.status === 'connected') send().catch(reject);
      } else if (m.type === 'error') {
        lastError = String(m.error);
        options.out(`error    ${lastError}`);
      } else if (m.type === 'transcript') {
        const kind = m.is_final ? 'final  ' : 'partial';
        options.out(`${kind}  ${fmt(Number(m.audio_start))}-${fmt(Number(m.audio_end))}  ${String(m.text)}`);
      }
    });
    ws.on('error', (err) => reject(new Error(`streaming socket failed: ${err.message}`)));
    ws.on('close', (code) => {
      if (code === 1000 || code === 1001) resolve();
      else reject(new Error(`session closed with code ${code}${lastError ? `: ${lastError}` : ''}`));
    });
  });
}
