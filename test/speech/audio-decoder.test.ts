import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFfmpegDecoder } from '../../main/engines/audio/index.js';
import { DomainError } from '../../main/services/errors.js';
import { createFixtures, DIGITS_TEXT, type AudioFixtures } from './fixtures.js';

describe('ffmpeg file decoder', () => {
  let fx: AudioFixtures;
  let wav: string;
  let seconds: number;
  const decoder = createFfmpegDecoder({ timeoutMs: 20_000 });

  beforeAll(() => {
    fx = createFixtures();
    wav = fx.speak('speech', DIGITS_TEXT);
    seconds = fx.pcm(wav).length / 16000;
  });
  afterAll(() => fx.cleanup());

  const formats: Array<[string, string[]]> = [
    ['speech.mp3', ['-c:a', 'libmp3lame', '-b:a', '64k']],
    ['speech.flac', ['-c:a', 'flac']],
    ['speech.ogg', ['-c:a', 'libvorbis']],
    ['speech.webm', ['-c:a', 'libopus', '-b:a', '32k']],
    ['speech.opus', ['-c:a', 'libopus', '-b:a', '32k']],
    ['speech.m4a', ['-c:a', 'aac', '-b:a', '64k']],
    ['speech.mp4', ['-c:a', 'aac', '-b:a', '64k']],
    ['speech.aac', ['-c:a', 'aac', '-b:a', '64k', '-f', 'adts']],
    ['speech-44k.wav', ['-ar', '44100', '-ac', '2']],
  ];

  it.each(formats)('decodes %s to 16 kHz mono of the same duration', async (name, args) => {
    const file = fx.encode(wav, name, args);
    const out = await decoder.decodeFile(file);
    expect(out.sampleRate).toBe(16000);
    expect(out.channels).toHaveLength(1);
    // Codecs add priming/padding of a few tens of ms, never seconds.
    expect(Math.abs(out.durationSec - seconds)).toBeLessThan(0.15);
    const peak = out.channels[0]!.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    expect(peak).toBeGreaterThan(1000);
  });

  it('keeps stereo channels apart when asked', async () => {
    // Left: speech; right: silence.
    const stereo = fx.encode(wav, 'stereo.wav', ['-af', 'pan=stereo|c0=c0|c1=0*c0', '-ac', '2']);
    const out = await decoder.decodeFile(stereo, { keepChannels: true });
    expect(out.channels).toHaveLength(2);
    const energy = (a: Int16Array): number => a.reduce((s, v) => s + Math.abs(v), 0);
    expect(energy(out.channels[0]!)).toBeGreaterThan(100 * (energy(out.channels[1]!) + 1));
  });

  it('rejects a corrupt file with a clear unsupported_media_type error', async () => {
    const bad = join(fx.dir, 'corrupt.mp3');
    writeFileSync(bad, Buffer.from('this is not audio at all, just text pretending'.repeat(50)));
    const err = await decoder.decodeFile(bad).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('unsupported_media_type');
  });

  it('decodes digital silence as silent samples', async () => {
    const silent = fx.writeWav('silence.wav', new Int16Array(32000));
    const out = await decoder.decodeFile(silent);
    expect(out.durationSec).toBeCloseTo(2, 1);
    expect(out.channels[0]!.every((v) => v === 0)).toBe(true);
  });

  it('gives up on a decode that exceeds its timeout instead of hanging', async () => {
    const slow = createFfmpegDecoder({ timeoutMs: 1 });
    const err = await slow.decodeFile(join(fx.dir, 'speech-44k.wav')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('invalid_request');
  });
});
