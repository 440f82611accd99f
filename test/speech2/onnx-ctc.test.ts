import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOnnxCtcRecognizer, splitAtQuiet } from '../../main/engines/speech/onnx/index.js';
import { logMelSpectrogram } from '../../main/engines/diarization/index.js';
import { DomainError } from '../../main/services/errors.js';
import { buildModel, FLOAT, INT64 } from './onnx-builder.js';

const SR = 16000;
let root: string;
beforeAll(() => { root = mkdtempSync(join(tmpdir(), 'clindoc-onnx-ctc-')); });
afterAll(() => rmSync(root, { recursive: true, force: true }));

function folder(name: string, files: Record<string, string | Buffer>): string {
  const dir = join(root, name);
  mkdirSync(dir, { recursive: true });
  for (const [f, content] of Object.entries(files)) writeFileSync(join(dir, f), content);
  return dir;
}

/**
 * A wav2vec2-shaped model: raw samples in, one output frame per 320 samples (20 ms), whose token
 * scores are the frame's first V samples (a strided Conv with identity weights). So audio whose
 * frame k peaks at sample v makes frame k emit token v.
 */
const W2V_VOCAB: Record<string, number> = { '<pad>': 0, '<s>': 1, '</s>': 2, '<unk>': 3, '|': 4, A: 5, D: 6, E: 7, F: 8, N: 9, O: 10, R: 11, T: 12, V: 13, Y: 14 };
const V = Object.keys(W2V_VOCAB).length;

function wav2vecModel(): Buffer {
  const weights = new Float32Array(V * 320);
  for (let v = 0; v < V; v++) weights[v * 320 + v] = 1;
  return buildModel({
    inputs: [{ name: 'input_values', type: FLOAT, shape: ['batch', 'samples'] }],
    outputs: [{ name: 'logits', type: FLOAT, shape: ['batch', 'frames', V] }],
    initializers: [{ name: 'axes', dims: [1], ints: [1] }, { name: 'W', dims: [V, 1, 320], floats: weights }],
    nodes: [
      { op: 'Unsqueeze', inputs: ['input_values', 'axes'], outputs: ['x3'] },
      { op: 'Conv', inputs: ['x3', 'W'], outputs: ['conv'], attrs: { kernel_shape: [320], strides: [320] } },
      { op: 'Transpose', inputs: ['conv'], outputs: ['logits'], attrs: { perm: [0, 2, 1] } },
    ],
  });
}

/** Audio spelling `text` for the wav2vec2 model: each letter held 2 frames, a blank frame after it. */
function spell(text: string, leadFrames = 5): Int16Array {
  const frames: number[] = new Array<number>(leadFrames).fill(0);
  for (const ch of text) frames.push(W2V_VOCAB[ch === ' ' ? '|' : ch]!, W2V_VOCAB[ch === ' ' ? '|' : ch]!, 0);
  const pcm = new Int16Array(frames.length * 320);
  frames.forEach((token, k) => { pcm[k * 320 + token] = 20000; });
  return pcm;
}

