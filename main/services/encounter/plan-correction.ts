/**
 * A clinician correcting an order just given: "I'll prescribe meloxicam 15 mg daily. Actually,
 * let's make that 7.5 mg" orders 7.5 mg; "no, sorry, make that twice a day" changes how often;
 * "oh wait, you have kidney disease, so let's do Tylenol 500 mg instead" replaces the drug. The
 * note must carry what was finally ordered, never the dose said first.
 */
import { doseAfter, frequencyAfter } from './medications.js';
import type { PhraseMatcher } from '../clinical-language/phrase-match.js';
import type { PlanItem } from './types.js';

/** Words that take back what was just said. */
const CORRECTS = /\b(?:make (?:that|it)|change (?:that|it) to|instead|i mean|rather|scratch that|sorry|actually|on second thought|wait)\b/i;
/** How many sentences after an order a correction may still refer to it. */
const REACH = 3;

/** The last medication order placed, where it stands, and in which sentence it was said. */
export interface LastOrder {
  item: PlanItem;
  list: PlanItem[];
  sentence: number;
}

/**
 * Applies a correction in `clause` (sentence `sentence`) to the last order: returns true when the
 * clause was one. `items` are the plan items the clause itself gives.
 */
export function applyCorrection(last: LastOrder | undefined, clause: string, sentence: number, items: PlanItem[], evidence: PlanItem['evidence'], drugs: PhraseMatcher<string>): boolean {
  if (!last || sentence - last.sentence > REACH || !CORRECTS.test(clause) || !last.item.medication) return false;
  const med = items.find((i) => i.kind === 'medication' && i.medication);
  const was = last.item.medication;
  // A dose said with another drug's name is that drug's, never the last order's.
  if (!med && drugs.find(clause).some((h) => h.value !== was.generic)) return false;
  if (med && med.medication!.generic !== was.generic) {
    // Another drug "instead": it takes the first one's place under the same problem.
    // Only an explicit replacement: "actually, I also want to start metformin" adds a drug.
    if (!/\b(?:instead|rather than|scratch that)\b/i.test(clause)) return false;
    const at = last.list.indexOf(last.item);
    if (at < 0) return false;
    const replaced: PlanItem = { ...med, evidence: [...last.item.evidence, ...evidence] };
    last.list.splice(at, 1, replaced);
    last.item = replaced;
    last.sentence = sentence;
    return true;
  }
  const dose = med?.medication?.dose ?? doseAfter(clause, 0)?.text;
  const frequency = med?.medication?.frequency ?? frequencyAfter(clause, 0);
  if (!dose && !frequency) return false;
  last.item.medication = { ...was, ...(dose ? { dose } : {}), ...(frequency ? { frequency } : {}) };
  last.item.evidence = [...last.item.evidence, ...evidence];
  last.sentence = sentence;
  return true;
}

/** "You can take it about every six hours", "I'm going to give you forty milligrams daily": the dose and schedule of the order just given. */
const OF_IT = /\b(?:(?:take|use|apply)\s+(?:it|that|this|them|those|one|two)|giv(?:e|ing)\s+(?:you|him|her)\s+(?=\S+\s+(?:milligrams?|mg|micrograms?|mcg|units?)\b))/i;

/**
 * Gives the last order (the same or the next sentence) the dose and schedule a clause that orders nothing says
 * of it, where the order has none: true when the clause was one.
 */
export function applySchedule(last: LastOrder | undefined, clause: string, sentence: number, items: readonly PlanItem[], evidence: PlanItem['evidence'], list: readonly PlanItem[]): boolean {
  const was = last?.item.medication;
  // Only of the same problem's order, and never a schedule said as a negation ("you don't have to take it every day").
  if (!last || !was || items.length > 0 || sentence - last.sentence > 1 || last.list !== list || /\b(?:not|never|don't|doesn't)\b|n't\b/i.test(clause)) return false;
  const at = clause.search(OF_IT);
  if (at < 0) return false;
  const dose = was.dose ? undefined : doseAfter(clause, at)?.text;
  const frequency = was.frequency ? undefined : frequencyAfter(clause, at);
  if (!dose && !frequency) return false;
  last.item.medication = { ...was, ...(dose ? { dose } : {}), ...(frequency ? { frequency } : {}) };
  last.item.evidence = [...last.item.evidence, ...evidence];
  return true;
}
