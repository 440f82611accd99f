/**
 * Results the clinician reads out: test, value, interpretation, finding and when ("your
 * hemoglobin A1c was 8.2", "the x-ray of your right knee showed no fracture"). An order for a
 * test ("we'll get an MRI") is a plan item, not a result.
 */
import { createPhraseMatcher } from '../clinical-language/phrase-match.js';
import { laterality, onset } from './attributes.js';
import { evidenceOf, type Said } from './said.js';
import type { Interpretation, Result } from './types.js';
import { TEST_ENTRIES } from './tests.js';

const tests = createPhraseMatcher(TEST_ENTRIES);
const REPORTED = /\b(?:show(?:s|ed|n)?|reveal(?:s|ed)?|demonstrat(?:es|ed)|came back|was|were|is|are|looks?|looked|read|of \d)\b/i;
const ORDER = /\b(?:order|get|schedule|obtain|repeat|send you|we(?:'ll| will)|i(?:'ll| will)|going to|want to|need to|should|let's)\b/i;
const INTERPRETATIONS: [RegExp, Interpretation][] = [
  [/\b(?:unremarkable|normal|within normal limits|fine|good|negative|no (?:acute|evidence|sign)|clear)\b/i, 'normal'],
  [/\b(?:elevated|high|raised|up)\b/i, 'high'], [/\b(?:low|decreased|down)\b/i, 'low'], [/\b(?:positive)\b/i, 'positive'],
  [/\b(?:abnormal|concerning)\b/i, 'abnormal'], [/\b(?:stable|unchanged)\b/i, 'unchanged'], [/\b(?:improved|better)\b/i, 'improved'], [/\b(?:worse|worsened)\b/i, 'worse'],
];
const VALUE = /\b(\d+(?:\.\d+)?(?:\/\d+)?)\s*(%|mg\/dl|mmol\/l|g\/dl|units?|ng\/ml|mmhg|percent)?/i;

/** Results read out in the visit. */
export function readResults(said: Said[]): { results: Result[]; used: Set<number> } {
  const out: Result[] = [];
  const used = new Set<number>();
  for (const s of said) {
    if (s.speaker !== 'clinician' || s.talk || s.question || s.unclearNumber) continue;
    const hit = tests.find(s.text)[0];
    if (!hit) continue;
    const before = s.text.slice(0, hit.start);
    if (ORDER.test(before) && !/\b(?:was|were|showed|came back)\b/i.test(s.text)) continue;
    const after = s.text.slice(hit.end);
    if (!REPORTED.test(after)) continue;
    const m = /\b(?:show(?:s|ed|n)?|reveal(?:s|ed)?|demonstrat(?:es|ed)|came back)\s+(?:that\s+)?(?:there(?:'s| is| are| was| were)\s+)?(?:a |an |some )?((?:[^.;]|\.(?=\d)){3,80}?)(?=\.(?!\d)|;|$|,\s*(?:so|and|which|but)\b)/i.exec(after);
    const value = VALUE.exec(after);
    const interpretation = INTERPRETATIONS.find(([re]) => re.test(after))?.[1];
    const finding = m?.[1]?.replace(/\b(?:your|his|her)\b/gi, 'the').replace(/\b(?:a little bit|a little|kind of|sort of|just|pretty|really|actually|basically)\s+/gi, '').replace(/(\d)\s+%/g, '$1%').replace(/\b(?:the|a|an|some|any)\s+/gi, '').trim();
    if (!value && !interpretation && !finding) continue;
    if (finding && (/\b(?:i|you|we|me)\b/i.test(finding) || finding.split(/\s+/).length < 2)) continue;
    const side = laterality(s.text);
    const when = onset(s.text);
    const r: Result = { test: hit.value, evidence: evidenceOf(s) };
    if (value && !/^(?:19|20)\d\d$/.test(value[1]!)) r.value = `${value[1]}${value[2] ? (value[2] === 'percent' ? '%' : value[2] === '%' ? '%' : ` ${value[2]}`) : ''}`;
    if (interpretation) r.interpretation = interpretation;
    if (finding) r.finding = finding;
    if (side) r.laterality = side;
    if (when) r.when = when;
    if (out.some((o) => o.test === r.test && o.value === r.value && o.finding === r.finding)) continue;
    out.push(r);
    used.add(s.i);
  }
  return { results: out, used };
}
