/**
 * Sound-alike keys: Double Metaphone (Lawrence Philips), so words a recogniser or a hurried
 * typist spells differently but that sound the same ("zantac" / "santack", "hart" / "heart")
 * share a key. One key for medication correction and macro matching.
 */
import { doubleMetaphone } from 'double-metaphone';

/** Primary and alternate Double Metaphone codes of a word. */
export type SoundKeys = readonly [primary: string, alternate: string];

/**
 * Double Metaphone codes of a word (letters only; other characters are dropped). Null when the
 * word has no letters to sound out.
 */
export function soundKeys(word: string): SoundKeys | null {
  const letters = word.toLowerCase().replace(/[^a-z]/g, '');
  if (!letters) return null;
  const codes = doubleMetaphone(letters);
  return codes[0].length > 0 ? codes : null;
}

/** The primary sound key of a word ('' when it has none): equal keys sound alike. */
export function soundKey(word: string): string {
  return soundKeys(word)?.[0] ?? '';
}

/** Whether two key pairs share a pronunciation (primary or alternate of either side). */
export function keysMatch(a: SoundKeys, b: SoundKeys): boolean {
  return a[0] === b[0] || a[0] === b[1] || a[1] === b[0];
}

/** Whether two words sound alike by Double Metaphone. */
export function soundsAlike(a: string, b: string): boolean {
  const ka = soundKeys(a);
  const kb = soundKeys(b);
  return ka !== null && kb !== null && keysMatch(ka, kb);
}