describe('ONNX CTC recogniser, wav2vec2-style model', () => {
  it('decodes a known vocabulary to known words with 20 ms frame times and softmax confidences', async () => {
    const dir = folder('w2v', { 'model.onnx': wav2vecModel(), 'vocab.json': JSON.stringify(W2V_VOCAB) });
    const engine = createOnnxCtcRecognizer({ modelDir: dir });
    const result = await engine.transcribe(spell('NO FEVER TODAY'), { language: 'en-US' });
    await engine.close?.();

    expect(engine.name).toBe('onnx-ctc');
    expect(result.text).toBe('no fever today');
    expect(result.words.map((w) => w.word)).toEqual(['no', 'fever', 'today']);
    // "no" starts at frame 5 (0.10 s); its O ends at frame 5 + 3 + 2 = 10 (0.20 s).
    expect(result.words[0]!.start).toBeCloseTo(0.1, 5);
    expect(result.words[0]!.end).toBeCloseTo(0.2, 5);
    // "fever" begins after "no" and the delimiter: frame 5 + 9 = 14.
    expect(result.words[1]!.start).toBeCloseTo(0.28, 5);
    for (const w of result.words) {
      expect(w.confidence).toBeGreaterThan(0.5);
      expect(w.confidence).toBeLessThanOrEqual(1);
    }
    expect(result.confidence).toBeCloseTo(result.words.reduce((s, w) => s + w.confidence, 0) / 3, 5);
  });

  it('keeps word times absolute when long audio is cut into pieces', async () => {
    const dir = folder('w2v-chunks', {
      'model.onnx': wav2vecModel(),
      'vocab.json': JSON.stringify(W2V_VOCAB),
      'clindoc.json': JSON.stringify({ maxChunkSec: 0.5 }),
    });
    const engine = createOnnxCtcRecognizer({ modelDir: dir });
    const pcm = spell('NO FEVER TODAY');
    const result = await engine.transcribe(pcm, { language: 'en' });
    await engine.close?.();
    expect(result.words.map((w) => w.word).join(' ')).toMatch(/no/);
    const starts = result.words.map((w) => w.start);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    expect(result.words[result.words.length - 1]!.end).toBeGreaterThan(0.5);
    expect(result.words[result.words.length - 1]!.end).toBeLessThanOrEqual(pcm.length / SR + 1e-6);
  });

  it('returns no words for silence', async () => {
    const dir = folder('w2v-silence', { 'model.onnx': wav2vecModel(), 'vocab.json': JSON.stringify(W2V_VOCAB) });
    const engine = createOnnxCtcRecognizer({ modelDir: dir });
    const result = await engine.transcribe(spell(''), { language: 'en' });
    expect(result).toEqual({ text: '', words: [], confidence: 0 });
  });

  it('rejects a language the model does not do, and a folder without a model', async () => {
    const dir = folder('w2v-lang', { 'model.onnx': wav2vecModel(), 'vocab.json': JSON.stringify(W2V_VOCAB) });
    const err = await createOnnxCtcRecognizer({ modelDir: dir }).transcribe(spell('NO'), { language: 'de' }).catch((e: unknown) => e);
    expect((err as DomainError).status).toBe(400);
    expect(() => createOnnxCtcRecognizer({ modelDir: join(root, 'missing') })).toThrow(/does not exist/);
    const empty = folder('no-model', { 'vocab.json': JSON.stringify(W2V_VOCAB) });
    expect(() => createOnnxCtcRecognizer({ modelDir: empty })).toThrow(DomainError);
  });

  it('answers 503 for a model file that is not ONNX', async () => {
    const dir = folder('w2v-corrupt', { 'model.onnx': Buffer.from('not a model'), 'vocab.json': JSON.stringify(W2V_VOCAB) });
    const err = await createOnnxCtcRecognizer({ modelDir: dir }).transcribe(spell('NO'), { language: 'en' }).catch((e: unknown) => e);
    expect((err as DomainError).kind).toBe('engine_unavailable');
  });
});

/**
 * A Conformer-CTC-shaped model (NeMo export): log-mel features [1, 80, T] and `length` in,
 * log-probabilities out. Token k's score is mel band `bands[k]`; the blank has a constant score,
 * so frames without a tone decode to blank.
 */
const PIECES = ['<unk>', '\u2581no', '\u2581fe', 'ver', '\u2581today', '<blk>'];
const TONES = [0, 300, 700, 1500, 3000, 0]; // Hz per token; 0 = no tone

function peakBand(freq: number): number {
  const tone = Int16Array.from({ length: 4000 }, (_, i) => Math.round(8000 * Math.sin((2 * Math.PI * freq * i) / SR)));
  const frames = logMelSpectrogram(tone, { nMels: 80, melScale: 'slaney' });
  const mid = frames[Math.floor(frames.length / 2)]!;
  return mid.indexOf(Math.max(...mid));
}

