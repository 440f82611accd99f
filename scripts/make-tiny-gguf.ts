/**
 * Writes a tiny random-weight GGUF (llama architecture, SentencePiece-style tokenizer) so tests can
 * prove the in-process llama.cpp engine loads, prompts, follows a JSON grammar and closes, without
 * any downloaded model. The text it generates is garbage by design; only its structure is tested.
 *
 * Usage: npx tsx scripts/make-tiny-gguf.ts [out.gguf]
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** GGUF metadata value type codes (the subset this file writes). */
const ValueType = { Uint32: 4, Int32: 5, Float32: 6, String: 8, Array: 9 } as const;
type Value =
  | { type: 4 | 5 | 6; value: number }
  | { type: 8; value: string }
  | { type: 9; items: 5 | 6 | 8; value: (string | number)[] };

/** Growable little-endian byte writer. */
function createWriter() {
  const chunks: Buffer[] = [];
  let length = 0;
  const push = (b: Buffer): void => {
    chunks.push(b);
    length += b.length;
  };
  const num = (kind: 'u32' | 'i32' | 'f32' | 'u64', v: number): void => {
    const b = Buffer.alloc(kind === 'u64' ? 8 : 4);
    if (kind === 'u32') b.writeUInt32LE(v);
    else if (kind === 'i32') b.writeInt32LE(v);
    else if (kind === 'f32') b.writeFloatLE(v);
    else b.writeBigUInt64LE(BigInt(v));
    push(b);
  };
  const str = (s: string): void => {
    const b = Buffer.from(s, 'utf8');
    num('u64', b.length);
    push(b);
  };
  return { push, num, str, get length() { return length; }, bytes: () => Buffer.concat(chunks) };
}

/** Deterministic PRNG (mulberry32) so the same seed gives the same file. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Vocabulary: control tokens, byte fallbacks 0x00-0x7f only (bytes >= 0x80 would let the model emit invalid UTF-8), printable ASCII pieces. */
function vocabulary(): { tokens: string[]; scores: number[]; types: number[] } {
  const tokens = ['<unk>', '<s>', '</s>'];
  const types = [2, 3, 3];
  for (let b = 0; b < 0x80; b++) {
    tokens.push(`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`);
    types.push(6);
  }
  tokens.push('\u2581'); // SentencePiece's space marker
  types.push(1);
  for (let c = 0x21; c < 0x7f; c++) {
    tokens.push(String.fromCharCode(c));
    types.push(1);
  }
  for (const word of ['\u2581the', '\u2581patient', '\u2581and', 'ing', 'ed']) {
    tokens.push(word);
    types.push(1);
  }
  const scores = tokens.map((_, i) => -i);
  return { tokens, scores, types };
}

/**
 * Builds the bytes of a tiny llama-architecture GGUF with random F32 weights.
 * @param seed PRNG seed; the same seed gives byte-identical output.
 */
