/**
 * Issue 29, point 6: the decoded-audio limit (CLINDOC_MAX_AUDIO_SECONDS) is playing time, whatever
 * the channels (a 5-hour stereo file passed a 4-hour limit: the budget was two channels' worth of
 * bytes, and the file was mixed down to one); the sample arrays never grow past what the limit lets
 * through, so a long decode does not hold twice its size.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PcmCollector, createFfmpegDecoder } from '../../main/engines/audio/ffmpeg-decoder.js';
import { DomainError } from '../../main/services/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'clindoc-duration-'));
/** A stereo FLAC of a tone, `seconds` long. */
const stereoFlac = (seconds: number): string => {
  const path = join(dir, `tone-${seconds}.flac`);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `sine=frequency=440:sample_rate=8000:duration=${seconds}`, '-ac', '2', path]);
  return path;
};

describe('the decoded-audio limit', () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  // A 60 s limit stands for the 4-hour default: the same arithmetic, a thousandth of the work.
  const decoder = createFfmpegDecoder({ maxSeconds: 60 });

  it('refuses stereo audio longer than the limit, mixed down or kept in channels', async () => {
    const long = stereoFlac(75);
    for (const keepChannels of [false, true]) {
      const err = await decoder.decodeFile(long, { keepChannels }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DomainError);
      expect((err as DomainError).message).toBe('the audio is longer than the 60 s this device decodes');
    }
  }, 60_000);

  it('decodes stereo audio within the limit, mixed down or kept in channels', async () => {
    const short = stereoFlac(50);
    const mono = await decoder.decodeFile(short);
    expect(mono.channels).toHaveLength(1);
    expect(mono.durationSec).toBeCloseTo(50, 1);
    const both = await decoder.decodeFile(short, { keepChannels: true });
    expect(both.channels).toHaveLength(2);
    expect(both.durationSec).toBeCloseTo(50, 1);
  }, 60_000);

  it('never grows its arrays past the frames the limit allows', () => {
    const pcm = new PcmCollector(2, 16, 100);
    pcm.push(Buffer.alloc(100 * 2 * 2));
    expect(pcm.length).toBe(100);
    // Doubling from 16 would have reached 128.
    expect(pcm.capacity).toBe(100);
  });
});
