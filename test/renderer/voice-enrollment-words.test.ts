/**
 * The voice enrollment's own pieces (issue 27 point 9): the WAV it uploads is one ffmpeg reads as
 * 16 kHz mono of the captured length, its progress is said in sentences and minutes, the measured
 * result in plain words (and "did not help" when it did not), and Record moves on to the next
 * sentence not read yet.
 */
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { wavFile } from '../../renderer/audio/pcm.js';
import type { AdaptationState } from '../../shared/api/voice-adaptation.js';
import { progressWords, resultWords } from '../../renderer/components/voice-enrollment.js';
import { nextUnread } from '../../renderer/state/voice-store.js';

const state = (read: number, total = 20, extra: Partial<AdaptationState> = {}): AdaptationState => ({
  status: read ? 'recording' : 'not_enrolled', enabled: false, useCorrectedDictation: false, minimumRecordings: 12,
  sentences: Array.from({ length: total }, (_, i) => ({ id: `s${i + 1}`, text: `Sentence ${i + 1}.`, recorded: i < read })),
  ...extra,
});

describe('voice enrollment WAV', () => {
  it('is a 16 kHz mono 16-bit file ffmpeg reads back sample for sample', () => {
    const samples = new Float32Array(16_000 * 1.5).map((_, i) => 0.5 * Math.sin((2 * Math.PI * 440 * i) / 16_000));
    const dir = mkdtempSync(join(tmpdir(), 'clindoc-wav-'));
    try {
      const path = join(dir, 'reading.wav');
      writeFileSync(path, wavFile(samples));
      const probe = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path]).toString()) as { streams: { sample_rate: string; channels: number; codec_name: string; duration: string }[] };
      expect(probe.streams[0]).toMatchObject({ sample_rate: '16000', channels: 1, codec_name: 'pcm_s16le' });
      expect(Number(probe.streams[0]!.duration)).toBeCloseTo(1.5, 3);
      const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-f', 's16le', '-']);
      const back = new Int16Array(raw.buffer, raw.byteOffset, raw.length / 2);
      expect(back.length).toBe(samples.length);
      expect(back[40]).toBe(Math.round(samples[40]! * 0x7fff));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('voice enrollment words', () => {
  it('says how many sentences are read and about how long the rest take', () => {
    expect(progressWords(state(0))).toBe('0 of 20 read, about 2 minutes to go');
    expect(progressWords(state(12))).toBe('12 of 20 read, about 1 minute to go');
    expect(progressWords(state(17))).toBe('17 of 20 read, less than a minute to go');
    expect(progressWords(state(20))).toBe('All 20 read');
  });

  it('gives the measured result in plain words, and says when it did not help', () => {
    expect(resultWords(state(20))).toBeUndefined();
    const helped = resultWords(state(20, 20, { status: 'ready', measured: { heldOutSentences: 4, werBefore: 0.41, werAfter: 0.18 } }))!;
    expect(helped.helped).toBe(true);
    expect(helped.measured).toBe('Misheard words on your 4 held-out sentences (read by you, not used for learning): 41% before, 18% after.');
    const same = resultWords(state(20, 20, { status: 'ready', measured: { heldOutSentences: 1, werBefore: 0.3, werAfter: 0.3 } }))!;
    expect(same.helped).toBe(false);
    expect(same.measured).toContain('your 1 held-out sentence (');
    expect(same.verdict).toMatch(/did not help .* stays off/);
  });

  it('moves on to the next sentence not read yet, wrapping round', () => {
    const a = state(3);
    expect(nextUnread(a, 0)).toBe(3);
    a.sentences[5]!.recorded = true;
    expect(nextUnread(a, 5)).toBe(6);
    const wrap = state(20);
    wrap.sentences[1]!.recorded = false;
    expect(nextUnread(wrap, 10)).toBe(1);
    expect(nextUnread(state(20), 7)).toBe(7);
  });
});
