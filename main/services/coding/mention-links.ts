/**
 * Mentions that inform one another before they are resolved: a generic mention ("diabetes")
 * takes the specific concept its group names elsewhere ("type 1 diabetes"), and a complication
 * called "diabetic" brings the diabetes it implies.
 */
import type { ResolvedConcept } from './lexicon.js';
import type { Mention } from './mentions.js';

/** A generic mention ("diabetes", "anemia") takes the specific concept its group names elsewhere ("type 1 diabetes"). */
export function mergeGroups(mentions: Mention[]): void {
  for (const m of mentions) {
    if (!m.concept?.generic || !m.concept.group || m.role !== 'current') continue;
    const specific = mentions.find((o) => o.role === 'current' && o.concept?.group === m.concept!.group && !o.concept?.generic);
    if (!specific?.concept) continue;
    m.concept = specific.concept;
    m.words = [...new Set([...m.words, ...specific.concept.words])];
    for (const w of specific.concept.words) if (!m.context.positive.has(w)) m.context.positive.set(w, 1);
  }
}

/**
 * "Diabetic foot ulcer", "diabetic neuropathy": the word links the complication to a diabetes the
 * note may name nowhere else; the guideline codes a diabetes of unstated type as type 2 (E11) with
 * the complication's combination code. The diabetes mention shares the complication's span.
 */
export function addDiabetesOfComplications(diabetes: ResolvedConcept | undefined, text: string, mentions: Mention[]): void {
  if (!diabetes) return;
  for (const m of [...mentions]) {
    if (m.role !== 'current' || m.concept?.group === 'diabetes' || !/\bdiabetic\b/i.test(text.slice(m.start, m.end))) continue;
    const positive = new Map(m.context.positive);
    for (const w of diabetes.words) positive.set(w, 1);
    const { titleEntry: _table, ...own } = m;
    mentions.push({ ...own, concept: diabetes, source: 'synonym', words: [...new Set([...m.words, ...diabetes.words])], context: { positive, absent: m.context.absent } });
  }
}
