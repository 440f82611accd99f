/**
 * The API counts positions in Unicode code points (API-DECISIONS "Text positions"); JavaScript
 * strings count UTF-16 units. One converter per text, built only when the text has characters
 * outside the Basic Multilingual Plane.
 */

/** Converts UTF-16 offsets of `text` to code-point offsets. */
export function codePointOffsets(text: string): (utf16: number) => number {
  if (!/[\uD800-\uDBFF]/.test(text)) return (i) => i;
  const table = new Uint32Array(text.length + 1);
  let cp = 0;
  for (let i = 0; i < text.length; i++) {
    table[i] = cp;
    const c = text.charCodeAt(i);
    // The low half of a pair shares the position of its high half.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) table[++i] = cp;
    }
    cp++;
  }
  table[text.length] = cp;
  return (i) => table[i]!;
}

/** An evidence span in the API's form: code points, end exclusive, with the text it covers. */
export interface EvidenceSpan {
  start_char: number;
  end_char: number;
  text: string;
}

/** Builds evidence spans from UTF-16 ranges of `text`. */
export function toEvidence(text: string, spans: readonly { start: number; end: number }[], max = 5): EvidenceSpan[] {
  const cp = codePointOffsets(text);
  const seen = new Set<string>();
  const out: EvidenceSpan[] = [];
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    const key = `${s.start}:${s.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ start_char: cp(s.start), end_char: cp(s.end), text: text.slice(s.start, s.end) });
    if (out.length >= max) break;
  }
  return out;
}
