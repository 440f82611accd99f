/**
 * File decoding through Debian's ffmpeg: any container/codec the contract lists becomes 16-bit PCM
 * at the engine's rate, mono or one array per channel. ffmpeg runs as a child process with a hard
 * timeout, so a corrupt or hostile file can fail but never hang a job. Neither audio nor ffmpeg's
 * stderr (which can echo file paths and metadata) goes into errors or logs.
 *
 * ffmpeg's output is taken as it streams: each piece goes straight into the per-channel sample
 * arrays (grown by doubling), instead of keeping every piece, joining them into one buffer, copying
 * that into samples and then splitting channels. An hour of 16 kHz mono (115 MB of samples) peaked
 * at about three copies before; now at most the arrays and one growth step.
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
   * Longest audio decoded, in seconds of playing time, whatever the number of channels. A few MB
   * of compressed silence can expand to gigabytes of PCM; past this ffmpeg is stopped and the file
   * is refused instead of exhausting memory. Set from config `CLINDOC_MAX_AUDIO_SECONDS` by the composition; default 14400 (4 h).
   */
  maxSeconds?: number;
}

/** Collects s16le PCM as it streams in, straight into one growing array per channel. */
export class PcmCollector {
  private readonly out: Int16Array[];
  private frames = 0;
  private carry = Buffer.alloc(0);

  /**
   * `maxFrames` bounds the arrays' growth: doubling past the most that will be accepted would hold
   * up to twice that in memory for as long as the result lives (issue 29: 1.9 GB after a decode).
   */
  constructor(private readonly channels: number, initialFrames = 16000 * 60, private readonly maxFrames = Number.POSITIVE_INFINITY) {
    this.out = Array.from({ length: channels }, () => new Int16Array(Math.min(initialFrames, maxFrames)));
  }

  /** Adds the next bytes (any length, any alignment; a split frame waits for its rest). */
  push(chunk: Buffer): void {
    const bytes = this.carry.length ? Buffer.concat([this.carry, chunk]) : chunk;
    const frameBytes = 2 * this.channels;
    const whole = bytes.length - (bytes.length % frameBytes);
    this.carry = Buffer.from(bytes.subarray(whole));
    if (whole === 0) return;
    const samples = bytesToInt16View(bytes.subarray(0, whole));
    const n = whole / frameBytes;
    this.reserve(this.frames + n);
    if (this.channels === 1) this.out[0]!.set(samples, this.frames);
    else {
      for (let f = 0; f < n; f++) {
        for (let c = 0; c < this.channels; c++) this.out[c]![this.frames + f] = samples[f * this.channels + c]!;
      }
    }
    this.frames += n;
  }

  /** Frames (samples per channel) collected so far. */
  get length(): number {
    return this.frames;
  }

  /** Frames the arrays can hold before they grow again. */
  get capacity(): number {
    return this.out[0]!.length;
  }

  /** The samples of each channel (views of exactly the collected length). */
  result(): Int16Array[] {
    return this.out.map((a) => a.subarray(0, this.frames));
  }

  private reserve(frames: number): void {
    const capacity = this.out[0]!.length;
    if (frames <= capacity) return;
    const next = Math.max(frames, Math.min(capacity * 2, this.maxFrames));
    for (let c = 0; c < this.channels; c++) {
      const grown = new Int16Array(next);
      grown.set(this.out[c]!.subarray(0, this.frames));
      this.out[c] = grown;
    }
  }
}

interface RunResult {
  code: number | null;
  timedOut: boolean;
  /** Output passed `maxBytes` and the process was stopped. */
  overflow: boolean;
}

/**
 * Runs a binary, handing each piece of stdout to `onData` until `maxBytes` have come; stderr is
 * drained and dropped (it may hold file metadata).
 */
function run(bin: string, args: string[], timeoutMs: number, onData: (chunk: Buffer) => void, maxBytes = Number.POSITIVE_INFINITY): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'] });
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
        child.kill('SIGKILL');
        return;
      }
      onData(c);
    });
    child.stderr.resume();
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, overflow });
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

/** The samples of s16 bytes without a copy where the bytes are aligned (read before `buf` is reused). */
function bytesToInt16View(buf: Buffer): Int16Array {
  return buf.byteOffset % 2 === 0 ? new Int16Array(buf.buffer, buf.byteOffset, buf.length >> 1) : bytesToInt16(buf);
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
  async function spawnOrUnavailable(bin: string, args: string[], onData: (chunk: Buffer) => void, maxBytes?: number): Promise<RunResult> {
    try {
      return await run(bin, args, timeoutMs, onData, maxBytes);
    } catch (err) {
      throw new DomainError('engine_unavailable', `audio decoder ${bin} could not be started`, { cause: err });
    }
  }

  async function countChannels(path: string): Promise<number> {
    const out: Buffer[] = [];
    const probe = await spawnOrUnavailable(ffprobe, [
      '-v', 'error', '-select_streams', 'a:0', '-show_entries', 'stream=channels', '-of', 'csv=p=0', path,
    ], (c) => out.push(c), 4096);
    if (probe.timedOut) throw new DomainError('invalid_request', 'audio probing timed out');
    const channels = Number.parseInt(Buffer.concat(out).toString('utf8').trim(), 10);
    if (probe.code !== 0 || !Number.isFinite(channels) || channels < 1) throw undecodable();
    return channels;
  }

  return {
    async decodeFile(path, opts = {}): Promise<DecodedAudio> {
      const sampleRate = opts.sampleRate ?? 16000;
      const channels = opts.keepChannels ? await countChannels(path) : 1;
      // The limit is playing time: bytes per second of the output, as many channels as it has (a
      // fixed two-channel budget let a 5-hour stereo file, mixed down to mono, through a 4-hour limit).
      // Channels kept apart (diarization) share a two-channel budget: playing time alone would let a
      // file of hundreds of silent channels hold hundreds of times the limit in memory.
      const maxFrames = Math.floor((maxSeconds * sampleRate * Math.min(channels, 2)) / channels);
      const pcm = new PcmCollector(channels, sampleRate * 60, maxFrames);
      const result = await spawnOrUnavailable(ffmpeg, [
        '-nostdin', '-v', 'error', '-i', path, '-map', '0:a:0', '-vn',
        '-ac', String(channels), '-ar', String(sampleRate), '-acodec', 'pcm_s16le', '-f', 's16le', 'pipe:1',
      ], (c) => pcm.push(c), maxFrames * channels * 2);
      if (result.overflow) throw new DomainError('invalid_request', `the audio is longer than the ${maxSeconds} s this device decodes`);
      if (result.timedOut) throw new DomainError('invalid_request', `audio decoding took longer than ${timeoutMs} ms`);
      if (result.code !== 0) throw undecodable();
      if (pcm.length < 1) {
        throw new DomainError('unsupported_media_type', 'the audio contains no decodable samples');
      }
      const data = pcm.result();
      return { sampleRate, channels: data, durationSec: data[0]!.length / sampleRate };
    },
  };
}
