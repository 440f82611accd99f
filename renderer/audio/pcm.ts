/**
 * Browser-side helpers for microphone audio: the `linear16` encoding the streaming socket takes,
 * base64 without Node's Buffer, the stream messages it is sent in, and the level meter. Resampling
 * itself is shared with the local API (shared/audio/resampler.ts).
 */
import { joinSamples } from '../../shared/audio/join-samples.js';

/** Float samples (-1..1) to 16-bit little-endian signed PCM (`linear16`). */
export function toLinear16(samples: Float32Array): Uint8Array {
  const bytes = new Uint8Array(samples.length * 2);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(i * 2, s < 0 ? Math.round(s * 0x8000) : Math.round(s * 0x7fff), true);
  }
  return bytes;
}

/** Base64 of bytes without Node's Buffer (the renderer runs in a browser). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** 100 ms of 16 kHz audio: the least one stream message carries while the microphone is open. */
const STREAM_CHUNK = 1600;

/** Microphone samples on their way to the streaming socket, gathered into stream messages. */
export interface ChunkSender {
  /** Adds samples; once a chunk's worth waits, sends all that waits as one message. */
  push(samples: Float32Array): void;
  /** Sends whatever waits, however little (the microphone closed). */
  flush(): void;
  /** Drops whatever waits (a new recording starts). */
  clear(): void;
}

/**
 * The dictation page and the dictation bar both stream this way: samples gathered until a chunk
 * (`STREAM_CHUNK`) waits, then sent as `linear16` with its base64 (the socket's JSON form).
 */
export function createChunkSender(send: (bytes: Uint8Array, base64: string) => void): ChunkSender {
  let parts: Float32Array[] = [];
  let waiting = 0;
  const sendAll = (): void => {
    const bytes = toLinear16(joinSamples(new Float32Array(waiting), parts));
    parts = [];
    waiting = 0;
    send(bytes, bytesToBase64(bytes));
  };
  return {
    push(samples) {
      parts.push(samples);
      waiting += samples.length;
      if (waiting >= STREAM_CHUNK) sendAll();
    },
    flush() {
      if (waiting > 0) sendAll();
    },
    clear() {
      parts = [];
      waiting = 0;
    },
  };
}

/** Microphone level for the meter: RMS mapped from -60..0 dBFS onto 0..1. */
export function levelOf(samples: Float32Array): number {
  if (samples.length === 0) return 0;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i]! * samples[i]!;
  const rms = Math.sqrt(sum / samples.length);
  if (rms <= 0) return 0;
  const db = 20 * Math.log10(rms);
  return Math.max(0, Math.min(1, (db + 60) / 60));
}

/**
 * A 16-bit mono RIFF/WAVE file of float samples, built without Node's Buffer (the renderer runs in
 * a browser): what the voice enrollment uploads, at the 16 kHz the capture resamples to.
 */
export function wavFile(samples: Float32Array, sampleRate = 16_000): Uint8Array<ArrayBuffer> {
  const pcm = toLinear16(samples);
  const out = new Uint8Array(44 + pcm.length);
  const view = new DataView(out.buffer);
  const ascii = (at: number, text: string): void => { for (let i = 0; i < text.length; i++) out[at + i] = text.charCodeAt(i); };
  ascii(0, 'RIFF');
  view.setUint32(4, 36 + pcm.length, true);
  ascii(8, 'WAVEfmt ');
  view.setUint32(16, 16, true); // fmt chunk size
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, sampleRate, true);
  view.setUint32(28, sampleRate * 2, true); // bytes per second
  view.setUint16(32, 2, true); // bytes per frame
  view.setUint16(34, 16, true); // bits per sample
  ascii(36, 'data');
  view.setUint32(40, pcm.length, true);
  out.set(pcm, 44);
  return out;
}
