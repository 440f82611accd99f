/**
 * A problem's name as a clinician writes it, and one problem per condition: the words of speech a name was read with
 * ("basically just a strain", "those kidney stones", "evidence of any fracture") are dropped; a name that is no
 * condition ("diagnosis", "physical exam", "surgery") opens no problem; and a condition named twice, once more
 * precisely ("impingement syndrome" and "impingement syndrome of left shoulder", "diabetes" and "type 2 diabetes
 * mellitus"), is one problem under its precise name, with the plans of both. Conditions at two places ("knee pain",
 * "shoulder pain") or one ruled out stay apart.
 */
import { BODY_SITES, SITE_RE } from './attributes.js';
import type { PlanItem, Problem } from './types.js';

const SPOKEN_LEAD = /^(?:(?:basically|just|really|probably|actually|definitely|those|these|that|this|the|a|an|some|any|little|a little|kind of|sort of|evidence of|type of|signs? of|what looks like)\s+)+/i;
/** Words that name no condition of their own: a visit's part, a judgement, a procedure. */
const NOT_A_CONDITION = /^(?:diagnosis|(?:physical )?exam(?:ination)?|surgery|(?:favorable|good|poor) (?:diagnosis|prognosis)|prognosis|pain|recurrence(?: of)?|problem|issue|condition|plan|treatment|follow-?up)$/i;
// Words that qualify a condition without changing which one it is: course, severity, type of diabetes, side and site.
const QUALIFIER = new RegExp(String.raw`\b(?:acute|chronic|recurrent|mild|moderate|severe|medium|grade|low|high|non-?healing|residual|newly|diagnosed|new|early|uncontrolled|controlled|poorly|stable|worsening|type\s*(?:1|2|one|two|i|ii)|mellitus|left|right|bilateral|index|middle|ring|pinky|big|great|of|the|on|in|at|${BODY_SITES.join('|')})s?\b`, 'gi');
const core = (name: string): string => name.toLowerCase().replace(QUALIFIER, ' ').replace(/\s+/g, ' ').trim();
const SITE = new RegExp(SITE_RE.source, 'gi');
const sitesOf = (name: string): string => [...new Set((name.toLowerCase().match(SITE) ?? []).map((x) => x.replace(/s$/, '')))].sort().join(',');
/** One condition: the same once qualifiers are set aside, and not at two different places ("knee pain", "shoulder pain"). */
const sameCondition = (a: string, b: string): boolean => {
  const [sa, sb] = [sitesOf(a), sitesOf(b)];
  return core(a) !== '' && core(a) === core(b) && (!sa || !sb || sa === sb);
};

/** The name without the words of speech it was said with; undefined when what is left names no condition. */
export function problemName(name: string): string | undefined {
  const spoken = name.replace(SPOKEN_LEAD, '').trim();
  const tidy = spoken.replace(/\s+diagnosis$/i, '').trim();
  return tidy && !NOT_A_CONDITION.test(spoken) && !NOT_A_CONDITION.test(tidy) ? tidy : undefined;
}

/**
 * Tidy each problem's name, drop what names no condition, and join a condition named twice. The orders of a dropped
 * "problem" ("Diagnosis", "Physical exam") go to the visit's plan (`general`), which is returned beside the problems.
 */
export function tidyProblems(problems: Problem[], general: PlanItem[]): Problem[] {
  const out: Problem[] = [];
  for (const p of problems) {
    const name = problemName(p.name);
    if (!name) {
      general.push(...p.plan);
      continue;
    }
    p.name = name;
    const same = out.find((o) => sameCondition(o.name, p.name) && o.certainty !== 'ruled-out' && p.certainty !== 'ruled-out');
    if (!same) {
      out.push(p);
      continue;
    }
    // The more precise name (more words) is kept; a confirmation said either time confirms it.
    if (p.name.split(/\s+/).length > same.name.split(/\s+/).length) same.name = p.name;
    if (p.certainty === 'confirmed') same.certainty = 'confirmed';
    if (same.status === 'unknown') same.status = p.status;
    same.laterality ??= p.laterality;
    same.reasoning.push(...p.reasoning.filter((r) => !same.reasoning.includes(r)));
    same.plan.push(...p.plan);
    same.evidence.push(...p.evidence);
  }
  return out;
}
