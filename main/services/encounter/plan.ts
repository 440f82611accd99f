/**
 * Plan items from the clinician's words: a medication started, continued, changed or stopped
 * (with dose and frequency as said), a test or imaging study ordered, a referral, a procedure,
 * counselling and follow-up. A negated order ("you don't need an MRI", "no need to change your
 * dose") is no order. Each item keeps the clause it was read from as evidence.
 */
import { contextOf } from '../clinical-language/context.js';
import { createPhraseMatcher, type PhraseMatcher } from '../clinical-language/phrase-match.js';
import { laterality } from './attributes.js';
import { capitalise, doseAfter, frequencyAfter, routeOf } from './medications.js';
import { IMAGING, SPECIALTY_ENTRIES, TEST_ENTRIES } from './tests.js';
import { stripTalk } from './talk.js';
import { agree } from './narrative.js';
import type { MedicationAction, PlanItem } from './types.js';

const tests = createPhraseMatcher(TEST_ENTRIES);
const specialties = createPhraseMatcher(SPECIALTY_ENTRIES);

const ACTIONS: [RegExp, MedicationAction][] = [
  [/\b(?:increase|up|double|raise|bump(?:ing)? up|go up on)\b/i, 'increase'], [/\b(?:decrease|reduce|lower|cut back|taper|wean|go down on|half)\b/i, 'decrease'],
  [/\b(?:stop|discontinue|hold|come off|get you off|take you off)\b/i, 'stop'], [/\b(?:switch|change you)\b/i, 'change'],
  [/\b(?:refill|renew)\b/i, 'refill'], [/\b(?:continue|keep (?:you|him|her|taking)|stay on|remain on|resume)\b/i, 'continue'],
  [/\b(?:start|begin|initiate|put (?:you|him|her) on|try|add|prescribe|give (?:you|him|her)|send (?:in )?(?:a )?(?:prescription|script)|write (?:you )?(?:a )?(?:prescription|script)|recommend)\b/i, 'start'],
];
const ORDER_VERB = /\b(?:order|get|obtain|check|schedule|do|repeat|draw|send|run|set (?:you )?up|recommend|want|need|have)\b/i;
const REFER = /\b(?:refer|referral|send (?:you|him|her) (?:to|over)|see (?:a|an|the) |consult|set (?:you|him|her) up with)\b/i;
const PROCEDURES: [RegExp, string][] = [
  [/\b(?:steroid |cortisone )?injection\b|\binject\b/i, 'injection'], [/\baspirat\w*|\bdrain (?:the|that)\b/i, 'aspiration'], [/\bsurgery\b|\bsurgical\b|\boperat(?:e|ion)\b/i, 'surgery'],
  [/\bbrace\b/i, 'brace'], [/\bsplint\b/i, 'splint'], [/\bcast\b/i, 'cast'], [/\bsutur\w*|\bstitches\b/i, 'sutures'], [/\bcrutches\b/i, 'crutches'], [/\bsling\b/i, 'sling'],
  [/\bbiopsy\b/i, 'biopsy'], [/\bexcis\w*|\bremove (?:it|the)\b/i, 'excision'], [/\bvaccin\w*|\bshot\b|\bimmuniz\w*/i, 'vaccination'],
];
const TIME = String.raw`(?:\d+(?:-\d+)? (?:days?|weeks?|months?|years?)|a (?:week|month|year)|(?:a )?couple (?:of )?(?:days|weeks|months)|a few (?:days|weeks|months)|(?:one|two|three|four|six) (?:days?|weeks?|months?))`;
const FOLLOW_UP = new RegExp(String.raw`\b(?:see (?:you|him|her) (?:back|again)|follow[- ]?up|come back|return|recheck|check back|be back|touch base|back in)\b[^.;]*?\b(?:in|after|within)\s+(?:about |approximately |another )?(${TIME})`, 'i');
const FOLLOW_PRN = /\b(?:follow up|come back|return|call)\b[^.;]*\bas needed\b|\bprn\b/i;
const NEGATED_ORDER = /\b(?:don't|do not|doesn't|does not|won't|will not|not going to|no need|not necessary|don't think (?:we|you) need|hold off|no reason)\b/i;
const ADVICE = /^(?:i (?:want|need|would like|'d like) (?:you|him|her) to|i(?:'d| would)? (?:recommend|suggest|encourage (?:you|him|her) to|advise (?:you|him|her) to)(?: that)?(?: (?:you|he|she))?|(?:you|he|she) (?:should|need to|needs to|have to|has to|must|can|could|will want to|want to|might want to)|make sure (?:that )?(?:you|he|she)|be sure to|remember to|try to|try and|please|continue to|keep)\s+/i;
const ADVICE_WORD = /\b(?:ice|icing|elevat\w*|rest|diet|exercis\w*|walk\w*|stretch\w*|hydrat\w*|fluids|weight|salt|sodium|alcohol|smok\w*|sleep|avoid|monitor|log|record|check (?:your|his|her) (?:blood|sugar)|weigh|compress\w*|heat|warm|stay active|activity|brace|stretches|cut back|limit|call|emergency|er\b|return if|heating pad)\b/i;

function drugHit(matcher: PhraseMatcher<string>, text: string): { value: string; start: number; end: number } | undefined {
  return matcher.find(text)[0];
}

