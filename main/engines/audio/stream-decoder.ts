/**
 * Streaming audio decoding for the live socket. Raw PCM, A-law and mu-law are decoded in process;
 * compressed and container audio (WebM/Opus from MediaRecorder, Ogg, FLAC, AMR, Speex, G.729, WAV)
 * goes through one long-lived ffmpeg per session fed through stdin. Either way the output is
 * 16 kHz mono Int16 PCM delivered through `pcm` events. `close()` always kills ffmpeg, so no
 * session can leave a process behind.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { DomainError, invalidRequest } from '../../services/errors.js';
import { createPcmChunkDecoder, floatToInt16, isPcmEncoding, type PcmEncoding } from './pcm-codecs.js';
import { createResampler } from '../../../shared/audio/resampler.js';
import { bytesToInt16 } from './ffmpeg-decoder.js';
import type { StreamDecoder } from '../../services/live/ports.js';

export type { StreamDecoder } from '../../services/live/ports.js';

/** Streaming encodings of the contract; absent means container audio that ffmpeg identifies. */
export const STREAM_ENCODINGS = [
  'linear16', 'linear32', 'alaw', 'mulaw', 'flac', 'amr-nb', 'amr-wb', 'opus', 'ogg-opus', 'speex', 'g729',
] as const;

export interface StreamDecoderOptions {
  /** Contract encoding; undefined for self-describing containers (WAV, WebM, Ogg). */
  encoding?: string;
  /** Sample rate of raw input (ignored for containers, which carry their own). */
  sampleRate: number;
  /** Interleaved channels of raw PCM input; downmixed to mono. Default 1. */
  channels?: number;
  /** Output rate. Default 16000. */
  outputRate?: number;
  /** ffmpeg binary. Set from config `CLINDOC_FFMPEG_PATH` by the composition; default `ffmpeg`. */
  ffmpegPath?: string;
  /** How long `end()` waits for ffmpeg to drain before killing it. Default 5000 ms. */
  endTimeoutMs?: number;
}

/** ffmpeg demuxer for a contract encoding, or for a container recognised by its magic bytes. */
function ffmpegFormat(encoding: string | undefined, head: Buffer): { format?: string; rate?: number } {
  const starts = (s: string): boolean => head.subarray(0, s.length).toString('latin1') === s;
  switch (encoding) {
    case 'flac':
      return { format: 'flac' };
    case 'amr-nb':
      return { format: starts('#!AMR\n') ? 'amr' : 'amrnb' };
    case 'amr-wb':
      return { format: starts('#!AMR-WB\n') ? 'amr' : 'amrwb' };
    case 'g729':
      return { format: 'g729', rate: 8000 };
    default:
      break;
  }
  if (starts('RIFF')) return { format: 'wav' };
  if (starts('OggS')) return { format: 'ogg' };
  if (starts('fLaC')) return { format: 'flac' };
  if (starts('#!AMR')) return { format: 'amr' };
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return { format: 'matroska' };
  return {};
}

/** The `pcm` and `error` listeners every decoder keeps, and how it calls them. */
function listeners() {
  const pcmListeners: Array<(pcm: Int16Array) => void> = [];
  const errorListeners: Array<(err: DomainError) => void> = [];
  return {
    on(event: 'pcm' | 'error', listener: ((pcm: Int16Array) => void) | ((err: DomainError) => void)): void {
      if (event === 'pcm') pcmListeners.push(listener as (pcm: Int16Array) => void);
      else errorListeners.push(listener as (err: DomainError) => void);
    },
    emitPcm(pcm: Int16Array): void {
      if (pcm.length > 0) for (const l of pcmListeners) l(pcm);
    },
    emitError(err: DomainError): void {
      for (const l of errorListeners) l(err);
    },
  };
}

type Listeners = ReturnType<typeof listeners>;

/** Raw PCM, A-law or mu-law: decoded and resampled in process, nothing held back. */
function createPcmStreamDecoder(encoding: PcmEncoding, options: StreamDecoderOptions, outputRate: number, events: Listeners): StreamDecoder {
  const decoder = createPcmChunkDecoder(encoding, options.channels ?? 1);
  const resampler = createResampler(options.sampleRate, outputRate);
  let closed = false;
  return {
    on: events.on,
    pid: undefined,
    write(chunk) {
      if (closed) return;
      events.emitPcm(floatToInt16(resampler.push(decoder.decode(chunk))));
    },
    async end() {
      if (closed) return;
      events.emitPcm(floatToInt16(resampler.flush()));
      closed = true;
    },
    close() {
      closed = true;
    },
    backlogBytes: () => 0,
  } as StreamDecoder;
}

