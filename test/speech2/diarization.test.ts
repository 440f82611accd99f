import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFfmpegDecoder } from '../../main/engines/audio/index.js';
import { createClusteringDiarizer } from '../../main/engines/diarization/index.js';
import { assignSpeakers, diarizeChannels, diarize as diarizeAudio } from '../../main/services/transcriptions/diarization.js';
import type { DecodedAudio, DiarizationOptions, SpeakerTurn, SpeechSegment, VoiceActivityDetector } from '../../main/services/transcriptions/ports.js';
import { diarizationErrorRate } from '../../scripts/diarization-error-rate.js';

const SR = 16000;

/** A plain energy detector standing in for the product's VAD: 30 ms frames over a fixed level. */
const energyVad: VoiceActivityDetector = {
  async segments(pcm, sampleRate) {
    const frame = Math.round(sampleRate * 0.03);
    const out: SpeechSegment[] = [];
    let start = -1;
    let last = -1;
    for (let i = 0; i + frame <= pcm.length; i += frame) {
      let e = 0;
      for (let j = i; j < i + frame; j++) e += pcm[j]! * pcm[j]!;
      const t = i / sampleRate;
      if (Math.sqrt(e / frame) > 300) {
        if (start < 0) start = t;
        last = t + frame / sampleRate;
      } else if (start >= 0 && t - last > 0.25) {
        out.push({ start, end: last });
        start = -1;
      }
    }
    if (start >= 0) out.push({ start, end: last });
    return out;
  },
};

const diarizer = createClusteringDiarizer();
const diarize = (audio: DecodedAudio, vad: VoiceActivityDetector, options?: DiarizationOptions): Promise<SpeakerTurn[]> =>
  diarizeAudio(audio, { vad, diarizer }, options);
const diarizeMono = (pcm: Int16Array, sampleRate: number, segments: SpeechSegment[]): Promise<SpeakerTurn[]> => diarizer.diarize(pcm, sampleRate, segments);

describe('diarizationErrorRate', () => {
  const ref: SpeakerTurn[] = [{ start: 0, end: 4, speaker: 0 }, { start: 5, end: 9, speaker: 1 }];

  it('is 0 for a perfect answer whatever the speaker numbers', () => {
    const hyp = ref.map((t) => ({ ...t, speaker: 1 - t.speaker + 7 }));
    expect(diarizationErrorRate(ref, hyp).der).toBe(0);
  });

  it('counts confusion, missed speech and false alarms outside the collar', () => {
    const oneSpeaker = ref.map((t) => ({ ...t, speaker: 0 }));
    const c = diarizationErrorRate(ref, oneSpeaker);
    expect(c.confusion).toBeCloseTo(3.5, 1); // the second turn minus its two 0.25 s collars
    expect(c.der).toBeCloseTo(0.5, 2);
    const missed = diarizationErrorRate(ref, [ref[0]!]);
    expect(missed.missed).toBeCloseTo(3.5, 1);
    const extra = diarizationErrorRate(ref, [...ref, { start: 10, end: 12, speaker: 0 }]);
    expect(extra.falseAlarm).toBeCloseTo(2, 1); // the collar surrounds reference boundaries only
    expect(diarizationErrorRate(ref, ref, { collar: 0 }).total).toBeCloseTo(8, 1);
  });
});

describe('assignSpeakers and diarizeChannels', () => {
  it('gives each word the speaker of the turn it overlaps most, or the nearest', () => {
    const turns = diarizeChannels([[{ start: 0, end: 2 }], [{ start: 2.5, end: 4 }]]);
    expect(turns).toEqual([{ start: 0, end: 2, speaker: 0 }, { start: 2.5, end: 4, speaker: 1 }]);
    const words = [
      { word: 'hello', start: 0.2, end: 0.6, confidence: 0.9 },
      { word: 'doctor', start: 1.8, end: 2.6, confidence: 0.9 },
      { word: 'yes', start: 3, end: 3.3, confidence: 0.9 },
      { word: 'after', start: 4.4, end: 4.6, confidence: 0.9 },
    ];
    expect(assignSpeakers(words, turns).map((w) => w.speaker)).toEqual([0, 0, 1, 1]);
    expect(assignSpeakers(words, []).every((w) => w.speaker === 0)).toBe(true);
  });
});

