/**
 * CTC vocabularies as exported next to ONNX speech models:
 * - `vocab.json` (Hugging Face wav2vec2): `{"<pad>": 0, "|": 4, "E": 5, ...}`; the blank is
 *   `<pad>`, words are separated by `|`;
 * - `tokens.txt` (sherpa-onnx, NeMo, icefall): one `token id` pair per line (or one token per
 *   line, numbered from 0); the blank is `<blk>`/`<blank>`, and SentencePiece pieces start a word
 *   with `▁`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { engineUnavailable } from '../../../services/errors.js';

export interface CtcVocabulary {
  /** Token text by id; special tokens (`<unk>`, `<s>`...) map to ''. */
  tokens: string[];
  blankId: number;
  /**
   * How words are marked: `delimiter` (a token such as `|` or a space between words) or
   * `prefix` (a token starting with `▁` begins a word).
   */
  wordMark: { kind: 'delimiter'; token: string } | { kind: 'prefix'; token: string };
}

const BLANK_NAMES = ['<blk>', '<blank>', '<pad>', '[PAD]', '<eps>'];
const isSpecial = (t: string): boolean => /^<[^>]*>$/.test(t) || /^\[[A-Z]+\]$/.test(t);

function fromEntries(entries: Array<[string, number]>, blankOverride?: number): CtcVocabulary {
  const size = Math.max(...entries.map(([, id]) => id)) + 1;
  const raw = new Array<string>(size).fill('');
  for (const [t, id] of entries) raw[id] = t;
  const named = BLANK_NAMES.map((b) => entries.find(([t]) => t === b)).find(Boolean);
  const blankId = blankOverride ?? named?.[1] ?? 0;
  const hasPrefix = entries.some(([t]) => t.startsWith('\u2581'));
  const wordMark: CtcVocabulary['wordMark'] = hasPrefix
    ? { kind: 'prefix', token: '\u2581' }
    : { kind: 'delimiter', token: entries.some(([t]) => t === '|') ? '|' : ' ' };
  const tokens = raw.map((t, id) => (id === blankId || (isSpecial(t) && t !== wordMark.token) ? '' : t));
  return { tokens, blankId, wordMark };
}

/** Parses `tokens.txt` text. */
export function parseTokensTxt(text: string, blankId?: number): CtcVocabulary {
  const lines = text.split(/\r?\n/).filter((l) => l.length > 0);
  const entries = lines.map((line, i): [string, number] => {
    const m = /^(.*)\s+(\d+)$/.exec(line);
    return m ? [m[1]!, Number(m[2])] : [line, i];
  });
  return fromEntries(entries, blankId);
}

/** Parses `vocab.json` text. */
export function parseVocabJson(text: string, blankId?: number): CtcVocabulary {
  const obj = JSON.parse(text) as Record<string, number>;
  return fromEntries(Object.entries(obj).filter(([, id]) => Number.isInteger(id)), blankId);
}

/** Loads the vocabulary from a model folder: `vocab.json` first, then `tokens.txt`. */
export function loadVocabulary(modelDir: string, blankId?: number): CtcVocabulary {
  const json = join(modelDir, 'vocab.json');
  if (existsSync(json)) return parseVocabJson(readFileSync(json, 'utf8'), blankId);
  const txt = join(modelDir, 'tokens.txt');
  if (existsSync(txt)) return parseTokensTxt(readFileSync(txt, 'utf8'), blankId);
  throw engineUnavailable('ONNX CTC model folder has no vocab.json or tokens.txt');
}
