import { describe, expect, it } from 'vitest';
import { PcmCollector } from '../../main/engines/audio/ffmpeg-decoder.js';

/** s16le bytes of interleaved samples. */
const bytesOf = (samples: number[]): Buffer => {
  const b = Buffer.alloc(samples.length * 2);
  samples.forEach((v, i) => b.writeInt16LE(v, i * 2));
  return b;
};

describe('streamed PCM from ffmpeg', () => {
  it('joins pieces cut anywhere, odd offsets included, and grows past its first size', () => {
    const samples = Array.from({ length: 1001 }, (_, i) => ((i * 7919) % 65536) - 32768);
    const all = bytesOf(samples);
    const pcm = new PcmCollector(1, 16);
    // Pieces of 1, 2, 3... bytes, each a slice at an odd offset of a larger buffer.
    for (let at = 0, n = 1; at < all.length; at += n, n = (n % 7) + 1) {
      const host = Buffer.alloc(n + 1);
      all.copy(host, 1, at, Math.min(all.length, at + n));
      pcm.push(host.subarray(1, 1 + Math.min(n, all.length - at)));
    }
    expect(pcm.length).toBe(samples.length);
    expect(Array.from(pcm.result()[0]!)).toEqual(samples);
  });

  it('splits interleaved channels and keeps a frame split between pieces', () => {
    const frames = [[1, -1], [2, -2], [3, -3]];
    const all = bytesOf(frames.flat());
    const pcm = new PcmCollector(2, 1);
    pcm.push(all.subarray(0, 5)); // one frame and half of the next left channel's sample
    expect(pcm.length).toBe(1);
    pcm.push(all.subarray(5));
    const [left, right] = pcm.result();
    expect(Array.from(left!)).toEqual([1, 2, 3]);
    expect(Array.from(right!)).toEqual([-1, -2, -3]);
  });
});
