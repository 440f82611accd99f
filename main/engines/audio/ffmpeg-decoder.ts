/**
 * File decoding through Debian's ffmpeg: any container/codec the contract lists becomes 16-bit PCM
 * at the engine's rate, mono or one array per channel. ffmpeg runs as a child process with a hard
 * timeout, so a corrupt or hostile file can fail but never hang a job. Neither audio nor ffmpeg's
 * stderr (which can echo file paths and metadata) goes into errors or logs.
 */
import { spawn } from 'node:child_process';
import { DomainError } from '../../services/errors.js';
import type { AudioDecoder, DecodedAudio } from '../../services/transcriptions/ports.js';

export interface FfmpegDecoderOptions {
  /** ffmpeg binary. Set from config `CLINDOC_FFMPEG_PATH` by the composition; default `ffmpeg` on PATH. */
  ffmpegPath?: string;
  /** ffprobe binary (used only to count channels). Set from config `CLINDOC_FFPROBE_PATH` by the composition; default `ffprobe`. */
  ffprobePath?: string;
  /** Kill ffmpeg after this many ms. Set from config `CLINDOC_FFMPEG_TIMEOUT_MS` by the composition; default 300000 (5 min). */
  timeoutMs?: number;
  /**
   * Longest audio decoded, in seconds of two-channel PCM (more channels get proportionally less).
   * A few MB of compressed silence can expand to gigabytes of PCM; past this ffmpeg is stopped and
   * the file is refused instead of exhausting memory. Set from config `CLINDOC_MAX_AUDIO_SECONDS` by the composition; default 14400 (4 h).
   */
  maxSeconds?: number;
}

interface RunResult {
  code: number | null;
  stdout: Buffer;
  timedOut: boolean;
  /** Output passed `maxBytes` and the process was stopped. */
  overflow: boolean;
}

/** Runs a binary, collecting stdout up to `maxBytes`; stderr is drained and dropped (it may hold file metadata). */
function run(bin: string, args: string[], timeoutMs: number, maxBytes = Number.POSITIVE_INFINITY): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let timedOut = false;
    let overflow = false;
    let bytes = 0;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.stdout.on('data', (c: Buffer) => {
      if (overflow) return;
      bytes += c.length;
      if (bytes > maxBytes) {
        overflow = true;
        chunks.length = 0;
        child.kill('SIGKILL');
        return;
      }
      chunks.push(c);
    });
    child.stderr.resume();
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout: Buffer.concat(chunks), timedOut, overflow });
    });
  });
}

/** Copies little-endian s16 bytes into an aligned Int16Array (Buffer offsets may be odd). */
export function bytesToInt16(buf: Buffer): Int16Array {
  const n = buf.length >> 1;
  if (buf.byteOffset % 2 === 0) return new Int16Array(buf.buffer, buf.byteOffset, n).slice();
  const out = new Int16Array(n);
  for (let i = 0; i < n; i++) out[i] = buf.readInt16LE(i * 2);
  return out;
}

function deinterleave(samples: Int16Array, channels: number): Int16Array[] {
  const frames = Math.floor(samples.length / channels);
  const out = Array.from({ length: channels }, () => new Int16Array(frames));
  for (let f = 0; f < frames; f++) {
    for (let c = 0; c < channels; c++) out[c]![f] = samples[f * channels + c]!;
  }
  return out;
}

const undecodable = (): DomainError =>
  new DomainError('unsupported_media_type', 'the audio could not be decoded (corrupt or unsupported format)');

/**
 * Creates an AudioDecoder backed by the ffmpeg command line.
 * Undecodable input throws DomainError `unsupported_media_type`; a file with no samples or a
 * decode that exceeds the timeout throws `invalid_request`.
 */
export function createFfmpegDecoder(options: FfmpegDecoderOptions = {}): AudioDecoder {
  const ffmpeg = options.ffmpegPath ?? 'ffmpeg';
  const ffprobe = options.ffprobePath ?? 'ffprobe';
  const timeoutMs = options.timeoutMs ?? 300_000;

  const maxSeconds = options.maxSeconds ?? 14_400;
  async function spawnOrUnavailable(bin: string, args: string[], maxBytes?: number): Promise<RunResult> {
    try {
      return await run(bin, args, timeoutMs, maxBytes);
    } catch (err) {
      throw new DomainError('engine_unavailable', `audio decoder ${bin} could not be started`, { cause: err });
    }
  }

  async function countChannels(path: string): Promise<number> {
    const probe = await spawnOrUnavailable(ffprobe, [
      '-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=channels', '-of', 'csv=p=0', path,
    ]);
    if (probe.timedOut) throw new DomainError('invalid_request', 'audio probing timed out');
    const channels = Number.parseInt(probe.stdout.toString('utf8').trim(), 10);
    if (probe.code !== 0 || !Number.isFinite(channels) || channels < 1) throw undecodable();
    return channels;
  }

  return {
    async decodeFile(path, opts = {}): Promise<DecodedAudio> {
      const sampleRate = opts.sampleRate ?? 16000;
      const channels = opts.keepChannels ? await countChannels(path) : 1;
      const result = await spawnOrUnavailable(ffmpeg, [
        '-nostdin', '-v', 'error', '-i', path, '-map', '0:a:0', '-vn',
        '-ac', String(channels), '-ar', String(sampleRate), '-acodec', 'pcm_s16le', '-f', 's16le', 'pipe:1',
      ], maxSeconds * sampleRate * 2 * 2);
      if (result.overflow) throw new DomainError('invalid_request', `the audio is longer than the ${maxSeconds} s this device decodes`);
      if (result.timedOut) throw new DomainError('invalid_request', `audio decoding took longer than ${timeoutMs} ms`);
      if (result.code !== 0) throw undecodable();
      const samples = bytesToInt16(result.stdout);
      if (samples.length < channels) {
        throw new DomainError('unsupported_media_type', 'the audio contains no decodable samples');
      }
      const data = channels === 1 ? [samples] : deinterleave(samples, channels);
      return { sampleRate, channels: data, durationSec: data[0]!.length / sampleRate };
    },
  };
}