/** Third person and a clinician's written form for a counselling clause ("you should ice your knee" -> "Ice the knee"). */
export function adviceText(clause: string): string | undefined {
  let t = stripTalk(clause).replace(/[.!?]+$/, '');
  if (!ADVICE.test(t) && !/^(?:ice|elevate|rest|avoid|continue|keep|stay|drink|limit|weigh|monitor|call|go to|take|use|wear|apply|walk|stretch)\b/i.test(t)) return undefined;
  t = t.replace(ADVICE, '').replace(/\b(?:your|his|her)\b/gi, 'the').replace(/\b(?:yourself|himself|herself)\b/gi, '').replace(/\b(?:just|really|kind of|sort of|go ahead and|definitely)\s+/gi, '');
  if (/\b(?:i|me|my|we|us|our|you|let's)\b/i.test(t)) return undefined;
  const words = t.split(/\s+/).filter(Boolean);
  if (words.length < 2 || words.length > 14 || !ADVICE_WORD.test(t)) return undefined;
  return capitalise(t.replace(/\s{2,}/g, ' ').trim());
}

/** The plan items a clause gives, in order. */
export function planItemsIn(clause: string, drugs: PhraseMatcher<string>): PlanItem[] {
  const t = stripTalk(clause);
  const out: PlanItem[] = [];
  const negatedAt = (start: number, end: number): boolean => contextOf(t, start, end).negated || NEGATED_ORDER.test(t.slice(Math.max(0, start - 50), start));
  const follow = FOLLOW_UP.exec(t);
  if (follow && !NEGATED_ORDER.test(t.slice(0, follow.index))) {
    out.push({ kind: 'follow-up', when: `in ${follow[1]!.toLowerCase().replace(/^a (week|month|year)$/, '1 $1').replace(/^(?:a )?couple (?:of )?/, '2 ')}`, evidence: [] });
    return out;
  }
  if (FOLLOW_PRN.test(t)) return [{ kind: 'follow-up', when: 'as needed', evidence: [] }];
  const drug = drugHit(drugs, t);
  if (drug) {
    const action = ACTIONS.find(([re]) => re.test(t))?.[1];
    if (action && !negatedAt(drug.start, drug.end)) {
      const dose = doseAfter(t, drug.end) ?? (action === 'increase' || action === 'decrease' ? undefined : undefined);
      const frequency = frequencyAfter(t, dose?.end ?? drug.end);
      const route = routeOf(t);
      const duration = /\bfor (\d+ (?:days?|weeks?))\b/i.exec(t)?.[1];
      out.push({
        kind: 'medication', action,
        medication: { name: capitalise(t.slice(drug.start, drug.end)) + (/^\s+(inhaler|cream|ointment|patch|nasal spray|eye drops)\b/i.exec(t.slice(drug.end))?.[0].toLowerCase() ?? ''), generic: drug.value, ...(dose ? { dose: dose.text } : {}), ...(route ? { route } : {}), ...(frequency ? { frequency } : {}), ...(duration ? { duration } : {}) },
        evidence: [],
      });
      return out;
    }
  }
  const referral = REFER.test(t) ? specialties.find(t)[0] : undefined;
  if (referral && !negatedAt(referral.start, referral.end)) {
    out.push({ kind: 'referral', target: referral.value, evidence: [] });
    return out;
  }
  for (const hit of tests.find(t)) {
    if (!ORDER_VERB.test(t.slice(0, hit.start)) || negatedAt(hit.start, hit.end)) continue;
    // A result read back ("your x-ray showed") is no order.
    if (/\b(?:showed|shows|was|were|came back|revealed)\b/i.test(t.slice(hit.end, hit.end + 30)) && !/\b(?:order|get|schedule|repeat)\b/i.test(t)) continue;
    if (out.some((o) => o.target === hit.value)) continue;
    const side = laterality(t, hit.start, hit.end);
    out.push({ kind: IMAGING.has(hit.value) ? 'imaging' : 'test', target: hit.value, ...(side ? { laterality: side } : {}), evidence: [] });
  }
  if (out.length) return out;
  for (const [re, name] of PROCEDURES) {
    const m = re.exec(t);
    if (!m || negatedAt(m.index, m.index + m[0].length) || !/\b(?:going to|will|'ll|want to|recommend|schedule|give|do|place|put|get|prescribe|need)\b/i.test(t)) continue;
    const side = laterality(t, m.index, m.index + m[0].length);
    out.push({ kind: 'procedure', target: name, ...(side ? { laterality: side } : {}), evidence: [] });
    return out;
  }
  const precaution = /\b(?:call (?:us|me|the office|the clinic)|let (?:us|me) know|come back|return|go to the (?:er|emergency room|emergency department))\b[^.]*?\bif\b\s+(.{5,120})$/i.exec(t);
  if (precaution) {
    const when = agree(precaution[1]!.replace(/\byou develop\b/gi, 'symptoms include').replace(/\byou have\b/gi, 'there are').replace(/\byou(?:'re| are)\b/gi, 'the patient is').replace(/\byour\b/gi, 'the').replace(/\byou\b/gi, 'the patient').replace(/[.!?]+$/, ''));
    if (!/\b(?:i|me|my|we|us)\b/i.test(when)) return [{ kind: 'education', text: `Return precautions: call if ${when}`, evidence: [] }];
  }
  const advice = adviceText(t);
  if (advice) out.push({ kind: 'education', text: advice, evidence: [] });
  return out;
}

/** A clinician's sentence cut where a new intention starts ("..., and I want you to ..."), conditions kept whole. */
export function clausesOf(text: string): string[] {
  const out: string[] = [];
  for (const piece of text.split(/,?\s+(?:and|but|so|also|then)\s+(?=(?:i|we|you|let's|let me)\b)|,\s+(?=(?:i|we|let's|let me)\b)|;\s+/i)) {
    if (!piece.trim()) continue;
    const prev = out[out.length - 1];
    if (prev !== undefined && /^\W*(?:if|when|once|after|before|until|unless)\b/i.test(prev) && !prev.includes(',')) out[out.length - 1] = `${prev}, ${piece}`;
    else out.push(piece);
  }
  return out;
}
