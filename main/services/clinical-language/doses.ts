/**
 * Doses and measurements: a number (spoken or written) followed by a unit, "five hundred
 * milligrams" -> 500 mg, "2.5mg" -> 2.5 mg, "one to two puffs" is not a dose (puffs are counted,
 * not measured), "one twenty over eighty millimeters of mercury" -> 120/80 mmHg.
 */
import { readNumbers, type NumberReading } from './numbers.js';
import { tokenize } from './tokenize.js';
import { formatQuantity, unitAt, type Unit } from './units.js';

/** A quantity with its unit, as found in the text ("five hundred milligrams" -> 500 mg, "2-3 mg", "98%"). */
export interface Dose extends Pick<NumberReading, 'start' | 'end' | 'spoken' | 'text' | 'value' | 'to' | 'over' | 'uncertain'> {
  unit: Unit;
}

/** Every number followed by a unit of measure, in order. */
export function readDoses(text: string): Dose[] {
  const tokens = tokenize(text);
  const words = tokens.map((t) => t.text.toLowerCase());
  const out: Dose[] = [];
  for (const r of readNumbers(text)) {
    const k = tokens.findIndex((t) => t.start >= r.end);
    if (k < 0 || !/^[\s-]*$/.test(text.slice(r.end, tokens[k]!.start))) continue;
    // "2.5mg" and "98%" tokenise apart, so a unit written against the digits is found too.
    const unit = unitAt(words, k, r.value);
    if (!unit) continue;
    const end = tokens[unit.next - 1]!.end;
    out.push({
      start: r.start, end, spoken: text.slice(r.start, end), text: formatQuantity(r.text, unit.unit),
      value: r.value, ...(r.to !== undefined ? { to: r.to } : {}), ...(r.over !== undefined ? { over: r.over } : {}),
      unit: unit.unit, uncertain: r.uncertain,
    });
  }
  // "Half a cc of lidocaine", "a half a milligram": half of one unit, said without a number.
  for (const m of text.matchAll(/\b(?:a\s+)?half\s+(?:an?\s+)/gi)) {
    const k = tokens.findIndex((t) => t.start >= m.index + m[0].length);
    const unit = k >= 0 && tokens[k]!.start === m.index + m[0].length ? unitAt(words, k, 0.5) : undefined;
    if (!unit || out.some((d) => d.start <= m.index && d.end > m.index)) continue;
    const end = tokens[unit.next - 1]!.end;
    out.push({ start: m.index, end, spoken: text.slice(m.index, end), text: formatQuantity('0.5', unit.unit), value: 0.5, unit: unit.unit, uncertain: false });
  }
  return out.sort((a, b) => a.start - b.start);
}
