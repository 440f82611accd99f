/**
 * The encounter as Clindoc understood it (EncounterFacts), written as a short list for a language
 * model's prompt: what the patient reports and denies, each problem with its certainty and side,
 * vital signs apart by where they were measured, and the plan. A model grounded in these facts is
 * held to the same facts afterwards by the fidelity checker (services/notes/fidelity.ts), so a
 * diagnosis it would write as confirmed that the facts hold as possible is flagged, not trusted.
 */
import { understandEncounter } from '../../../services/encounter/understand.js';
import type { EncounterFacts, PlanItem } from '../../../services/encounter/types.js';
import type { NoteGenerationInput } from '../../../services/notes/ports.js';

const CERTAINTY: Record<string, string> = { confirmed: 'confirmed', probable: 'possible, not confirmed', 'ruled-out': 'ruled out' };
const SOURCE: Record<string, string> = { home: 'measured at home', emergency: 'measured in the emergency room', elsewhere: 'measured elsewhere' };

function planText(i: PlanItem): string {
  const drug = i.medication ? [i.action, i.medication.name, i.medication.dose, i.medication.frequency].filter(Boolean).join(' ') : '';
  return [i.kind, drug || i.target || i.text, i.laterality, i.when].filter(Boolean).join(': ').replace(/: (?=[^:]*$)/, ' ');
}

/** The facts as prompt lines; empty when nothing was read. */
export function groundingText(facts: EncounterFacts): string {
  const lines: string[] = [];
  const list = (label: string, items: string[]): void => {
    if (items.length > 0) lines.push(`- ${label}: ${items.join('; ')}`);
  };
  if (facts.reasonForVisit?.term) lines.push(`- Reason for visit: ${facts.reasonForVisit.term}`);
  const own = facts.symptoms.filter((s) => s.subject === 'patient');
  const sided = (term: string, side?: string): string => (side ? `${side} ${term}` : term);
  list('Reports', own.filter((s) => s.presence === 'reported').map((s) => [sided(s.term, s.laterality), s.duration, s.severity].filter(Boolean).join(', ')));
  list('Denies', own.filter((s) => s.presence === 'denied').map((s) => s.term));
  list('Uncertain', own.filter((s) => s.presence === 'uncertain').map((s) => s.term));
  list('History', facts.history.map((h) => `${h.kind}: ${h.presence === 'denied' ? 'no ' : ''}${h.term}${h.relative ? ` (${h.relative})` : ''}`));
  list('Medications', facts.medications.map((m) => [m.name, m.dose, m.frequency, m.status !== 'current' ? m.status : ''].filter(Boolean).join(' ')));
  list('Allergies', facts.allergies.map((a) => (a.reaction ? `${a.substance} (${a.reaction})` : a.substance)));
  list('Vital signs today', facts.vitals.filter((v) => v.source === 'today').map((v) => `${v.kind} ${v.value}`));
  list('Vital signs NOT from today (say where they were measured)', facts.vitals.filter((v) => v.source !== 'today').map((v) => `${v.kind} ${v.value} ${SOURCE[v.source] ?? ''}`.trim()));
  list('Exam', facts.exam.map((e) => `${e.system}: ${e.presence === 'denied' ? 'no ' : ''}${sided(e.finding, e.laterality)}`));
  list('Results', facts.results.map((r) => [r.test, r.value, r.finding, r.interpretation].filter(Boolean).join(' ')));
  for (const p of facts.problems) {
    const head = `${sided(p.name, p.laterality)} (${CERTAINTY[p.certainty] ?? p.certainty}${p.status !== 'unknown' ? `, ${p.status}` : ''})`;
    lines.push(`- Problem: ${head}${p.plan.length ? `; plan: ${p.plan.map(planText).join('; ')}` : ''}`);
  }
  list('Plan for the visit', facts.plan.map(planText));
  return lines.join('\n');
}

/**
 * Reads the encounter for a note request; undefined when it cannot be read (the note is then
 * written from the transcript alone, and the checker reads the facts itself).
 */
export function readFactsFor(input: NoteGenerationInput): EncounterFacts | undefined {
  try {
    return understandEncounter({
      transcript: input.transcript,
      ...(input.patientInfo ? { patientInfo: input.patientInfo } : {}),
      ...(input.medicationList ? { medicationList: input.medicationList } : {}),
      ...(input.previousNote ? { previousNote: input.previousNote } : {}),
      ...(input.context ? { context: input.context } : {}),
      language: input.language,
    });
  } catch {
    return undefined;
  }
}
