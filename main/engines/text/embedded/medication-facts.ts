/**
 * The medication list as facts: each drug the visit names with its dose ("we have you on
 * lisinopril twenty milligrams a day", "I take metformin 500 mg twice a day") becomes
 * { drug, dose, frequency }, written in the note's language from the phrase tables. Only what
 * was said: a drug without a dose is not listed here, a frequency only when one was said, and
 * changes of dose (increase, start, stop) belong to the plan, not to the current list.
 */
import { createPhraseMatcher, type PhraseMatcher } from '../../../services/clinical-language/phrase-match.js';
import { DRUG_PHRASES } from '../../../services/clinical-language/medications.js';
import { readDoses } from '../../../services/clinical-language/doses.js';
import { readFrequencies } from '../../../services/clinical-language/units.js';
import type { Sentence } from './transcript.js';

/** A medication the patient is on, as said. */
export interface MedicationFact {
  type: 'medication';
  /** The drug's name as the transcript (or the caller's medication list) spells it. */
  drug: string;
  /** Generic name from the lexicon, to find the drug again under another name. */
  generic: string;
  /** Written dose ("20 mg"). */
  dose: string;
  /** Plain frequency key from the core ("once daily", "twice daily", "every 6 hours", "as needed"). */
  frequency?: string;
  /** False when the fact is read from a line that says more ("She takes metformin 500 mg twice a day for her diabetes"). */
  complete?: boolean;
}

const lexicon = createPhraseMatcher(DRUG_PHRASES);
const CHANGE = /\b(?:increase|decrease|reduce|lower|raise|bump|start|stop|discontinue|hold|switch|change|add|begin|initiate|prescribe|refill|titrate|wean|taper)\w*\b/i;

function matcherFor(listed: readonly string[]): PhraseMatcher<string> {
  if (listed.length === 0) return lexicon;
  return createPhraseMatcher([...DRUG_PHRASES, ...listed.map((n) => ({ value: n.toLowerCase(), phrases: [n] }))]);
}

/**
 * A dose as written, with the lower end of a written range the dose reader leaves before it
 * ("600-800 mg" reads as 800 mg after "600-").
 */
export function doseText(text: string, dose: { start: number; text: string }): string {
  const low = /(\d+(?:\.\d+)?)-$/.exec(text.slice(Math.max(0, dose.start - 12), dose.start));
  return low ? `${low[1]}-${dose.text}` : dose.text;
}

/** Drugs named in a text, by generic name. */
export function drugsNamed(text: string, listed: readonly string[] = []): string[] {
  return [...new Set(matcherFor(listed).find(text).map((h) => h.value))];
}

/**
 * The current medications the transcript states with a dose, before the assessment and plan
 * (`until`, a sentence index) and outside sentences that change a dose. One fact per drug: the
 * first dose said.
 */
export function currentMedications(sentences: readonly Sentence[], until: number, listed: readonly string[] = []): { fact: MedicationFact; index: number }[] {
  const matcher = matcherFor(listed);
  const out = new Map<string, { fact: MedicationFact; index: number }>();
  // "are you taking the lisinopril" / "we have you on twenty milligrams a day": the dose said next names the drug said last.
  let last: { generic: string; name: string; index: number } | undefined;
  sentences.forEach((s, index) => {
    if (index >= until) return;
    const hits = matcher.find(s.text);
    const doses = CHANGE.test(s.text) ? [] : readDoses(s.text).filter((d) => !d.uncertain && (d.unit.kind === 'mass' || d.unit.kind === 'dose' || d.unit.kind === 'volume'));
    const frequencies = readFrequencies(s.text);
    const gap = (from: number, to: number): number => s.text.slice(from, to).split(/\s+/).filter(Boolean).length;
    const record = (generic: string, name: string, dose: (typeof doses)[number]): void => {
      if (out.has(generic)) return;
      const frequency = frequencies.find((f) => f.start >= dose.end && gap(dose.end, f.start) <= 6);
      out.set(generic, {
        fact: { type: 'medication', drug: name.charAt(0).toUpperCase() + name.slice(1), generic, dose: doseText(s.text, dose), ...(frequency ? { frequency: frequency.plain } : {}) },
        index,
      });
    };
    // Only a dose said as the drug's ("we have you on 20 mg", "I take 500 mg") names the drug said last.
    const onIt = /\b(?:have you on|you(?:'re| are) on|i(?:'m| am) on|i take|i(?:'m| am) taking|you(?:'re| are) taking|it(?:'s| is)|that(?:'s| is)|the dose is)\b/i;
    if (hits.length === 0 && last && index - last.index <= 2 && doses.length === 1 && onIt.test(s.text.slice(0, doses[0]!.start))) record(last.generic, last.name, doses[0]!);
    for (const hit of hits) {
      const dose = doses.find((d) => d.start >= hit.end && gap(hit.end, d.start) <= 8);
      if (dose) record(hit.value, s.text.slice(hit.start, hit.end), dose);
    }
    const undosed = hits.filter((h) => !doses.some((d) => d.start >= h.end));
    last = hits.length === 1 && undosed.length === 1 ? { generic: hits[0]!.value, name: s.text.slice(hits[0]!.start, hits[0]!.end), index } : hits.length ? undefined : last;
  });
  return [...out.values()];
}
