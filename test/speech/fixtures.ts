/**
 * Test audio made on the spot: espeak-ng speech encoded by ffmpeg into each contract format.
 * Nothing is checked in; every file lives in a temporary folder removed after the suite.
 */
import { wavFile } from '../support/audio.js';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Counting is what pocketsphinx recognises reliably from espeak's synthetic voice. */
export const DIGITS_TEXT = 'hello world. one two three four five six seven eight nine ten.';
export const DIGIT_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];

export interface AudioFixtures {
  dir: string;
  /** 16 kHz mono WAV of `text`. */
  speak(name: string, text: string, voice?: string): string;
  /** Re-encodes `src` with ffmpeg arguments into `name`. */
  encode(src: string, name: string, args: string[]): string;
  /** Raw 16 kHz mono s16le samples of a file. */
  pcm(file: string, rate?: number): Int16Array;
  /** Writes mono 16-bit PCM as a WAV file. */
  writeWav(name: string, pcm: Int16Array, rate?: number): string;
  cleanup(): void;
}

export function createFixtures(): AudioFixtures {
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-speech-'));
  const run = (bin: string, args: string[]): void => {
    execFileSync(bin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  };
  return {
    dir,
    speak(name, text, voice = 'en-us+m3') {
      const raw = join(dir, `${name}.espeak.wav`);
      run('espeak-ng', ['-v', voice, '-s', '140', '-w', raw, text]);
      const out = join(dir, `${name}.wav`);
      run('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-ar', '16000', '-ac', '1', out]);
      return out;
    },
    encode(src, name, args) {
      const out = join(dir, name);
      run('ffmpeg', ['-v', 'error', '-y', '-i', src, ...args, out]);
      return out;
    },
    pcm(file, rate = 16000) {
      const out = join(dir, `pcm-${Date.now()}-${Math.random().toString(36).slice(2)}.raw`);
      run('ffmpeg', ['-v', 'error', '-y', '-i', file, '-ar', String(rate), '-ac', '1', '-f', 's16le', out]);
      const buf = readFileSync(out);
      return new Int16Array(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
    },
    writeWav(name, pcm, rate = 16000) {
      const out = join(dir, name);
      writeFileSync(out, wavFile(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), rate));
      return out;
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Words of a transcript that belong to `vocabulary`. */
export function hits(text: string, vocabulary: string[]): string[] {
  return text.split(/\s+/).filter((w) => vocabulary.includes(w));
}

/**
 * 2 s of silence, counting, a 0.4 s pause, more counting, 1 s of silence (16 kHz): one utterance over
 * 6 s of speech with a pause inside, where pocketsphinx's own silence removal moved word times.
 */
export function countingWithPause(fx: AudioFixtures, leadSec = 2, rate = 16000): { pcm: Int16Array; speechStart: number; speechEnd: number } {
  const first = fx.pcm(fx.speak('count-a', 'one two three four five six seven eight nine ten.'));
  const second = fx.pcm(fx.speak('count-b', 'eleven twelve thirteen fourteen fifteen sixteen.'));
  const lead = Math.round(leadSec * rate);
  const pause = Math.round(0.4 * rate);
  const pcm = new Int16Array(lead + first.length + pause + second.length + rate);
  pcm.set(first, lead);
  pcm.set(second, lead + first.length + pause);
  return { pcm, speechStart: leadSec, speechEnd: (lead + first.length + pause + second.length) / rate };
}
