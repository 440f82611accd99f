/**
 * In-process decoders for the uncompressed streaming encodings (linear16, linear32 float,
 * G.711 A-law and mu-law). They are cheap enough that spawning ffmpeg for them would only add
 * latency. Each keeps the bytes of a sample split across two chunks for the next call.
 */

/** Encodings decoded in process; everything else goes through a streaming ffmpeg. */
export const PCM_ENCODINGS = ['linear16', 'linear32', 'alaw', 'mulaw'] as const;
export type PcmEncoding = (typeof PCM_ENCODINGS)[number];

export function isPcmEncoding(encoding: string): encoding is PcmEncoding {
  return (PCM_ENCODINGS as readonly string[]).includes(encoding);
}

/** ITU-T G.711 mu-law byte to linear 16-bit. */
export function mulawToLinear(byte: number): number {
  const u = ~byte & 0xff;
  const exponent = (u >> 4) & 0x07;
  const mantissa = u & 0x0f;
  const magnitude = (((mantissa << 3) + 0x84) << exponent) - 0x84;
  return u & 0x80 ? -magnitude : magnitude;
}

/** ITU-T G.711 A-law byte to linear 16-bit. */
export function alawToLinear(byte: number): number {
  const a = byte ^ 0x55;
  const exponent = (a >> 4) & 0x07;
  const mantissa = a & 0x0f;
  let magnitude = exponent === 0 ? (mantissa << 4) + 8 : ((mantissa << 4) + 0x108) << (exponent - 1);
  if (magnitude > 32767) magnitude = 32767;
  return a & 0x80 ? magnitude : -magnitude;
}

const MULAW_TABLE = Int16Array.from({ length: 256 }, (_, i) => mulawToLinear(i));
const ALAW_TABLE = Int16Array.from({ length: 256 }, (_, i) => alawToLinear(i));

/** A stateful decoder of one PCM encoding to Float32 samples in [-1, 1] (mono, interleaved input downmixed). */
export interface PcmChunkDecoder {
  decode(chunk: Buffer): Float32Array;
}

/**
 * Creates a decoder for `encoding` with `channels` interleaved channels, downmixed to mono.
 */
export function createPcmChunkDecoder(encoding: PcmEncoding, channels = 1): PcmChunkDecoder {
  const bytesPerSample = encoding === 'linear16' ? 2 : encoding === 'linear32' ? 4 : 1;
  const frameBytes = bytesPerSample * channels;
  let carry: Buffer = Buffer.alloc(0);

  const readSample = (buf: Buffer, offset: number): number => {
    switch (encoding) {
      case 'linear16':
        return buf.readInt16LE(offset) / 32768;
      case 'linear32':
        return buf.readFloatLE(offset);
      case 'alaw':
        return ALAW_TABLE[buf[offset]!]! / 32768;
      case 'mulaw':
        return MULAW_TABLE[buf[offset]!]! / 32768;
    }
  };

  return {
    decode(chunk) {
      const buf = carry.length > 0 ? Buffer.concat([carry, chunk]) : chunk;
      const frames = Math.floor(buf.length / frameBytes);
      carry = Buffer.from(buf.subarray(frames * frameBytes));
      const out = new Float32Array(frames);
      for (let f = 0; f < frames; f++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += readSample(buf, f * frameBytes + c * bytesPerSample);
        const v = sum / channels;
        // Float input may be out of range or NaN; clamp so the engine never sees garbage.
        out[f] = Number.isFinite(v) ? Math.max(-1, Math.min(1, v)) : 0;
      }
      return out;
    },
  };
}

/** Float [-1, 1] to 16-bit PCM with clipping. */
export function floatToInt16(samples: Float32Array): Int16Array {
  const out = new Int16Array(samples.length);
  for (let i = 0; i < samples.length; i++) {
    const v = Math.round(samples[i]! * 32768);
    out[i] = v > 32767 ? 32767 : v < -32768 ? -32768 : v;
  }
  return out;
}