export function buildTinyGguf(seed = 42): Buffer {
  const nEmbd = 32;
  const nHead = 4;
  const nFf = 64;
  const nLayer = 1;
  const { tokens, scores, types } = vocabulary();
  const nVocab = tokens.length;
  const alignment = 32;

  const kv: [string, Value][] = [
    ['general.architecture', { type: ValueType.String, value: 'llama' }],
    ['general.name', { type: ValueType.String, value: 'clindoc-tiny-random' }],
    ['general.alignment', { type: ValueType.Uint32, value: alignment }],
    ['llama.context_length', { type: ValueType.Uint32, value: 8192 }],
    ['llama.embedding_length', { type: ValueType.Uint32, value: nEmbd }],
    ['llama.block_count', { type: ValueType.Uint32, value: nLayer }],
    ['llama.feed_forward_length', { type: ValueType.Uint32, value: nFf }],
    ['llama.attention.head_count', { type: ValueType.Uint32, value: nHead }],
    ['llama.attention.head_count_kv', { type: ValueType.Uint32, value: nHead }],
    ['llama.rope.dimension_count', { type: ValueType.Uint32, value: nEmbd / nHead }],
    ['llama.attention.layer_norm_rms_epsilon', { type: ValueType.Float32, value: 1e-5 }],
    ['tokenizer.ggml.model', { type: ValueType.String, value: 'llama' }],
    ['tokenizer.ggml.tokens', { type: ValueType.Array, items: ValueType.String, value: tokens }],
    ['tokenizer.ggml.scores', { type: ValueType.Array, items: ValueType.Float32, value: scores }],
    ['tokenizer.ggml.token_type', { type: ValueType.Array, items: ValueType.Int32, value: types }],
    ['tokenizer.ggml.unknown_token_id', { type: ValueType.Uint32, value: 0 }],
    ['tokenizer.ggml.bos_token_id', { type: ValueType.Uint32, value: 1 }],
    ['tokenizer.ggml.eos_token_id', { type: ValueType.Uint32, value: 2 }],
  ];

  const tensors: [string, number[]][] = [
    ['token_embd.weight', [nEmbd, nVocab]],
    ['output_norm.weight', [nEmbd]],
    ['output.weight', [nEmbd, nVocab]],
  ];
  for (let l = 0; l < nLayer; l++) {
    tensors.push(
      [`blk.${l}.attn_norm.weight`, [nEmbd]],
      [`blk.${l}.attn_q.weight`, [nEmbd, nEmbd]],
      [`blk.${l}.attn_k.weight`, [nEmbd, nEmbd]],
      [`blk.${l}.attn_v.weight`, [nEmbd, nEmbd]],
      [`blk.${l}.attn_output.weight`, [nEmbd, nEmbd]],
      [`blk.${l}.ffn_norm.weight`, [nEmbd]],
      [`blk.${l}.ffn_gate.weight`, [nEmbd, nFf]],
      [`blk.${l}.ffn_down.weight`, [nFf, nEmbd]],
      [`blk.${l}.ffn_up.weight`, [nEmbd, nFf]],
    );
  }

  const w = createWriter();
  w.push(Buffer.from('GGUF', 'ascii'));
  w.num('u32', 3);
  w.num('u64', tensors.length);
  w.num('u64', kv.length);
  for (const [key, v] of kv) {
    w.str(key);
    w.num('u32', v.type);
    if (v.type === ValueType.String) w.str(v.value);
    else if (v.type === ValueType.Array) {
      w.num('u32', v.items);
      w.num('u64', v.value.length);
      for (const item of v.value) {
        if (v.items === ValueType.String) w.str(String(item));
        else w.num(v.items === ValueType.Int32 ? 'i32' : 'f32', Number(item));
      }
    } else w.num(v.type === ValueType.Float32 ? 'f32' : v.type === ValueType.Int32 ? 'i32' : 'u32', v.value);
  }
  const pad = (n: number): number => Math.ceil(n / alignment) * alignment;
  let offset = 0;
  const datas: Buffer[] = [];
  const rand = random(seed);
  for (const [name, dims] of tensors) {
    w.str(name);
    w.num('u32', dims.length);
    for (const d of dims) w.num('u64', d);
    w.num('u32', 0); // GGML_TYPE_F32
    w.num('u64', offset);
    const count = dims.reduce((a, b) => a * b, 1);
    const data = Buffer.alloc(pad(count * 4));
    // Norm weights at 1 keep activations finite; other weights small and centred on zero.
    for (let i = 0; i < count; i++) data.writeFloatLE(name.includes('norm') ? 1 : (rand() - 0.5) * 0.2, i * 4);
    datas.push(data);
    offset += data.length;
  }
  w.push(Buffer.alloc(pad(w.length) - w.length));
  for (const d of datas) w.push(d);
  return w.bytes();
}

/**
 * Writes the tiny GGUF to `path` and returns the path.
 * @param path destination file
 */
export function writeTinyGguf(path: string, seed = 42): string {
  writeFileSync(path, buildTinyGguf(seed));
  return path;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const out = resolve(process.argv[2] ?? 'tiny-random.gguf');
  writeTinyGguf(out);
  console.log(`wrote ${out}`);
}
