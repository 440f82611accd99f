import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOnnxWhisperRecognizer } from '../../main/engines/speech/onnx/index.js';
import type { SpeechRecognizer } from '../../main/services/transcriptions/ports.js';
import { DomainError } from '../../main/services/errors.js';
import { writeTinyWhisper } from './whisper-fixture.js';

const SR = 16000;
let root: string;
let engine: SpeechRecognizer;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'clindoc-whisper-'));
  engine = createOnnxWhisperRecognizer({ modelDir: writeTinyWhisper(join(root, 'tiny')) });
});
afterAll(async () => {
  await engine.close?.();
  rmSync(root, { recursive: true, force: true });
});

/** Two seconds with a tone in the middle: "sound" to the tiny model. */
function sound(): Int16Array {
  return Int16Array.from({ length: 2 * SR }, (_, i) => (i > 0.4 * SR && i < 1.6 * SR ? Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / SR)) : 0));
}

describe('ONNX Whisper recogniser (transformers.js, local files only)', () => {
  it('transcribes with timestamp segments, spreading words over their segment', async () => {
    const result = await engine.transcribe(sound(), { language: 'en' });
    expect(engine.name).toBe('onnx-whisper');
    expect(result.text).toBe('no fever today.');
    expect(result.words.map((w) => w.word)).toEqual(['no', 'fever', 'today']);
    expect(result.words[0]!.start).toBeCloseTo(0.5, 5);
    expect(result.words[2]!.end).toBeCloseTo(1.5, 5);
    expect(result.words[1]!.start).toBeGreaterThan(result.words[0]!.start);
    // The bigram logit of 10 against 5 for end-of-text and 0 elsewhere gives p ~ 0.99.
    for (const w of result.words) expect(w.confidence).toBeGreaterThan(0.9);
  }, 30_000);

  it('returns empty text for silence', async () => {
    const result = await engine.transcribe(new Int16Array(2 * SR), { language: 'en-US' });
    expect(result).toEqual({ text: '', words: [], confidence: 0 });
  }, 30_000);

  it('rejects languages the export lacks, and folders without an export', async () => {
    const err = await engine.transcribe(sound(), { language: 'fr' }).catch((e: unknown) => e);
    expect((err as DomainError).status).toBe(400);
    const empty = join(root, 'empty');
    mkdirSync(empty);
    expect(() => createOnnxWhisperRecognizer({ modelDir: empty })).toThrow(/config.json/);
  });
});
