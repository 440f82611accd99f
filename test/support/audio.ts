import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A 16-bit mono WAV file around the given PCM bytes. */
export function wavFile(data: Buffer, sampleRate = 16000): Uint8Array<ArrayBuffer> {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + data.length, 4);
  header.write('WAVE', 8);
  header.write('fmt ', 12);
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * 2, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36);
  header.writeUInt32LE(data.length, 40);
  return new Uint8Array(Buffer.concat([header, data]));
}

/** A WAV of silence or a tone, built in memory for upload tests. */
export function wavBytes(seconds: number, sampleRate = 16000, tone = 0): Uint8Array<ArrayBuffer> {
  const samples = Math.round(seconds * sampleRate);
  const data = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) data.writeInt16LE(tone ? Math.round(8000 * Math.sin((2 * Math.PI * tone * i) / sampleRate)) : 0, i * 2);
  return wavFile(data, sampleRate);
}

/** Real synthetic speech from espeak-ng, as a WAV file at 16 kHz mono. */
export function speechWav(text: string, voice = 'en-us'): { path: string; bytes: Buffer } {
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-speech-'));
  const raw = join(dir, 'raw.wav');
  const path = join(dir, 'speech.wav');
  execFileSync('espeak-ng', ['-v', voice, '-s', '150', '-w', raw, text]);
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', raw, '-ar', '16000', '-ac', '1', '-c:a', 'pcm_s16le', path]);
  return { path, bytes: readFileSync(path) };
}
