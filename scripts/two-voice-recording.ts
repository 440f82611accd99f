/**
 * A synthetic doctor-patient recording in two espeak-ng voices, built the way the end-to-end
 * harness builds its microphone files (test/e2e/harness.ts `speechRecording`): each line spoken,
 * resampled to 48 kHz mono, followed by a pause, all joined with ffmpeg. The true speaker turns
 * come back with it, for the diarization error rate (scripts/eval-diarization.ts) and the tests.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SpeakerTurn } from '../main/services/transcriptions/ports.js';

/** A short visit: the doctor (speaker 0) asks and examines, the patient (speaker 1) answers; about 40 s. */
export const VISIT_LINES = [
  'Good morning. What brings you in today?',
  'I have had a sore throat and a fever for about three days now.',
  'I am sorry to hear that. Have you had any cough or trouble breathing?',
  'A dry cough at night, but my breathing is fine.',
  'Any nausea, vomiting, or rash? Are you taking anything for the fever?',
  'No rash. I took some ibuprofen this morning and it helped a little.',
  'Let me listen to your lungs and take a look at your throat. Please open wide.',
  'Sure. It hurts most when I swallow.',
  'Your throat is red and your tonsils are swollen. I will do a rapid strep test.',
  'Okay. How long does that take?',
];

/** Seconds of a media file, as ffprobe reads it. */
export function mediaSeconds(path: string): number {
  return Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]).toString().trim());
}

/**
 * Writes `name.wav` in `dir`: line i spoken by `voices[i % 2]`, each followed by `pauseSec` of
 * silence and the whole by `tailSec`. Returns its path, its duration and the true turns
 * (speaker i % 2, from each spoken line's own length).
 */
export function twoVoiceRecording(
  dir: string, name: string, voices: [string, string], lines: readonly string[] = VISIT_LINES, pauseSec = 0.6, tailSec = 1.5,
): { path: string; durationSec: number; truth: SpeakerTurn[] } {
  mkdirSync(dir, { recursive: true });
  const parts = lines.map((text, i) => {
    const raw = join(dir, `${name}-${i}.wav`);
    execFileSync('espeak-ng', ['-v', voices[i % 2]!, '-s', '140', '-w', raw, text]);
    return raw;
  });
  const truth: SpeakerTurn[] = [];
  let t = 0;
  parts.forEach((p, i) => {
    const d = mediaSeconds(p);
    truth.push({ start: t, end: t + d, speaker: i % 2 });
    t += d + pauseSec;
  });
  const out = join(dir, `${name}.wav`);
  const chains = parts.map((_, i) => `[${i}:a]aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono,apad=pad_dur=${pauseSec}[p${i}]`);
  const filter = `${chains.join(';')};${parts.map((_, i) => `[p${i}]`).join('')}concat=n=${parts.length}:v=0:a=1,apad=pad_dur=${tailSec}[out]`;
  execFileSync('ffmpeg', ['-y', '-loglevel', 'error', ...parts.flatMap((p) => ['-i', p]), '-filter_complex', filter, '-map', '[out]', '-ar', '48000', '-ac', '1', out]);
  return { path: out, durationSec: mediaSeconds(out), truth };
}
