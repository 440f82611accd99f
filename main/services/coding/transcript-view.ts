/**
 * The part of a conversation a coder reads when the encounter understanding names no problem:
 * what the clinician says once the visit turns to the assessment and plan ("so for your first
 * problem, your back pain ..."), or the clinician's last turns. Written as a text of the
 * transcript's own length, everything else blanked and an "ASSESSMENT AND PLAN" heading placed in
 * the blank before it, so every offset the coder finds is an offset of the transcript itself.
 * Turns and speakers come from the encounter understanding (`utterances`).
 */
import type { EncounterFacts } from '../encounter/types.js';

/** Where the clinician turns to the assessment and plan. */
const PLAN_OPENING = /\b(?:assessment|impression|my plan|the plan|for your (?:first|next|second|third|last|other) (?:problem|issue)|(?:first|second|third|last|next) problem|so for your)\b/i;
/** Without such an opening, the clinician's last turns (this share of them) hold the plan. */
const TAIL_SHARE = 0.35;
const HEADING = 'ASSESSMENT AND PLAN\n';

/** The transcript with all but the clinician's assessment and plan turns blanked (same length, same offsets). */
export function planView(transcript: string, facts: EncounterFacts): string {
  const clinician = facts.utterances.filter((u) => u.speaker === 'clinician' && u.end > u.start);
  if (!clinician.length) return transcript;
  let from = clinician.findIndex((u) => PLAN_OPENING.test(transcript.slice(u.start, u.end)));
  if (from < 0) from = Math.floor(clinician.length * (1 - TAIL_SHARE));
  const kept = clinician.slice(from);
  const chars = transcript.replace(/[^\n]/g, ' ').split('');
  for (const u of kept) for (let i = u.start; i < u.end; i++) chars[i] = transcript[i]!;
  // Each turn on a line of its own, so a turn's end closes its sentence.
  for (const u of kept) if (u.end < chars.length && chars[u.end] === ' ') chars[u.end] = '\n';
  const room = chars.slice(0, kept[0]!.start).join('').search(new RegExp(` {${HEADING.length + 1},}$`));
  // Without room for the heading the coder reads the kept turns as a text without sections, as it reads a dictation.
  if (room >= 0) chars.splice(room + 1, HEADING.length, ...HEADING.split(''));
  return chars.join('');
}

/**
 * Spans the facts read as not the patient's current condition: probable or ruled-out problems,
 * denied or hedged symptoms, someone else's symptoms, history that is denied or a relative's.
 */
export function notThePatientsNow(facts: EncounterFacts): { start: number; end: number }[] {
  return [
    ...facts.problems.filter((p) => p.certainty !== 'confirmed' || p.status === 'resolved').flatMap((p) => p.evidence),
    ...facts.symptoms.filter((s) => s.presence !== 'reported' || s.subject !== 'patient').flatMap((s) => s.evidence),
    ...facts.history.filter((h) => h.presence !== 'reported' || h.kind === 'family').flatMap((h) => h.evidence),
  ];
}
