import { ENUM_SYNONYMS } from './lexicon.js';
import { isNegated } from '../../services/clinical-language/context.js';
import { splitSentences } from '../../services/clinical-language/tokenize.js';

export const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Picks the enum value a text mentions, preferring sentences that name the field. */
export function enumFromText(values: unknown[], text: string, w: { key: string; all: string }): unknown {
  // Prefer a value mentioned in a sentence that also names the field.
  const keyWord = w.key.split(' ').filter((x) => x.length > 3)[0];
  // Clauses: sentences (decimals and titles kept whole), lines, and parts joined by semicolons.
  const sentences = splitSentences(text, { lineBreaks: true }).flatMap((s) => s.split(/(?<=;)/));
  const scoped = keyWord ? sentences.filter((s) => s.toLowerCase().includes(keyWord)) : [];
  for (const pool of [scoped, sentences]) {
    for (const s of pool) {
      const mapped = mapToEnum(s, values, true);
      if (mapped !== undefined) return mapped;
    }
  }
  return undefined;
}

/**
 * Maps text onto one of the allowed values: exact, case-insensitive, synonym group, or (when
 * `within`) a value or synonym mentioned inside a longer text.
 */
export function mapToEnum(value: string, values: unknown[], within = false): unknown {
  const v = value.trim().toLowerCase();
  const strings = values.filter((x): x is string | number => typeof x === 'string' || typeof x === 'number');
  const exact = strings.find((x) => String(x).toLowerCase() === v);
  if (exact !== undefined) return exact;
  const group = ENUM_SYNONYMS.find((g) => g.includes(v));
  if (group) {
    const hit = strings.find((x) => group.includes(String(x).toLowerCase()));
    if (hit !== undefined) return hit;
  }
  if (!within) {
    const contained = strings.find((x) => String(x).length > 2 && (v.includes(String(x).toLowerCase()) || String(x).toLowerCase().includes(v)));
    return contained;
  }
  let best: { value: string | number; at: number } | undefined;
  for (const x of strings) {
    const names = [String(x).toLowerCase(), ...(ENUM_SYNONYMS.find((g) => g.includes(String(x).toLowerCase())) ?? [])];
    for (const n of names) {
      if (n.length < 3) continue;
      const m = new RegExp(`\\b${escapeRe(n)}\\b`, 'i').exec(v);
      if (m && !isNegated(v, m.index, m.index + n.length) && (!best || m.index < best.at)) best = { value: x, at: m.index };
    }
  }
  return best?.value;
}
