/** The BMI status code (Z68) beside a weight diagnosis, as the guideline allows it (never alone). */
import type { Candidate } from './conventions.js';
import type { NoteSentence } from '../encounter/written-note.js';
import type { CodeTable } from './ports.js';

/** Adds the BMI code when the note documents a weight diagnosis the BMI qualifies (guideline: never alone). */
export function addBmi(table: CodeTable, scope: readonly NoteSentence[], out: Map<string, Candidate>): void {
  if (![...out.values()].some((c) => /^(E66|E4[0-6]|R63\.6)/.test(c.entry.code))) return;
  for (const s of scope) {
    const m = /\b(?:BMI|body mass index)\b\D{0,15}?(\d{2}(?:\.\d+)?)/i.exec(s.text);
    if (!m) continue;
    const value = Number(m[1]);
    const entry = table.billableUnder('Z68').find((e) => !/pediatric/i.test(e.title) && bmiRange(e.title, value));
    if (!entry) return;
    const at = s.start + m.index;
    out.set(entry.code, {
      entry, role: 'status', spans: [{ start: at, end: at + m[0].length }], firstAt: at, why: ['BMI documented with a weight diagnosis'],
      evidenceScore: 0.85, symptom: false, headline: false, related: [], concepts: [], discussionOnly: false,
    });
    return;
  }
}

/** "Body mass index [BMI] 36.0-36.9, adult" covers 36.4; "... 19.9 or less" and "... 70 or greater" too. */
function bmiRange(title: string, v: number): boolean {
  const range = /(\d+(?:\.\d+)?)\s*-\s*(\d+(?:\.\d+)?)/.exec(title);
  if (range) return v >= Number(range[1]) && v < Math.floor(Number(range[2])) + 1;
  const less = /(\d+(?:\.\d+)?) or less/.exec(title);
  if (less) return v <= Number(less[1]);
  const more = /(\d+(?:\.\d+)?) or greater/.exec(title);
  return more ? v >= Number(more[1]) : false;
}

