/**
 * How often the doctor/patient guess (shared/speaker-roles.ts) names the doctor right, on
 * ACI-Bench doctor-patient dialogues whose [doctor]/[patient] tags are the truth: the tags are
 * replaced by speaker numbers (in order of first appearance, as the diarizer numbers them), the
 * guess runs on the numbered lines, and it is right when the speaker it calls the doctor is the
 * tagged doctor. Lines of a third person ([patient_guest]) are left out, as a two-speaker
 * recording would not hold them. Run twice: on the text as written, and as a recogniser would give
 * it (lower case, no punctuation). The rules were written on `train`; the other splits are held out.
 *
 * Run: npx tsx scripts/eval-speaker-roles.ts (also printed by `npm run eval:diarization`)
 */
import { existsSync } from 'node:fs';
import { evalDataPath } from './eval-data.js';
import { readCsv } from './csv.js';
import { guessSpeakerRoles } from '../shared/speaker-roles.js';

const SPLITS = ['train.csv', 'valid.csv', 'clinicalnlp_taskB_test1.csv', 'clinicalnlp_taskC_test2.csv'];

interface Line { role: 'doctor' | 'patient'; text: string }

/** Tagged lines of one dialogue; untagged lines continue the line before. */
export function parseDialogue(dialogue: string): Line[] {
  const lines: Array<Line | { role: 'other'; text: string }> = [];
  for (const raw of dialogue.split('\n')) {
    const m = /^\[(\w+)\]\s*(.*)$/.exec(raw.trim());
    if (m) lines.push({ role: m[1] === 'doctor' ? 'doctor' : m[1] === 'patient' ? 'patient' : 'other', text: m[2]! });
    else if (lines.length && raw.trim()) lines[lines.length - 1]!.text += ` ${raw.trim()}`;
  }
  return lines.filter((l): l is Line => l.role !== 'other');
}

/** Right guesses out of the dialogues with both roles present. */
export function rolesAccuracy(dialogues: Line[][], asRecognised: boolean): { right: number; total: number } {
  let right = 0;
  let total = 0;
  for (const lines of dialogues) {
    const number = new Map<string, number>();
    for (const l of lines) if (!number.has(l.role)) number.set(l.role, number.size);
    if (number.size < 2) continue;
    const numbered = lines.map((l) => ({
      speaker: number.get(l.role)!,
      text: asRecognised ? l.text.toLowerCase().replace(/[^a-z' ]+/g, ' ').replace(/\s+/g, ' ').trim() : l.text,
    }));
    const roles = guessSpeakerRoles(numbered);
    total++;
    if (roles.get(number.get('doctor')!) === 'doctor') right++;
  }
  return { right, total };
}

/** Prints the guess's accuracy on each ACI-Bench split found. */
export function reportSpeakerRoles(): void {
  for (const split of SPLITS) {
    const path = evalDataPath('aci-bench', split);
    if (!existsSync(path)) {
      console.log(`speaker roles: ${split} skipped, ${path} is absent`);
      continue;
    }
    const dialogues = readCsv(path).map((r) => parseDialogue(r.dialogue ?? ''));
    const written = rolesAccuracy(dialogues, false);
    const recognised = rolesAccuracy(dialogues, true);
    const pct = (r: { right: number; total: number }): string => `${r.right}/${r.total} (${((100 * r.right) / Math.max(r.total, 1)).toFixed(1)}%)`;
    console.log(`speaker roles, ACI-Bench ${split.replace('.csv', '')}${split === 'train.csv' ? ' (rules written on it)' : ' (held out)'}: doctor named right in ${pct(written)} as written, ${pct(recognised)} as recognised (no case, no punctuation)`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) reportSpeakerRoles();
