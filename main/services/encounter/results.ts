/**
 * Results the clinician reads out: test, value, interpretation, finding and when ("your
 * hemoglobin A1c was 8.2", "the x-ray of your right knee showed no fracture"). An order for a
 * test ("we'll get an MRI") is a plan item, not a result.
 */
import { createPhraseMatcher } from '../clinical-language/phrase-match.js';
import { laterality, onset } from './attributes.js';
import { evidenceOf, type Said } from './said.js';
import type { Interpretation, Result } from './types.js';
import { IMAGING, TEST_ENTRIES } from './tests.js';

const tests = createPhraseMatcher(TEST_ENTRIES);
const REPORTED = /\b(?:show(?:s|ed|n)?|reveal(?:s|ed)?|demonstrat(?:es|ed)|came back|was|were|is|are|(?:have|has) been|running|looks?|looked|read|(?:of|at) \d+)\b/i;
const ORDER = /\b(?:order|get|schedule|obtain|repeat|send you|we(?:'ll| will)|i(?:'ll| will)|going to|want to|need to|should|let's)\b/i;
const INTERPRETATIONS: [RegExp, Interpretation][] = [
  [/\b(?:unremarkable|normal|within normal limits|fine|good|negative|no (?:acute|evidence|sign)|clear)\b/i, 'normal'],
  [/\b(?:elevated|high|raised)\b|(?<=\b(?:is|was|are|were|went|gone|been|running|came|come|going|go)\s+(?:way\s+|a (?:little|bit)\s+)?)up\b/i, 'high'], [/\b(?:low|decreased|down)\b/i, 'low'], [/\b(?:positive)\b/i, 'positive'],
  // "Poorly controlled", "not under control": a measure out of its target range.
  [/\b(?:poorly|not well|not|suboptimally|inadequately|less|badly) (?:under )?control(?:led)?\b|\buncontrolled\b|\bout of control\b/i, 'abnormal'],
  // Not "controlled ventricular response", where the word qualifies the finding after it.
  [/(?<!\b(?:poorly|not well|not|suboptimally|inadequately|less|badly|un)\s*)(?:\bunder (?:good |great |better )?control\b|\b(?:well[- ])?controlled\b(?=\s*(?:[,.;]|$|\b(?:and|but|so|now|today|at|on|with|since|for|overall)\b)))/i, 'controlled'],
  [/\b(?:abnormal|concerning)\b/i, 'abnormal'], [/\b(?:stable|unchanged)\b/i, 'unchanged'], [/\b(?:improved|better)\b/i, 'improved'], [/\b(?:worse|worsened)\b/i, 'worse'],
];
/**
 * A number as a result is read: "3,000", ".7", "8.2", "120/80", with its unit. Not part of a date
 * ("4/24/2021": nothing next to a slash or word character counts) and not an ordinal ("3rd").
 */
const NUMBER = /(?<![\w/.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d*\.\d+|\d+(?:\/\d+)?)(?![\w/]|[.,]\d)\s*(%|mg\/dl|mmol\/l|g\/dl|units?|ng\/ml|mmhg|percent)?/gi;
/** A number that counts time or size, or grades, is no result value: "six months ago", "a three centimeter mass", "grade two". */
const NOT_A_VALUE_AFTER = /^\s*(?:-\s*)?(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?|times|o'clock|centimeters?|cm|millimeters?|mm(?!hg)|inch(?:es)?|milligrams?|mg(?!\/)|micrograms?|mcg|tablets?|pills?|puffs?|feet|foot|pounds?|lbs?|kilograms?|kg|ago|point\b|of (?:the|them|those|these|us)\b|things?\b|more\b|other\b)/i;
const NOT_A_VALUE_BEFORE = /(?:\b(?:grade|stage|class|type|level|number|day|week|month|year|room|page|step|phase|january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sept?|oct|nov|dec)|\b(?:should|supposed to|needs? to|want (?:it|that|this|them) to|goal|target|normal (?:is|range is|would be)|ideally)\b[^.,;]{0,25})\s*$/i;

/** The first number in what was said about a test that reads as its value (a target, a size or a time is none). */
function valueIn(said: string): { number: string; unit?: string } | undefined {
  // "Your creatinine was .7" reaches here as "was.7": a leading point after a word is a decimal.
  const seg = said.replace(/\b(was|is|were|are|of|at|about|around|to)\.(?=\d)/gi, '$1 0.');
  for (const m of seg.matchAll(NUMBER)) {
    const raw = m[1]!;
    if (/^(?:19|20)\d\d$/.test(raw)) continue;
    if (NOT_A_VALUE_AFTER.test(seg.slice(m.index! + raw.length))) continue;
    if (NOT_A_VALUE_BEFORE.test(seg.slice(0, m.index))) continue;
    const number = raw.startsWith('.') ? `0${raw}` : raw.replace(/,(?=\d{3})/g, '');
    return { number, unit: m[2] };
  }
  return undefined;
}

/** Analytes read out as results that the order tables have no key for ("your potassium was low at 3.2"). */
const ANALYTE = /\b(?:lyme (?:titers?|tests?|antibod(?:y|ies))|[a-z]+ titers?|potassium|sodium|creatinine|e?gfr|kidney function|liver (?:function|enzymes)|white (?:blood )?(?:cell )?count|hemoglobin(?! a1c)|platelets?|glucose|blood sugars?|non-?hdl(?: cholesterol)?|(?:good|bad) cholesterol|(?:ldl |hdl |total )?cholesterol|ldl|hdl|alkaline phosphatase|(?:nt-?pro-?)?bnp|(?:hcv|hepatitis c) antibod(?:y|ies)(?: test)?|ast|alt|bilirubin|albumin|hematocrit|triglycerides|vitamin d|(?:vitamin )?b12|ferritin|psa|inr|troponin|d-dimer|sed rate|esr|crp|c-reactive protein|uric acid|calcium|magnesium|urine culture|autoimmune panel)\b/gi;
/** "Everything else looks good": the labs not named were normal. */
const EVERYTHING_ELSE = /\b(?:everything|all) else(?: on (?:your|the|his|her) (?:labs?|blood ?work))? (?:looks?|looked|is|was|came back|were) (?:good|normal|fine|okay|unremarkable)\b/i;

/** The name a note writes for an analyte said in lay words ("the good cholesterol" is the HDL). */
function analyteName(said: string): string {
  const name = said.toLowerCase();
  if (/^non-?hdl/.test(name)) return 'non-hdl cholesterol';
  return name === 'good cholesterol' ? 'hdl cholesterol' : name === 'bad cholesterol' ? 'ldl cholesterol' : name;
}

type Hit = { value: string; start: number; end: number };

/** Tests and analytes named in a sentence, in order, without overlaps. */
function testsIn(text: string): Hit[] {
  const found: Hit[] = [...tests.find(text), ...[...text.matchAll(ANALYTE)].map((m) => ({ value: analyteName(m[0]), start: m.index!, end: m.index! + m[0].length }))];
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  return found.filter((h, k) => !found.slice(0, k).some((o) => h.start < o.end && o.start < h.end));
}

/** The interpretation said first after the test (not the first in a fixed list: "normal except potassium low"). */
function interpretationOf(segment: string): Interpretation | undefined {
  let best: { at: number; kind: Interpretation } | undefined;
  for (const [re, kind] of INTERPRETATIONS) {
    const m = re.exec(segment);
    if (!m || (best && m.index >= best.at)) continue;
    // "Not running high" is no high value; "not normal" says nothing this reader can write.
    const negated = /\b(?:not|never|no longer)\s+(?:\w+\s+)?$|n't\s+(?:\w+\s+)?$/i.test(segment.slice(0, m.index));
    const read: Interpretation | undefined = !negated ? kind : kind === 'high' || kind === 'low' || kind === 'abnormal' || kind === 'positive' ? 'normal' : undefined;
    if (read) best = { at: m.index, kind: read };
  }
  // "They've been low, I mean under control" (the cleaner drops "I mean"): a judgement restated in the same breath gives way
  // to the one said after it.
  if (best) {
    const corrected = /^[a-z-]+\s*,\s*(?:(?:i mean|actually|sorry|or rather|rather|no)\b,?\s*)?(\S.*)$/i.exec(segment.slice(best.at));
    const restated = corrected ? INTERPRETATIONS.find(([re]) => re.exec(corrected[1]!)?.index === 0)?.[1] : undefined;
    // Not a reference range ("low, normal is above 3.5") nor a comparison ("high, better than last year", "low, stable from last time").
    const comparison = corrected && /^\S+\s+(?:is|range|would|above|below|than|from|since|for|compared)\b/i.test(corrected[1]!);
    if (restated && !comparison && restated !== 'unchanged' && restated !== 'improved' && restated !== 'worse') return restated;
  }
  return best?.kind;
}

/** A study named with what it showed in the same sentence is read there, not carried on. */
const ANALYTE_NAME = new RegExp(`^(?:${ANALYTE.source})$`, 'i');
const ASKED_FORM = /^(?:(?:so|and|now|okay|well)\b,?\s*)*(?:have|has|what|how|are|is|do|does|did|were|was)\s+(?:you|your|the|his|her|they|it)\b/i;
const REPORTED_FINDING = /\b(?:show(?:s|ed|n)?|reveal(?:s|ed)?|demonstrat(?:es|ed)|came back|was|were|looks?|looked)\b/i;

/** A study put up to be read ("show me the back x-ray", "this is an x-ray of your lumbar spine", "looking at your MRI"). */
const STUDY_SHOWN = /\b(?:show me|pull up|bring up|this is|here is|here's|looking at|look at|let's look at|i reviewed|we reviewed)\b/i;
/** What a clinician sees on a study put up, said in the next sentences without its name. */
const STUDY_FINDING = /^(?:(?:so|and|now|okay|you know|um|uh)\s*,?\s*)*(?:(?:there(?:'s| is| are)|i (?:can )?see|we (?:can )?see|you can see|it shows|it showed|it looks like there(?:'s| is)|i (?:do not|don't) see|there(?:'s| is) no|there are no|no)\s+)(.{3,90}?)[.!]?$/i;
const STUDY_WORD = /\b(?:alignment|fractures?|dislocation|effusion|mass|arthritis|degenerative|narrowing|stones?|pneumonia|opacit(?:y|ies)|infiltrates?|unremarkable|tears?|bulge|herniation|stenosis|spurs?|joint space|calcification|consolidation|nodules?|cardiomegaly|lesions?|cysts?|swelling)\b/i;

/** The finding a sentence about a study put up states, as a note writes it ("no fracture", "good bony alignment"). */
function studyFinding(text: string): string | undefined {
  const m = STUDY_FINDING.exec(text.trim());
  if (!m || !STUDY_WORD.test(m[1]!)) return undefined;
  const negated = /\b(?:don't|do not) see|there(?:'s| is) no|there are no|^no\b/i.test(m[0].slice(0, m[0].length - m[1]!.length)) || /^(?:(?:so|and|now|okay)\s*,?\s*)*no\b/i.test(text.trim());
  let finding = m[1]!.replace(/\s*(?:,\s*)?(?:or anything (?:like that|else)|or anything|that i can see|here)\s*$/i, '').replace(/\b(\w+),? \1\b/gi, '$1').replace(/\b(?:your|his|her)\b/gi, 'the').replace(/^(?:any|some|a|an|the)\s+/i, '').trim();
  if (/\b(?:i|you|we|me)\b/i.test(finding) || finding.split(/\s+/).length > 10) return undefined;
  if (negated) finding = `no ${finding.replace(/^no\s+/i, '')}`;
  return finding;
}

/** Results read out in the visit. */
export function readResults(said: Said[]): { results: Result[]; used: Set<number> } {
  const out: Result[] = [];
  const used = new Set<number>();
  // The study on screen and how many more sentences may still be about it.
  let shown: { result: Result; left: number } | undefined;
  for (const s of said) {
    if (s.speaker !== 'clinician' || s.question) {
      if (s.speaker !== 'patient' || !s.talk) shown = undefined;
      continue;
    }
    const named = testsIn(s.text).filter((h) => IMAGING.has(h.value));
    if (named.length === 1 && STUDY_SHOWN.test(s.text.slice(0, named[0]!.start)) && !REPORTED_FINDING.test(s.text.slice(named[0]!.end))) {
      const side = laterality(s.text);
      shown = { result: { test: named[0]!.value, evidence: evidenceOf(s), ...(side ? { laterality: side } : {}) }, left: 4 };
      continue;
    }
    if (shown && !s.talk && testsIn(s.text).length === 0) {
      const finding = studyFinding(s.text);
      if (finding) {
        const r = shown.result;
        r.evidence.push(...evidenceOf(s));
        r.finding = r.finding ? `${r.finding}, ${finding}` : finding;
        if (!out.includes(r)) out.push(r);
        used.add(s.i);
        continue;
      }
      if (--shown.left <= 0) shown = undefined;
    } else if (!s.talk) shown = undefined;
    if (s.talk || s.unclearNumber) continue;
    const rest = EVERYTHING_ELSE.exec(s.text);
    // "Everything else on your labs looks good" names no test of its own.
    const hits = testsIn(s.text).filter((h) => !rest || h.end <= rest.index || h.start >= rest.index + rest[0].length);
    hits.forEach((hit, k) => {
      // Each test owns the words up to the next test named: "labs were normal except your potassium was low at 3.2".
      const before = s.text.slice(0, hit.start);
      const after = s.text.slice(hit.end, hits[k + 1]?.start ?? s.text.length);
      // "We'll check your sugars and a metabolic panel to be sure": every test after the order word is ordered.
      if (ORDER.test(before) && !/\b(?:was|were|showed|came back)\b/i.test(after)) return;
      // "If your blood sugars are low, ...": a test named in a condition has no result.
      if (/\b(?:if|unless|in case|whether|when)\s+(?:\S+\s+){0,3}$/i.test(before)) return;
      // "It's essentially a normal x-ray": the reading said before the study's name.
      // "A normal right hand x-ray": the side and part of the body may stand between the reading and the name.
      const judgedBefore = /\b(?:a|an|the)\s+(normal|unremarkable|negative|abnormal)\s+(?:(?:left|right|bilateral|[a-z]+)\s+){0,2}$/i.exec(before);
      const r = resultOf(s, hit, after) ?? (judgedBefore ? { test: hit.value, interpretation: judgedBefore[1]!.toLowerCase() === 'abnormal' ? 'abnormal' : 'normal', evidence: evidenceOf(s), ...(laterality(judgedBefore[0]) ? { laterality: laterality(judgedBefore[0]) } : {}) } as Result : undefined);
      if (!r || out.some((o) => o.test === r.test && o.value === r.value && o.finding === r.finding)) return;
      out.push(r);
      used.add(s.i);
    });
    if (hits.length > 0 && rest && !out.some((o) => o.test === 'other labs')) {
      out.push({ test: 'other labs', interpretation: 'normal', evidence: evidenceOf(s) });
      used.add(s.i);
    }
  }
  return { results: out, used };
}

const CONTRAST_FINDING = /^\s*,?\s*(?:but|however|although)\s+(?:there (?:was|were|is|are)\s+|it (?:showed|shows|also showed)\s+)(?:a |an |some )?((?:[^.;,]|\.(?=\d)){3,80}?)(?=\.(?!\d)|;|,|$)/i;

function resultOf(s: Said, hit: Hit, after: string): Result | undefined {
  if (!REPORTED.test(after)) return undefined;
  // "Have your blood sugars been running in the low one hundreds?" asked without its question mark, or "your blood sugar's
  // probably been running a little high": a question or a guess reports no result.
  if (ASKED_FORM.test(s.text) || (/^\W*(?:\S+\s+){0,2}?(?:probably|maybe|might|may|possibly|likely)\b/i.test(after) && !valueIn(after))) return undefined;
  const seg = after.replace(EVERYTHING_ELSE, '');
  const m = /\b(?:show(?:s|ed|n)?|reveal(?:s|ed)?|demonstrat(?:es|ed)|came back)\s+(?:that\s+)?(?:there(?:'s| is| are| was| were)\s+)?(?:a |an |some )?((?:[^.;]|\.(?=\d)){3,80}?)(?=\.(?!\d)|;|$|,\s*(?:so|and|which|but)\b)/i.exec(seg);
  const value = valueIn(seg);
  // "It showed an ejection fraction of 55%, but there was some abnormal filling": what follows "but" is a second finding of
  // the study, and its judgement ("abnormal") is not the first one's.
  const said = m ? CONTRAST_FINDING.exec(seg.slice(m.index + m[0].length)) : null;
  // Only a finding of the study: not the patient's pain, a decision or talk ("but there is no reason to do surgery").
  const contrast = said && !/\b(?:i|you|we|me|reason|need|talk|things?|surgery|pain|worry|nothing)\b/i.test(said[1]!) && said[1]!.split(/\s+/).length <= 10 ? said : null;
  const judged = interpretationOf(contrast ? seg.slice(0, m!.index + m![0].length) : seg);
  // "Under control" judges a measure followed over time (sugars, cholesterol), not a study ("the ECG shows a-fib, but it's well controlled").
  const interpretation = judged === 'controlled' && !ANALYTE_NAME.test(hit.value) ? undefined : judged;
  const finding = m?.[1]?.concat(contrast ? `; ${contrast[1]}` : '').replace(/\b(?:your|his|her)\b/gi, 'the').replace(/\b(?:a little bit|a little|kind of|sort of|just|pretty|really|actually|basically)\s+/gi, '').replace(/(\d)\s+%/g, '$1%').replace(/\b(?:the|a|an|some|any)\s+/gi, '').trim();
  if (finding && /\b(?:i|you|we|me)\b/i.test(finding)) return undefined;
  // "The labs came back and one of them ...": what follows a conjunction is not what the test showed.
  if (finding && /^(?:and|but|so|or|because|which|that|then|when|if)\b/i.test(finding)) return undefined;
  // A one-word finding ("came back elevated") is the interpretation already read.
  const written = finding && finding.split(/\s+/).length >= 2 ? finding : undefined;
  if (!value && !interpretation && !written) return undefined;
  const side = laterality(s.text);
  const when = onset(s.text);
  const r: Result = { test: hit.value, evidence: evidenceOf(s) };
  if (value) r.value = `${value.number}${value.unit ? (/^(?:%|percent)$/i.test(value.unit) ? '%' : ` ${value.unit.toLowerCase()}`) : ''}`;
  if (interpretation) r.interpretation = interpretation;
  if (written) r.finding = written;
  if (side) r.laterality = side;
  if (when) r.when = when;
  return r;
}
