/**
 * A tiny Whisper export written by the tests, laid out like Hugging Face's ONNX exports, whose
 * behaviour is known: the decoder is a bigram table (each token's logits name the next token),
 * gated by the encoder output, so audio with sound reads "<|0.50|> no fever today. <|1.50|>" and
 * silence ends at once with <|endoftext|>.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildModel, FLOAT, INT64 } from './onnx-builder.js';

export const TEXT = ['\u0120no', '\u0120fever', '\u0120today', '.', '\u0120pain'];
const SPECIAL = ['<|endoftext|>', '<|startoftranscript|>', '<|en|>', '<|de|>', '<|transcribe|>', '<|translate|>', '<|notimestamps|>'];
const TIMESTAMPS = Array.from({ length: 101 }, (_, i) => `<|${(i * 0.02).toFixed(2)}|>`);
const ALL = [...TEXT, ...SPECIAL, ...TIMESTAMPS];
const id = (t: string): number => ALL.indexOf(t);
const V = ALL.length;
const EOT = id('<|endoftext|>');

function encoder(): Buffer {
  return buildModel({
    inputs: [{ name: 'input_features', type: FLOAT, shape: ['batch', 80, 3000] }],
    outputs: [{ name: 'last_hidden_state', type: FLOAT, shape: ['batch', 1500, 80] }],
    initializers: [
      { name: 'starts', dims: [1], ints: [0] }, { name: 'ends', dims: [1], ints: [1500] }, { name: 'axes', dims: [1], ints: [2] },
    ],
    nodes: [
      { op: 'Slice', inputs: ['input_features', 'starts', 'ends', 'axes'], outputs: ['half'] },
      { op: 'Transpose', inputs: ['half'], outputs: ['last_hidden_state'], attrs: { perm: [0, 2, 1] } },
    ],
  });
}

function decoder(): Buffer {
  const next: Array<[string, string]> = [
    ['<|transcribe|>', '<|0.50|>'], ['<|0.50|>', '\u0120no'], ['\u0120no', '\u0120fever'], ['\u0120fever', '\u0120today'],
    ['\u0120today', '.'], ['.', '<|1.50|>'], ['<|1.50|>', '<|endoftext|>'], ['<|notimestamps|>', '\u0120no'],
  ];
  const table = new Float32Array(V * V);
  for (const [from, to] of next) table[id(from) * V + id(to)] = 10;
  const eotBias = new Float32Array(V);
  eotBias[EOT] = 5;
  return buildModel({
    inputs: [
      { name: 'input_ids', type: INT64, shape: ['batch', 'seq'] },
      { name: 'encoder_hidden_states', type: FLOAT, shape: ['batch', 1500, 80] },
    ],
    outputs: [{ name: 'logits', type: FLOAT, shape: ['batch', 'seq', V] }],
    initializers: [
      { name: 'table', dims: [V, V], floats: table },
      { name: 'eot', dims: [V], floats: eotBias },
      { name: 'shift', dims: [], floats: [1.3] },
      { name: 'gain', dims: [], floats: [20] },
    ],
    nodes: [
      // gate = sigmoid(20 * (mean(encoder output) + 1.3)): near 0 for silence (features all -1.5), near 1 with sound
      { op: 'ReduceMean', inputs: ['encoder_hidden_states'], outputs: ['m'], attrs: { keepdims: 1 } },
      { op: 'Add', inputs: ['m', 'shift'], outputs: ['m1'] },
      { op: 'Mul', inputs: ['m1', 'gain'], outputs: ['m2'] },
      { op: 'Sigmoid', inputs: ['m2'], outputs: ['gate'] },
      { op: 'Gather', inputs: ['table', 'input_ids'], outputs: ['bigram'], attrs: { axis: 0 } },
      { op: 'Mul', inputs: ['bigram', 'gate'], outputs: ['gated'] },
      { op: 'Add', inputs: ['gated', 'eot'], outputs: ['logits'] },
    ],
  });
}

/** Writes the export into `dir` and returns it. */
export function writeTinyWhisper(dir: string): string {
  mkdirSync(join(dir, 'onnx'), { recursive: true });
  writeFileSync(join(dir, 'onnx', 'encoder_model.onnx'), encoder());
  writeFileSync(join(dir, 'onnx', 'decoder_model_merged.onnx'), decoder());
  const base = { decoder_start_token_id: id('<|startoftranscript|>'), eos_token_id: EOT, pad_token_id: EOT, bos_token_id: EOT };
  writeFileSync(join(dir, 'config.json'), JSON.stringify({
    model_type: 'whisper', architectures: ['WhisperForConditionalGeneration'], vocab_size: V, num_mel_bins: 80, d_model: 80,
    encoder_layers: 1, decoder_layers: 1, encoder_attention_heads: 1, decoder_attention_heads: 1,
    max_source_positions: 1500, max_target_positions: 448, is_encoder_decoder: true, use_cache: false, ...base,
  }));
  writeFileSync(join(dir, 'generation_config.json'), JSON.stringify({
    ...base, no_timestamps_token_id: id('<|notimestamps|>'), is_multilingual: true,
    lang_to_id: { '<|en|>': id('<|en|>'), '<|de|>': id('<|de|>') },
    task_to_id: { transcribe: id('<|transcribe|>'), translate: id('<|translate|>') },
    max_length: 448, begin_suppress_tokens: [EOT], suppress_tokens: [], max_initial_timestamp_index: 50,
  }));
  writeFileSync(join(dir, 'preprocessor_config.json'), JSON.stringify({
    feature_extractor_type: 'WhisperFeatureExtractor', processor_class: 'WhisperProcessor', feature_size: 80, hop_length: 160,
    n_fft: 400, n_samples: 480000, nb_max_frames: 3000, sampling_rate: 16000, chunk_length: 30, padding_side: 'right',
    padding_value: 0, return_attention_mask: false,
  }));
  writeFileSync(join(dir, 'tokenizer_config.json'), JSON.stringify({
    tokenizer_class: 'WhisperTokenizer', model_max_length: 1024, bos_token: '<|endoftext|>', eos_token: '<|endoftext|>',
    unk_token: '<|endoftext|>', pad_token: '<|endoftext|>', processor_class: 'WhisperProcessor',
  }));
  writeFileSync(join(dir, 'tokenizer.json'), JSON.stringify({
    version: '1.0', truncation: null, padding: null,
    added_tokens: [...SPECIAL, ...TIMESTAMPS].map((content) => ({
      id: id(content), content, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true,
    })),
    normalizer: null,
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false, trim_offsets: true, use_regex: true },
    post_processor: null,
    decoder: { type: 'ByteLevel', add_prefix_space: true, trim_offsets: true, use_regex: true },
    model: {
      type: 'BPE', dropout: null, unk_token: null, continuing_subword_prefix: '', end_of_word_suffix: '', fuse_unk: false,
      byte_fallback: false, vocab: Object.fromEntries(TEXT.map((t, i) => [t, i])), merges: [],
    },
  }));
  return dir;
}