describe('diarize on real synthesised speech', () => {
  let dir: string;
  let mono: Int16Array;
  let truth: SpeakerTurn[];
  const lines = [
    ['m3', 30, 'Good morning, what brings you in today?'],
    ['f4', 80, 'I have had a sore throat and a fever for three days.'],
    ['m3', 30, 'Any cough or trouble breathing?'],
    ['f4', 80, 'A dry cough at night, but my breathing is fine.'],
    ['m3', 30, 'Let me listen to your lungs and look at your throat.'],
    ['f4', 80, 'Sure. It hurts most when I swallow.'],
  ] as const;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'clindoc-diar-'));
    const decoder = createFfmpegDecoder();
    const parts: Int16Array[] = [];
    truth = [];
    let t = 0;
    for (const [k, [voice, pitch, text]] of lines.entries()) {
      const wav = join(dir, `${k}.wav`);
      execFileSync('espeak-ng', ['-v', `en-us+${voice}`, '-p', String(pitch), '-s', '160', '-w', wav, text]);
      const pcm = (await decoder.decodeFile(wav, { sampleRate: SR })).channels[0]!;
      const segs = await energyVad.segments(pcm, SR);
      const a = Math.round(segs[0]!.start * SR);
      const b = Math.round(segs[segs.length - 1]!.end * SR);
      truth.push({ start: t, end: t + (b - a) / SR, speaker: voice === 'm3' ? 0 : 1 });
      parts.push(pcm.slice(a, b), new Int16Array(SR * 0.5));
      t += (b - a) / SR + 0.5;
    }
    mono = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    for (const p of parts) { mono.set(p, o); o += p.length; }
  }, 30_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('separates two voices in a mono recording (DER under 15%)', async () => {
    const hyp = await diarize({ sampleRate: SR, channels: [mono], durationSec: mono.length / SR }, energyVad, { numSpeakers: 2 });
    expect(new Set(hyp.map((h) => h.speaker)).size).toBe(2);
    expect(diarizationErrorRate(truth, hyp).der).toBeLessThan(0.15);
  });

  it('estimates two speakers when not told how many', async () => {
    const hyp = await diarizeMono(mono, SR, truth.map(({ start, end }) => ({ start, end })));
    expect(new Set(hyp.map((h) => h.speaker)).size).toBe(2);
  });

  it('estimates one speaker when one voice says every line', async () => {
    const male = truth.filter((t) => t.speaker === 0);
    const parts = male.map((t) => mono.subarray(Math.round(t.start * SR), Math.round(t.end * SR)));
    const pcm = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
    let o = 0;
    const segs: SpeechSegment[] = [];
    for (const p of parts) { pcm.set(p, o); segs.push({ start: o / SR, end: (o + p.length) / SR }); o += p.length; }
    const hyp = await diarizeMono(pcm, SR, segs);
    expect(new Set(hyp.map((h) => h.speaker)).size).toBe(1);
  });

  it('puts each channel of a two-channel recording on its own speaker', async () => {
    const left = new Int16Array(mono.length);
    const right = new Int16Array(mono.length);
    for (const turn of truth) {
      const target = turn.speaker === 0 ? left : right;
      target.set(mono.subarray(Math.round(turn.start * SR), Math.round(turn.end * SR)), Math.round(turn.start * SR));
    }
    const hyp = await diarize({ sampleRate: SR, channels: [left, right], durationSec: mono.length / SR }, energyVad);
    expect(diarizationErrorRate(truth, hyp).der).toBeLessThan(0.05);
  });

  it('treats a stereo file with the same signal in both channels as one microphone', async () => {
    const hyp = await diarize({ sampleRate: SR, channels: [mono, mono.slice()], durationSec: mono.length / SR }, energyVad, { numSpeakers: 2 });
    expect(diarizationErrorRate(truth, hyp).der).toBeLessThan(0.15);
  });

  it('finds no turns in silence', async () => {
    expect(await diarize({ sampleRate: SR, channels: [new Int16Array(SR)], durationSec: 1 }, energyVad)).toEqual([]);
  });
});