function conformerModel(): Buffer {
  const n = PIECES.length;
  const w = new Float32Array(80 * n);
  TONES.forEach((f, k) => { if (f) w[peakBand(f) * n + k] = 1; });
  const bias = new Float32Array(n);
  bias[n - 1] = 0.8;
  bias[0] = -5;
  return buildModel({
    inputs: [{ name: 'audio_signal', type: FLOAT, shape: ['B', 80, 'T'] }, { name: 'length', type: INT64, shape: ['B'] }],
    outputs: [{ name: 'logprobs', type: FLOAT, shape: ['B', 'T', n] }],
    initializers: [{ name: 'W', dims: [80, n], floats: w }, { name: 'bias', dims: [n], floats: bias }],
    nodes: [
      { op: 'Transpose', inputs: ['audio_signal'], outputs: ['tf'], attrs: { perm: [0, 2, 1] } },
      { op: 'MatMul', inputs: ['tf', 'W'], outputs: ['scores'] },
      { op: 'Add', inputs: ['scores', 'bias'], outputs: ['logits'] },
      { op: 'LogSoftmax', inputs: ['logits'], outputs: ['logprobs'], attrs: { axis: -1 } },
    ],
  });
}

/** Tones for tokens at given times over a faint noise floor. */
function toneAudio(parts: Array<{ token: number; start: number; end: number }>, durSec: number): Int16Array {
  let seed = 1;
  const pcm = Int16Array.from({ length: Math.round(durSec * SR) }, () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 61) - 30);
  for (const p of parts) {
    for (let i = Math.round(p.start * SR); i < Math.round(p.end * SR); i++) {
      pcm[i]! += Math.round(9000 * Math.sin((2 * Math.PI * TONES[p.token]! * i) / SR));
    }
  }
  return pcm;
}

describe('ONNX CTC recogniser, Conformer-style model with log-mel input', () => {
  it('joins SentencePiece pieces into words with times from 10 ms feature frames', async () => {
    const tokensTxt = PIECES.map((p, i) => `${p} ${i}`).join('\n') + '\n';
    const dir = folder('conformer', { 'model.onnx': conformerModel(), 'tokens.txt': tokensTxt });
    const engine = createOnnxCtcRecognizer({ modelDir: dir, threads: 1 });
    const audio = toneAudio([
      { token: 1, start: 0.3, end: 0.6 },
      { token: 2, start: 0.8, end: 1.0 },
      { token: 3, start: 1.1, end: 1.3 },
      { token: 4, start: 1.5, end: 1.9 },
    ], 2.2);
    const result = await engine.transcribe(audio, { language: 'en' });
    await engine.close?.();
    expect(result.text).toBe('no fever today');
    const [no, fever, today] = result.words;
    expect(no!.start).toBeCloseTo(0.3, 1);
    expect(no!.end).toBeCloseTo(0.6, 1);
    expect(fever!.start).toBeCloseTo(0.8, 1);
    expect(fever!.end).toBeCloseTo(1.3, 1);
    expect(today!.start).toBeCloseTo(1.5, 1);
    expect(today!.end).toBeCloseTo(1.9, 1);
  });
});

describe('splitAtQuiet', () => {
  it('cuts long audio in the quietest stretch and covers every sample once', () => {
    const pcm = new Int16Array(SR * 10).map((_, i) => (i > SR * 3.9 && i < SR * 4.1 ? 0 : 5000));
    const pieces = splitAtQuiet(pcm, SR, 5);
    expect(pieces[0]!.pcm.length / SR).toBeGreaterThan(3.85);
    expect(pieces[0]!.pcm.length / SR).toBeLessThan(4.15);
    expect(pieces.reduce((n, p) => n + p.pcm.length, 0)).toBe(pcm.length);
    expect(pieces.every((p) => p.pcm.length <= SR * 5)).toBe(true);
  });
});