/** Starts ffmpeg for a stream whose first bytes are `head`: stdin in, 16-bit mono PCM out. */
function spawnStreamFfmpeg(ffmpegPath: string, encoding: string | undefined, head: Buffer, outputRate: number): ChildProcessWithoutNullStreams {
  const { format, rate } = ffmpegFormat(encoding, head);
  const input = format ? ['-f', format] : [];
  if (rate) input.push('-ar', String(rate));
  // Small probe and no analysis: the first chunk may be all there is for a while.
  const args = [
    '-nostdin', '-v', 'error', '-fflags', 'nobuffer', '-probesize', '32', '-analyzeduration', '0',
    ...input, '-i', 'pipe:0', '-vn', '-ac', '1', '-ar', String(outputRate),
    '-acodec', 'pcm_s16le', '-flush_packets', '1', '-f', 's16le', 'pipe:1',
  ];
  return spawn(ffmpegPath, args, { stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Compressed and container audio: one ffmpeg for the session, started by the first chunk. */
function createFfmpegStreamDecoder(options: StreamDecoderOptions, outputRate: number, events: Listeners): StreamDecoder {
  const ffmpegPath = options.ffmpegPath ?? 'ffmpeg';
  let child: ChildProcessWithoutNullStreams | undefined;
  let exited: Promise<void> = Promise.resolve();
  let closed = false;
  let failed = false;
  let odd: Buffer = Buffer.alloc(0);
  const undecodable = (): DomainError => new DomainError('unsupported_media_type', 'the audio stream could not be decoded');

  const start = (head: Buffer): ChildProcessWithoutNullStreams => {
    const proc = spawnStreamFfmpeg(ffmpegPath, options.encoding, head, outputRate);
    exited = new Promise((resolve) => proc.once('close', () => resolve()));
    proc.stdout.on('data', (data: Buffer) => {
      const buf = odd.length > 0 ? Buffer.concat([odd, data]) : data;
      const even = buf.length & ~1;
      odd = Buffer.from(buf.subarray(even));
      events.emitPcm(bytesToInt16(buf.subarray(0, even)));
    });
    proc.stderr.resume();
    proc.stdin.on('error', () => undefined); // EPIPE after ffmpeg gave up; reported through 'close'
    proc.on('error', () => {
      failed = true;
      events.emitError(new DomainError('engine_unavailable', 'the audio decoder could not be started'));
    });
    proc.on('close', (code, signal) => {
      if (!closed && code !== 0 && signal === null && !failed) {
        failed = true;
        events.emitError(undecodable());
      }
    });
    return proc;
  };
  const running = (): boolean => child !== undefined && child.exitCode === null && child.signalCode === null;
  const kill = (): void => {
    if (running()) child!.kill('SIGKILL');
  };

  return {
    on: events.on,
    get pid() {
      return running() ? child!.pid : undefined;
    },
    write(chunk) {
      if (closed || chunk.length === 0) return;
      if (failed) return events.emitError(undecodable());
      child ??= start(chunk);
      child.stdin.write(chunk);
    },
    async end() {
      if (closed) return;
      if (child && !failed) {
        child.stdin.end();
        const timeout = new Promise<void>((resolve) => setTimeout(resolve, options.endTimeoutMs ?? 5000).unref());
        await Promise.race([exited, timeout]);
      }
      closed = true;
      kill();
    },
    close() {
      closed = true;
      kill();
    },
    backlogBytes: () => child?.stdin.writableLength ?? 0,
  } as StreamDecoder;
}

/** Creates a streaming decoder for one live session. */
export function createStreamDecoder(options: StreamDecoderOptions): StreamDecoder {
  const outputRate = options.outputRate ?? 16000;
  const encoding = options.encoding;
  if (encoding !== undefined && !(STREAM_ENCODINGS as readonly string[]).includes(encoding)) {
    throw invalidRequest(`encoding must be one of ${STREAM_ENCODINGS.join(', ')}`);
  }
  if (!Number.isInteger(options.sampleRate) || options.sampleRate < 4000 || options.sampleRate > 192000) {
    throw invalidRequest('sample_rate must be an integer between 4000 and 192000');
  }
  if (encoding !== undefined && isPcmEncoding(encoding)) return createPcmStreamDecoder(encoding, options, outputRate, listeners());
  return createFfmpegStreamDecoder(options, outputRate, listeners());
}
