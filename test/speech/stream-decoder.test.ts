import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { createStreamDecoder, type StreamDecoder } from '../../main/engines/audio/index.js';
import { createFixtures, DIGITS_TEXT, type AudioFixtures } from './fixtures.js';

/** Feeds a file in `chunk`-byte pieces and collects the decoded 16 kHz PCM. */
async function feed(dec: StreamDecoder, bytes: Buffer, chunk: number): Promise<{ pcm: Int16Array; errors: number }> {
  const parts: Int16Array[] = [];
  let errors = 0;
  dec.on('pcm', (p) => parts.push(p));
  dec.on('error', () => errors++);
  for (let i = 0; i < bytes.length; i += chunk) dec.write(bytes.subarray(i, i + chunk));
  await dec.end();
  const pcm = new Int16Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) {
    pcm.set(p, o);
    o += p.length;
  }
  return { pcm, errors };
}

/** Normalised correlation of two signals over their common length. */
function correlation(a: Int16Array, b: Int16Array): number {
  const n = Math.min(a.length, b.length);
  let ab = 0;
  let aa = 0;
  let bb = 0;
  for (let i = 0; i < n; i++) {
    ab += a[i]! * b[i]!;
    aa += a[i]! * a[i]!;
    bb += b[i]! * b[i]!;
  }
  return ab / Math.sqrt(aa * bb);
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('streaming decoder', () => {
  let fx: AudioFixtures;
  let wav: string;
  let reference: Int16Array;

  beforeAll(() => {
    fx = createFixtures();
    wav = fx.speak('speech', DIGITS_TEXT);
    reference = fx.pcm(wav);
  });
  afterAll(() => fx.cleanup());

  it.each([
    ['linear16', 16000, ['-f', 's16le', '-ar', '16000'], 0.99],
    ['linear16', 48000, ['-f', 's16le', '-ar', '48000'], 0.97],
    ['linear32', 16000, ['-f', 'f32le', '-ar', '16000'], 0.99],
    ['mulaw', 8000, ['-f', 'mulaw', '-ar', '8000'], 0.9],
    ['alaw', 8000, ['-f', 'alaw', '-ar', '8000'], 0.9],
  ] as const)('decodes %s at %i Hz in process, matching the source', async (encoding, rate, args, minCorr) => {
    const bytes = readFileSync(fx.encode(wav, `speech-${encoding}-${rate}.raw`, [...args, '-ac', '1']));
    const dec = createStreamDecoder({ encoding, sampleRate: rate });
    // 333 bytes: chunks that split samples, as a network would.
    const { pcm, errors } = await feed(dec, bytes, 333);
    expect(errors).toBe(0);
    expect(dec.pid).toBeUndefined();
    expect(Math.abs(pcm.length - reference.length)).toBeLessThan(rate === 16000 ? 2 : 40);
    expect(correlation(pcm, reference)).toBeGreaterThan(minCorr);
  });

  it.each([
    ['WebM/Opus (browser MediaRecorder)', 'speech.webm', ['-c:a', 'libopus', '-b:a', '32k'], undefined],
    ['Ogg/Opus', 'speech.ogg', ['-c:a', 'libopus', '-b:a', '32k'], 'ogg-opus'],
    ['WAV container', 'speech-44k.wav', ['-ar', '44100'], undefined],
    ['FLAC', 'speech.flac', ['-c:a', 'flac'], 'flac'],
    ['Ogg/Speex', 'speech.spx', ['-c:a', 'libspeex', '-ar', '16000'], 'speex'],
  ] as const)('decodes %s through a streaming ffmpeg', async (_label, name, args, encoding) => {
    const bytes = readFileSync(fx.encode(wav, name, [...args]));
    const dec = createStreamDecoder({ encoding, sampleRate: 16000 });
    const { pcm, errors } = await feed(dec, bytes, 1000);
    expect(errors).toBe(0);
    expect(Math.abs(pcm.length - reference.length) / 16000).toBeLessThan(0.1);
    expect(pcm.reduce((m, v) => Math.max(m, Math.abs(v)), 0)).toBeGreaterThan(1000);
  });

  it('emits audio before the stream ends (incremental, not buffered to the end)', async () => {
    const bytes = readFileSync(fx.encode(wav, 'inc.webm', ['-c:a', 'libopus', '-b:a', '32k']));
    const dec = createStreamDecoder({ sampleRate: 16000 });
    const got = new Promise<number>((resolve) => dec.on('pcm', (p) => resolve(p.length)));
    dec.write(bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    expect(await got).toBeGreaterThan(0);
    dec.close();
  });

  it('reports an undecodable stream as an error event and leaves no ffmpeg behind', async () => {
    const dec = createStreamDecoder({ encoding: 'flac', sampleRate: 16000 });
    const error = new Promise<string>((resolve) => dec.on('error', (e) => resolve(e.kind)));
    dec.write(Buffer.from('definitely not flac '.repeat(400)));
    const pid = dec.pid;
    expect(pid).toBeTypeOf('number');
    dec.write(Buffer.from('more garbage'.repeat(400)));
    await dec.end();
    expect(await error).toBe('unsupported_media_type');
    expect(processAlive(pid!)).toBe(false);
  });

  it('kills its ffmpeg on close, mid-stream', async () => {
    const bytes = readFileSync(fx.encode(wav, 'close.webm', ['-c:a', 'libopus']));
    const dec = createStreamDecoder({ sampleRate: 16000 });
    dec.write(bytes.subarray(0, 2000));
    const pid = dec.pid!;
    expect(processAlive(pid)).toBe(true);
    dec.close();
    await new Promise<void>((resolve) => {
      const check = (): void => (processAlive(pid) ? void setImmediate(check) : resolve());
      check();
    });
    expect(processAlive(pid)).toBe(false);
    expect(dec.pid).toBeUndefined();
  });

  it('refuses an unknown encoding', () => {
    expect(() => createStreamDecoder({ encoding: 'mp9', sampleRate: 16000 })).toThrow(/encoding/);
  });
});
