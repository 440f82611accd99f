/**
 * Plan items from the clinician's words: a medication started, continued, changed or stopped
 * (with dose and frequency as said), a test or imaging study ordered, a referral, a procedure,
 * counselling and follow-up. A negated order ("you don't need an MRI", "no need to change your
 * dose") is no order. Each item keeps the clause it was read from as evidence.
 */
import { contextOf } from '../clinical-language/context.js';
import { createPhraseMatcher, type PhraseMatcher } from '../clinical-language/phrase-match.js';
import { laterality } from './attributes.js';
import { capitalise, frequencyAfter } from './medications.js';
import { medicationIn } from './plan-medication.js';
import { UNMET, conditionSpan, withCondition } from './plan-condition.js';
import { IMAGING, SPECIALTY_ENTRIES, TEST_ENTRIES } from './tests.js';
import { stripTalk } from './talk.js';
import { agree } from './narrative.js';
import { isDoneProcedure } from './procedures.js';
import type { PlanItem } from './types.js';

const tests = createPhraseMatcher(TEST_ENTRIES);
const specialties = createPhraseMatcher(SPECIALTY_ENTRIES);

const ORDER_VERB = /\b(?:order(?:ing)?|get(?:ting)?|obtain(?:ing)?|check(?:ing)?|schedul(?:e|ing)|do|repeat|draw|send|run|set (?:you )?up|recommend|want|need|have)\b/i;
const ORDER_AFTER = /^(?![^.;?]{0,50}?\b(?:wait|until|next year|results?)\b)[^.;?]{0,50}?\b(?:schedule|order|get|set up|arrange|book)\s+(?:that|it|one|those|them)(?:\s+(?:for you|today|done|scheduled|set up|up|ordered))?\s*(?:[.,;!?]|$)/i;
const REFER = /\b(?:refer|referral|send (?:you|him|her) (?:to|over)|see (?:a|an|the) |consult|set (?:you|him|her) up with)\b/i;
/** A therapy is ordered by starting it ("we could try physical therapy", "let's get you started with PT"), not only by a referral word. */
const THERAPIES = new Set(['physical therapy', 'occupational therapy', 'speech therapy', 'counseling']);
const THERAPY_START = /\b(?:try|start|begin|get (?:you|him|her) (?:into|in|started(?: with| on)?)|recommend|suggest|sign (?:you|him|her) up for|set up|schedule|a course of)\s+(?:(?:with|on|in|a|an|the|some|formal|outpatient)\s+)*$/i;
const THERAPY_BEFORE = /\b(?:tried|had|did|do|done|doing|been to|went to|completed|finished|continue|today)\b|n't\b/i;
const THERAPY_STARTED = (t: string, h: { value: string; start: number }): boolean => {
  if (!THERAPIES.has(h.value)) return false;
  const before = t.slice(Math.max(0, h.start - 50), h.start);
  return THERAPY_START.test(before) && !THERAPY_BEFORE.test(before);
};
const PROCEDURES: [RegExp, string][] = [
  // A device named for what it is made of or does comes first: a "surgical shoe" is no surgery.
  [/\bsurgical shoe\b|\bpost-?op(?:erative)? shoe\b/i, 'surgical shoe'], [/\b(?:walking|cam) boot\b/i, 'walking boot'],
  [/\bepidural\b/i, 'epidural steroid injection'], [/\b(?:steroid |cortisone )?injection\b|\binject\b/i, 'injection'], [/\baspirat\w*|\bdrain (?:the|that)\b/i, 'aspiration'], [/\bsurgery\b|\bsurgical\b|\boperat(?:e|ion)\b/i, 'surgery'],
  [/\bbrace\b/i, 'brace'], [/\bsplint\b/i, 'splint'], [/\bcast\b/i, 'cast'], [/\bsutur\w*|\bstitches\b/i, 'sutures'], [/\bcrutches\b/i, 'crutches'], [/\bsling\b/i, 'sling'],
  [/\bdebrid\w*/i, 'debridement'], [/\bincision and drainage\b|\bi (?:and|&) d\b/i, 'incision and drainage'], [/\bcryotherapy\b|\bfreez(?:e|ing) (?:it|that|the|them)\b/i, 'cryotherapy'],
  [/\bbiopsy\b/i, 'biopsy'], [/\bexcis\w*|\bremove (?:it|the)\b/i, 'excision'], [/\bvaccin\w*|\bshot\b|\bimmuniz\w*/i, 'vaccination'],
];
const TIME = String.raw`(?:\d+(?:-\d+)? (?:days?|weeks?|months?|years?)|a (?:week|month|year)|(?:a )?couple (?:of )?(?:days|weeks|months)|a few (?:days|weeks|months)|(?:one|two|three|four|six) (?:days?|weeks?|months?))`;
const FOLLOW_UP = new RegExp(String.raw`\b(?:see (?:you|him|her) (?:back|again)|follow[- ]?up|come back|return|recheck|check back|be back|touch base|back in|take (?:another |a )?look|revisit|re-?evaluate|reassess)\b[^.;]*?\b(?:in|after|within)\s+(?:about |approximately |another )?(${TIME})`, 'i');
const FOLLOW_PRN = /\b(?:follow up|come back|return|call)\b[^.;]*\bas needed\b|\bprn\b/i;
const NEGATED_ORDER = /\b(?:don't|do not|doesn't|does not|won't|will not|not going to|no need|not necessary|don't think (?:we|you) need|hold off|no reason)\b/i;
const ADVICE = /^(?:i (?:want|need|would like|'d like) (?:you|him|her) to|i(?:'d| would)? (?:recommend|suggest|encourage (?:you|him|her) to|advise (?:you|him|her) to)(?: that)?(?: (?:you|he|she))?|(?:you|he|she) (?:should|need to|needs to|have to|has to|must|can|could|will want to|want to|might want to)|make sure (?:that )?(?:you|he|she)|be sure to|remember to|try to|try and|please|continue to|keep)\s+/i;
const ADVICE_WORD = /\b(?:ice|icing|elevat\w*|rest|diet|exercis\w*|walk\w*|stretch\w*|hydrat\w*|fluids|weight|salt|sodium|alcohol|smok\w*|sleep|avoid|monitor|log|record|check (?:your|his|her) (?:blood|sugar)|weigh|compress\w*|heat|warm|stay active|activity|brace|stretches|cut back|limit|call|emergency|er\b|return if|heating pad|watch (?:your|his|her|the) (?:blood pressures?|sugars?|blood sugars?|weight|diet|salt))\b/i;

