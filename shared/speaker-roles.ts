/**
 * Who is the doctor? A guess from the dialogue alone, for a two-speaker recording whose speakers
 * the diarizer numbered without knowing their roles. The clinician leads a visit: asks most of
 * the questions, opens with "what brings you in", gives instructions and plans ("let's", "I'm going
 * to order", "take a deep breath"); the patient reports ("I have", "my", "it hurts"). Each speaker
 * gets a score from those cues per line; the highest score is the doctor. Measured on ACI-Bench
 * dialogues with their speaker tags removed: `npm run eval:diarization -- --roles`.
 */

export type SpeakerRole = 'doctor' | 'patient';

/** Openings of a question when the recogniser wrote no question mark. */
const QUESTION_START = /^(what|how|when|where|why|which|who|do|does|did|are|is|was|were|have|has|had|can|could|would|will|any|anything|tell me)\b/;

/** Phrasing a clinician uses: eliciting, examining, explaining, ordering, planning. */
const CLINICIAN = [
  /\bwhat brings you\b/, /\bhow (can|may) i help\b/, /\bhow are you( doing| feeling)?\b/, /\bhow long\b/, /\bhow often\b/, /\bhow much\b/,
  /\bany (other|chest|shortness|fever|pain|nausea|history|allerg|change|problem|question|trouble)/, /\bdo you (have|take|smoke|drink|feel|notice|know)\b/,
  /\bhave you (had|been|noticed|tried|taken|ever)\b/, /\bare you (taking|having|still|able)\b/, /\btell me\b/,
  /\blet me\b/, /\blet's\b/, /\bi('m| am) (going to|gonna)\b/, /\bi (want|would like|'d like) (you )?to\b/, /\bwe('ll| will| can| should| need)\b/,
  /\bi('ll| will) (order|prescribe|refer|send|start|give|check|see)\b/, /\b(recommend|prescrib|refer|order|follow[- ]?up|exam|examine|diagnos|biopsy|x-?ray|mri|ct scan|labs?|blood work|dose|mg|milligram)/,
  /\btake a (deep )?breath\b/, /\b(lie|lay) (back|down)\b/, /\bsqueeze\b/, /\bpush (against|down|up)\b/, /\bon (your )?exam(ination)?\b/, /\byour (blood pressure|heart|lungs|labs|results)\b/,
];

/** Phrasing a patient uses: reporting symptoms and their own history. */
const PATIENT = [
  /\bi (have|had|feel|felt|get|got|noticed|think|guess|don't know|do n't know|was|been|started|can't|ca n't|take|took|tried)\b/, /\bi('ve| have) been\b/, /\bi'm (having|feeling|not sure|worried|scared)\b/,
  /\bmy (\w+ )?(pain|back|chest|head|knee|leg|arm|stomach|wife|husband|mom|dad|mother|father|son|daughter|doctor|medication|pills)\b/,
  /\bit (hurts|hurt|aches|started|gets worse|comes and goes)\b/, /\bthank you,? doctor\b/, /\bdoc(tor)?\b/, /\b(yes|no|yeah|nope|mm-hmm|uh-huh|okay|sure)\b[.,!]?$/,
];

/** A line's lean towards the clinician (positive) or the patient (negative). */
function lineScore(text: string): number {
  const line = text.trim().toLowerCase();
  if (!line) return 0;
  const sentences = line.split(/(?<=[.?!])\s+/).filter(Boolean);
  let score = 0;
  for (const s of sentences) {
    if (s.endsWith('?') || (!/[.!?]$/.test(s) && QUESTION_START.test(s))) score += 1;
  }
  for (const re of CLINICIAN) if (re.test(line)) score += 1;
  for (const re of PATIENT) if (re.test(line)) score -= 1;
  return score;
}

/**
 * Guesses a role for each speaker of a dialogue: the speaker whose lines lean most towards the
 * clinician is the doctor, every other speaker a patient. Empty when fewer than two speakers talk.
 */
export function guessSpeakerRoles(lines: ReadonlyArray<{ speaker: number | null; text: string }>): Map<number, SpeakerRole> {
  const scores = new Map<number, { sum: number; lines: number }>();
  for (const { speaker, text } of lines) {
    if (speaker === null) continue;
    const s = scores.get(speaker) ?? { sum: 0, lines: 0 };
    s.sum += lineScore(text);
    s.lines += 1;
    scores.set(speaker, s);
  }
  const roles = new Map<number, SpeakerRole>();
  if (scores.size < 2) return roles;
  // A mean per line, so a talkative patient does not outscore a doctor who asks short questions;
  // the total breaks a tie. Speaker order breaks the rest: the one who speaks first usually leads.
  const ranked = [...scores.entries()].sort(([a, x], [b, y]) => y.sum / y.lines - x.sum / x.lines || y.sum - x.sum || a - b);
  for (const [i, [speaker]] of ranked.entries()) roles.set(speaker, i === 0 ? 'doctor' : 'patient');
  return roles;
}

export const ROLE_LABEL: Record<SpeakerRole, string> = { doctor: 'Doctor', patient: 'Patient' };

/**
 * One line per utterance, labelled "Doctor:" / "Patient:" when exactly two speakers talk (the
 * guess above), else "Speaker N:"; the plain text when one speaker or none was told apart.
 */
export function labelledTranscript(utterances: ReadonlyArray<{ speaker: number | null; text: string }>, plain: string): string {
  const speakers = new Set(utterances.map((u) => u.speaker).filter((s) => s !== null));
  if (utterances.length === 0 || speakers.size < 2) return plain.trim();
  const roles = speakers.size === 2 ? guessSpeakerRoles(utterances) : new Map<number, SpeakerRole>();
  return utterances
    .map((u) => {
      const role = u.speaker === null ? undefined : roles.get(u.speaker);
      return `${role ? ROLE_LABEL[role] : `Speaker ${(u.speaker ?? 0) + 1}`}: ${u.text.trim()}`;
    })
    .join('\n');
}

/** True when a transcript has lines labelled with both roles, so swapping them means something. */
export function hasRoleLabels(transcript: string): boolean {
  return /^Doctor:/m.test(transcript) && /^Patient:/m.test(transcript);
}

/** Relabels every line: "Doctor:" becomes "Patient:" and the reverse; other lines stay as they are. */
export function swapRoleLabels(transcript: string): string {
  return transcript.replace(/^(Doctor|Patient):/gm, (_, role: string) => (role === 'Doctor' ? 'Patient:' : 'Doctor:'));
}