/** Third person and a clinician's written form for a counselling clause ("you should ice your knee" -> "Ice the knee"). */
export function adviceText(clause: string): string | undefined {
  let t = stripTalk(clause).replace(/[\s,;.!?]+$/, '').replace(/,?\s+(?:as well|too)$/i, '');
  if (!ADVICE.test(t) && !/^(?:ice|elevate|rest|avoid|continue|keep|stay|drink|limit|weigh|monitor|call|go to|take|use|wear|apply|walk|stretch)\b/i.test(t)) return undefined;
  t = t.replace(ADVICE, '').replace(/\b(?:your|his|her)\b/gi, 'the').replace(/\b(?:yourself|himself|herself)\b/gi, '').replace(/\b(?:just|really|kind of|sort of|go ahead and|definitely)\s+/gi, '');
  if (/\b(?:i|me|my|we|us|our|you|let's)\b/i.test(t)) return undefined;
  const words = t.split(/\s+/).filter(Boolean);
  if (words.length < 2 || words.length > 14 || !ADVICE_WORD.test(t)) return undefined;
  return capitalise(t.replace(/\s{2,}/g, ' ').trim());
}

/** The plan items a clause gives, in order; an order that waits on something keeps its condition. */
export function planItemsIn(clause: string, drugs: PhraseMatcher<string>): PlanItem[] {
  const t = stripTalk(clause);
  const at = new Map<PlanItem, number>();
  const items = itemsIn(t, drugs, at).map((i) => withCondition(i, t, at.get(i)));
  // An injection or aspiration done now is read whole by the procedure reader, with what was injected; the studies and
  // referrals said with it ("aspirate the knee and send the fluid for a culture") stay orders.
  return isDoneProcedure(t) ? items.filter((i) => i.kind !== 'medication' && i.kind !== 'procedure') : items;
}

// Not a named regimen ("the current regimen of your chemotherapy"), which is no list of medications.
const CURRENT_REGIMEN = /\b(?:continue|stay|keep (?:you|him|her)|remain)\s+(?:on\s+|with\s+|taking\s+)?(?:all\s+)?(?:your|the|his|her)\s+(?:current|present|home|same|usual)\s+(?:medications?|meds|regimen|treatment|dose|doses|medicines?)\b(?!\s+of\b)/i;

/** An order in so many words of a study or procedure no table names: "I want to order an ankle brachial index". */
const UNNAMED_ORDER = /\b(?:i(?:'m| am)? (?:going to|gon na)|i(?:'ll| will)|we(?:'ll| will|'re going to| are going to)|let's|i want to|i(?:'d| would) like to)\s+(?:go ahead and\s+)?(?:also\s+)?(?:just\s+)?(order|get|check|perform|do|schedule|obtain)\s+(?:an?|the|some)\s+((?:[a-z-]+\s+){0,3}?(?:index|test|testing|study|scan|panel|levels?|count|culture|screening|profile|swab|monitor(?:ing)?|evaluation|ultrasound|debridement|[a-z]+(?:ectomy|otomy|ostomy|plasty|scopy|centesis|graphy|(?<!pro)gram)))\b/i;

// A study read back as done ("the x-ray you had last week", "we did an MRI") is a result, not an order.
const DONE_AFTER = /^\s*(?:results?\s+)?back\b|^[^.;]{0,40}?\b(?:you (?:had|got|did)|(?:was|were) (?:done|taken|performed)|(?:showed|shows|came back|revealed)|last (?:week|month|year|time)|ago|already|before you came|when you came in|(?:it's|it is|it was|that's|that was) (?:normal|negative|fine|unremarkable|clear))\b/i;
const DONE_BEFORE = /\b(?:you(?:'ve)? had|we (?:did|got|had)(?: to (?:get|do))?|you did get|they (?:did|got)|(?:your|the) (?:recent|previous|prior|last)|looking at|reviewed?|results? of)\s+(?:(?:an?|the|your|that|this)\s+)?(?:\w+\s+){0,2}$/i;
const OTHERS_DO = /\b(?:they|(?:the|your) (?:specialist|surgeon|radiologist|cardiologist|doctor|team)s?)\s+(?:(?:sometimes|usually|often|typically|generally|normally|may|might|can|could|will|would|probably)\s+)*(?:do|order|get|perform|run|check)\b[^.;]{0,20}$|\b(?:sometimes|usually|often|typically|generally|normally)\s+(?:\w+\s+){0,2}?(?:do|order|get|perform|run|check)\b[^.;]{0,20}$/i;
const INJECTED_DRUG = /\b(?:inject(?:ion|ing|ed)?|shot)\s+(?:(?:of|with)\s+)?(?:(?:a|an|the|some)\s+)?(?:\d+(?:\.\d+)?\s*(?:cc|ml|mg)\s+(?:of\s+)?)?(?:[a-z-]+\s+){0,1}$/i;
const TOPICAL = /\b(keep using|keep applying|continue (?:using|applying|to use)|continue|use|apply|start using|start applying)\s*,?\s+(?:the\s+|your\s+|some\s+|a\s+)?((?:[a-z]+\s+){1,2}(?:gel|cream|ointment|lotion|shampoo|eye drops|ear drops|nasal spray|patch))\b/i;
const AGAIN = /\b(?:repeat|another|again|new|follow-up|re-?check|going to (?:order|get)|let's (?:order|get)|(?:i'll|i will|we'll|we will) (?:order|get))\b/i;

function itemsIn(t: string, drugs: PhraseMatcher<string>, at: Map<PlanItem, number>): PlanItem[] {
  const out: PlanItem[] = [];
  // A negation inside the order's condition ("if it doesn't improve, we'll do an epidural") does not negate the order.
  const cond = conditionSpan(t);
  const bare = cond ? t.slice(0, cond.start) + ' '.repeat(cond.end - cond.start) + t.slice(cond.end) : t;
  const negatedAt = (start: number, end: number): boolean => contextOf(bare, start, end).negated || NEGATED_ORDER.test(bare.slice(Math.max(0, start - 50), start));
  const follow = FOLLOW_UP.exec(t);
  if (follow && !NEGATED_ORDER.test(t.slice(0, follow.index))) {
    out.push({ kind: 'follow-up', when: `in ${follow[1]!.toLowerCase().replace(/^a (week|month|year)$/, '1 $1').replace(/^(?:a )?couple (?:of )?/, '2 ')}`, evidence: [] });
    return out;
  }
  if (FOLLOW_PRN.test(t)) return [{ kind: 'follow-up', when: 'as needed', evidence: [] }];
  // "I'm going to tell the front desk 6 months": the next visit booked through the desk.
  const desk = new RegExp(String.raw`\b(?:tell|ask|have) the front desk (?:to (?:schedule|book) (?:you )?(?:for |in )?)?(${TIME})\b`, 'i').exec(t);
  if (desk) return [{ kind: 'follow-up', when: `in ${desk[1]!.toLowerCase()}`, evidence: [] }];
  // "We'll get a CT and an EKG, check a CBC, and start prednisone": the drugs, studies and referral of one clause are all ordered.
  // "Aspirate the knee and inject a steroid": a drug injected in a procedure is the procedure's, not a prescription.
  const meds = medicationIn(t, drugs, negatedAt).filter((m) => !INJECTED_DRUG.test(t.slice(Math.max(0, m.at - 40), m.at)));
  for (const med of meds) {
    at.set(med.item, med.at);
    out.push(med.item);
  }
  // "You can keep using the mederma scar gel twice a day": a product the lexicon does not know, named by its form.
  const topical = meds.length === 0 ? TOPICAL.exec(t) : null;
  if (topical && !negatedAt(topical.index, topical.index + topical[0].length)) {
    const frequency = frequencyAfter(t, topical.index + topical[0].length);
    const item: PlanItem = { kind: 'medication', action: /^(?:keep|continue)/i.test(topical[1]!) ? 'continue' : 'start', medication: { name: capitalise(topical[2]!), ...(frequency ? { frequency } : {}) }, evidence: [] };
    out.push(item);
    at.set(item, topical.index);
  }
  // "Let's continue on your current meds": the regimen kept as a whole, no drug named.
  const regimen = meds.length === 0 ? CURRENT_REGIMEN.exec(t) : null;
  // Not "we can't continue", "rather than continue", "you were supposed to remain on ..., but you stopped".
  const refused = regimen && /\b(?:can't|cannot|can not|not|won't|rather than|instead of|supposed to|were to|stopp?(?:ed)?|no longer|off)\b[^.;]{0,30}$/i.test(t.slice(0, regimen.index));
  if (regimen && !refused && !/\b(?:but|however)\b[^.;]*\b(?:stopped|not|n't)\b/i.test(t.slice(regimen.index)) && !negatedAt(regimen.index, regimen.index + regimen[0].length) && !(cond && regimen.index >= cond.start && regimen.index < cond.end)) {
    const item: PlanItem = { kind: 'medication', action: 'continue', medication: { name: 'current medications' }, evidence: [] };
    out.push(item);
    at.set(item, regimen.index);
  }
  // "See an allergist and a hematologist": the service named, and those listed with it.
  let lastReferral: { end: number } | undefined;
  for (const referral of REFER.test(t) ? specialties.find(t) : specialties.find(t).filter((h) => THERAPY_STARTED(t, h))) {
    if (lastReferral && !/^(?:\s*(?:,|and|or|an?|the|also|to)\s*)+$/i.test(t.slice(lastReferral.end, referral.start))) break;
    lastReferral = referral;
    if (negatedAt(referral.start, referral.end) || out.some((o) => o.kind === 'referral' && o.target === referral.value)) continue;
    // "Diabetic counseling", "cardiac rehab": the condition the service is for is part of its name.
    const forCondition = /\b(diabetic|diabetes|cardiac|pulmonary)\s+$/i.exec(t.slice(Math.max(0, referral.start - 12), referral.start))?.[1]?.toLowerCase();
    const item: PlanItem = { kind: 'referral', target: forCondition ? `${forCondition === 'diabetes' ? 'diabetic' : forCondition} ${referral.value}` : referral.value, evidence: [] };
    out.push(item);
    at.set(item, referral.start);
  }
  // "Get an x-ray and see the results before we refer you to physical therapy": the study is ordered too.
  for (const hit of tests.find(t)) {
    // "You're due for a mammogram, so we'll schedule that": the order may come after the study, said of it.
    if (!(ORDER_VERB.test(t.slice(0, hit.start)) || ORDER_AFTER.test(t.slice(hit.end))) || negatedAt(hit.start, hit.end)) continue;
    // "If the ultrasound is abnormal, ...": a study named in a condition is what the condition is about, not an order.
    if (cond && hit.start >= cond.start && hit.end <= cond.end) continue;
    // "Keep your hemoglobin A1c below seven": a target for the value, not an order for the test.
    if (/^\s*(?:\w+\s+){0,2}?(?:below|under|above|less than|greater than|at or below|around|between)\s+(?:about\s+)?(?:\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)\b/i.test(t.slice(hit.end, hit.end + 40))) continue;
    // A result read back ("your x-ray showed") is no order.
    if (/\b(?:showed|shows|was|were|came back|revealed)\b/i.test(t.slice(hit.end, hit.end + 30)) && !/\b(?:order|get|schedule|repeat)\b/i.test(t)) continue;
    if ((DONE_AFTER.test(t.slice(hit.end)) || DONE_BEFORE.test(t.slice(0, hit.start))) && !AGAIN.test(t)) continue;
    // "They sometimes will do an ultrasound as part of their exam": what another clinician does, or does as a habit, is no order of this visit.
    // Not when this clinician orders it in the same breath ("we usually check a lipid panel once a year, so I'll order that").
    if (OTHERS_DO.test(t.slice(Math.max(0, hit.start - 60), hit.start)) && !/\b(?:i(?:'ll| will)|we(?:'ll| will)|let's|i(?:'m| am) going to)\s+(?:\w+\s+){0,3}?(?:order|get|schedule|check|do)\b/i.test(t)) continue;
    if (out.some((o) => o.target === hit.value)) continue;
    const side = laterality(t, hit.start, hit.end);
    out.push({ kind: IMAGING.has(hit.value) ? 'imaging' : 'test', target: hit.value, ...(side ? { laterality: side } : {}), evidence: [] });
    at.set(out[out.length - 1]!, hit.start);
  }
  if (out.length) return out.sort((a, b) => (at.get(a) ?? 0) - (at.get(b) ?? 0));
  for (const [re, name] of PROCEDURES) {
    const m = re.exec(t);
    // The order word comes before the procedure, in its clause ("wear a surgical shoe", not "since you had surgery, wear
    // supportive shoes"); a procedure done before, taken off or only to be thought about is no order.
    const lead = m ? t.slice(Math.max(0, m.index - 60), m.index) : '';
    if (!m || negatedAt(m.index, m.index + m[0].length) || !/\b(?:going to|will|'ll|want to|want you to|recommend|schedule|give|do|place|put|get|prescribe|need|wear)\b[^;.]{0,40}$/i.test(lead)
      || /\b(?:had|did|done|after|before|since|rid of|off|remove|stop|think about|thinking about|consider|discuss|talk about|about)\b[^,;.]{0,25}$/i.test(lead) || OTHERS_DO.test(lead)) continue;
    const side = laterality(t, m.index, m.index + m[0].length);
    out.push({ kind: 'procedure', target: name, ...(side ? { laterality: side } : {}), evidence: [] });
    at.set(out[0]!, m.index);
    return out;
  }
  // "I want to order an ankle brachial index", "we'll get a thyroid ultrasound": a study or procedure ordered in so
  // many words is an order though the tables do not know its name; the clinician's words name it.
  const unnamed = UNNAMED_ORDER.exec(t);
  // Not records or results fetched ("get the appendectomy records"), a level brought down ("get the pain level down"),
  // an order doubted after "but", or one hoped for later ("maybe we'll do an ABI next time").
  const fetched = unnamed && /^\s*(?:results?|records?|reports?|notes|back|down|up|under control|lower|better|from|done at)\b/i.test(t.slice(unnamed.index + unnamed[0].length));
  const doubted = unnamed && (/\b(?:but|though|although)\b[^.;]*\b(?:don't|do not|doesn't|not|no need)\b/i.test(t.slice(unnamed.index + unnamed[0].length))
    || /\b(?:maybe|perhaps|next time|at some point|down the road|eventually|someday|if needed)\b/i.test(t));
  const vague = unnamed && /^(?:pain|sugar|blood sugar|screen|stress|energy|activity|weight|test|exercise|home)\b/i.test(unnamed[2]!);
  if (unnamed && !fetched && !doubted && !vague && !negatedAt(unnamed.index, unnamed.index + unnamed[0].length) && !(cond && unnamed.index >= cond.start && unnamed.index < cond.end)) {
    const target = unnamed[2]!.toLowerCase();
    const kind: PlanItem['kind'] = /(?:ectomy|otomy|ostomy|plasty|centesis|debridement)$/.test(target) ? 'procedure' : /(?:scan|graphy|(?<!pro)gram|ultrasound)$/.test(target) ? 'imaging' : 'test';
    const side = laterality(t, unnamed.index, unnamed.index + unnamed[0].length);
    out.push({ kind, target, ...(side ? { laterality: side } : {}), evidence: [] });
    return out;
  }
  // "If they start rising, I want you to contact me" says the same with the condition first. The condition is the
  // last "if" before the action ("if you get chest pain, take one, and if it does not go away in five minutes, call
  // 911" warns about the pain that does not go away), and the action keeps where to turn ("call 911", "go to the ER").
  const first = PRECAUTION_FIRST.exec(t);
  const after = PRECAUTION_AFTER.exec(t);
  const precaution = first ? { when: first[1]!, action: first[2]! } : after && ADDRESSED.test(t) ? { when: after[2]!, action: after[1]! } : undefined;
  // "If it's too expensive, let me know" is about the prescription, not a return precaution.
  // "Call if you need anything", "let me know if you have questions" are courtesy, not a precaution.
  const courtesy = precaution && /^(?:you|the patient)\s+(?:have|has|need|needs|got|want)\s+(?:any\s+|other\s+|more\s+|any other\s+)?(?:questions?|concerns?|anything|something|to talk)(?:\s+else)?(?:\s+(?:or|and)\s+(?:any\s+)?(?:questions?|concerns?))?\s*[.!?]?\s*$/i.test(precaution.when.trim());
  if (precaution && !courtesy && !/\b(?:expensive|cost\w*|price|afford\w*|insurance|covered|pharmacy|copay)\b/i.test(precaution.when)) {
    // "if you notice the pain get worse" is written "if the pain gets worse".
    const when = agree(precaution.when.replace(/\byou (?:notice|see)\s+(?=(?:the|your)\s+\w+\s+(?:get|gets|become|becomes|start|starts|turn|turns|go|goes|spread|spreads)\b)/gi, '').replace(/\byou develop\b/gi, 'symptoms include').replace(/\byou have\b/gi, 'the patient has').replace(/\byou(?:'re| are)\b/gi, 'the patient is').replace(/\byour\b/gi, 'the').replace(/\byou\b/gi, 'the patient').replace(/[.!?]+$/, '').trim());
    if (!/\b(?:i|me|my|we|us)\b/i.test(when)) return [{ kind: 'education', text: `Return precautions: ${precautionAction(precaution.action)} if ${when}`, evidence: [] }];
  }
  const advice = adviceText(t);
  if (advice) out.push({ kind: 'education', text: advice, evidence: [] });
  return out;
}

// Where a precaution sends the patient, said once for both orders of the sentence; "return to work" is no precaution.
const TURN_TO = String.raw`(call(?: 911)?|contact|let (?:us|me) know|come back|return|go to the (?:er|emergency room|emergency department))\b(?!\s+to\s+(?:work|school|the gym|gym|activit\w*|normal|usual|sports?|play|running|exercis\w*))`;
const PRECAUTION_FIRST = new RegExp(String.raw`(?:^|[,;]\s*|\band\s+)if\s+((?:(?!\bif\b)[^.;?]){5,120}?),\s*(?:i (?:want|need|would like|'d like) you to |please |just |then )?${TURN_TO}[^.,;]*[.!?]?$`, 'i');
const PRECAUTION_AFTER = new RegExp(String.raw`\b${TURN_TO}(?: (?:us|me|the office|the clinic))?[^.]*?\bif\b\s+(.{5,120})$`, 'i');
// Said after the action, a precaution names whom to call ("call us if", not "call if you can").
const ADDRESSED = /\b(?:call (?:us|me|the office|the clinic|911)|contact (?:us|me|the office|the clinic)|let (?:us|me) know|come back|return|go to the)\b/i;

/** Where a precaution sends the patient, as a note says it. */
function precautionAction(said: string): string {
  if (/911/.test(said)) return 'call 911';
  if (/^go to/i.test(said)) return 'go to the emergency department';
  if (/^(?:come back|return)/i.test(said)) return 'return';
  return 'call';
}

/** A clinician's sentence cut where a new intention starts ("..., and I want you to ..."), conditions kept whole. */
export function clausesOf(text: string): string[] {
  const out: string[] = [];
  // Run-on speech with no comma: "... that tylenol for the pain i'm also gonna give you ..." is two orders.
  for (const piece of text.split(/,?\s+(?:and|but|so|also|then)\s+(?=(?:i|we|you|let's|let me)\b)|,\s+(?=(?:i|we|let's|let me)\b)|;\s+|(?<!\b(?:if|when|that|what|and|so|but|then|because|once|until|unless|before|after|think|sure|whether|maybe|perhaps|otherwise|case|doubt|decide|hope|not|never)|n't)\s(?=(?:i'm|i am|i'll|i will|we're|we'll|we will|let's)\s+(?:also\s+|just\s+|going to go ahead and\s+|gon na go ahead and\s+|go ahead and\s+)?(?:gon na|going to|give|write|start|order|put|prescribe|refer|send)\b)/i)) {
    if (!piece.trim()) continue;
    const prev = out[out.length - 1];
    if (prev !== undefined && /^\W*(?:if|when|once|after|before|until|unless)\b/i.test(prev) && !prev.includes(',')) {
      out[out.length - 1] = `${prev}, ${piece}`;
      continue;
    }
    // "... and if that doesn't improve your pain, then we could try an injection": the condition goes with the order after it.
    const open = prev === undefined ? -1 : prev.search(/\b(?:and\s+)?(?:if|unless)\b[^,]*$/i);
    // "Let me know if your symptoms worsen and we can talk": a return precaution keeps its "if".
    // "... and if they start rising, I want you to contact me": so does a precaution's "if".
    const precautionNext = /^(?:i (?:want|need|would like|'d like) you to |please )?(?:contact|call|let (?:me|us) know|come back|return|go to)\b/i.test(piece.trim());
    // "Come back in a week, and if it's not better, we'll get an MRI": after a comma the "if" starts afresh, for the order after it.
    const tied = prev !== undefined && open > 0 && !/,\s*$/.test(prev.slice(0, open)) && /\b(?:call|let (?:us|me) know|come back|return|go to)\b/i.test(prev.slice(0, open));
    if (prev !== undefined && open > 0 && (UNMET.test(prev.slice(open)) || precautionNext) && !tied) {
      out[out.length - 1] = prev.slice(0, open).trim();
      out.push(`${prev.slice(open).replace(/^and\s+/i, '')}, ${piece}`);
    } else out.push(piece);
  }
  return out;
}
