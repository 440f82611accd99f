/**
 * Clinical register: what was said in the visit, rewritten as what a clinician writes. Spoken
 * openers, fillers, hedges and tag questions go ("okay so", "I want to go ahead and", ", okay?");
 * the clinician's plans become orders ("I'm going to increase your Lasix to 80 mg" -> "Increase
 * Lasix to 80 mg."), advice and warnings become counselling lines ("I want you to weigh yourself
 * every day" -> "The patient was advised to weigh himself every day."), and returns become
 * follow-up ("I'll see you back in 3 months" -> "Follow up in 3 months."). Only words of speech
 * change; every fact (drug, dose, number, side, negation) is kept as said.
 */
import { polishSentence } from './clean.js';
import { pronounsFor, rewriteClinicianSentence, rewritePatientSentence, type Gender } from './rewrite.js';
import { isDrugWord } from '../../../services/clinical-language/medications.js';

/** What a rewritten plan sentence is. */
export type PlanAct = 'order' | 'medication' | 'testing' | 'referral' | 'advice' | 'followup';

export interface PlanStatement {
  act: PlanAct;
  text: string;
}

// Discourse markers and fillers that open a spoken sentence.
const OPENERS =
  /^(?:(?:so|and|but|well|okay|ok|alright|all right|now|yeah|yes|right|um|uh|oh|also|then|anyway|basically|actually|great|good|perfect|hey|listen|look|again|lastly|finally|first of all|first|next|all in all|you know|i mean|in any case|at this point|at this time|for now|that said|sure)\b[\s,]*)+/i;
// Tag questions and check-ins that close a spoken sentence.
const CLOSERS =
  /[,;]?\s*(?:okay|ok|all right|alright|right|you know|does that sound (?:good|okay|ok|fair|reasonable|like a plan)|sound good|sounds good|is that (?:okay|ok|alright|all right|fair)|how does that sound|yeah|correct|deal|fair enough)\s*[?.!]*\s*$/i;
const HEDGES: [RegExp, string][] = [
  [/,\s*(?:you know|i mean|like|basically|actually|honestly|obviously|of course)\s*,/gi, ','],
  [/\b(?:you know|i mean)\b,?\s*/gi, ''],
  [/\b(was|is|were|are|been|about|at|around)\s+like,?\s+/gi, '$1 '],
  [/\blike,\s+/gi, ''],
  [/(^|\s)['’]?cause\b/gi, '$1because'],
  [/\b(?:kind of|sort of|kinda|sorta)\s+/gi, ''],
  [/\bgo ahead and\s+/gi, ''],
  [/\bjust (going to|want to|wanted to|gonna)\b/gi, '$1'],
  [/\b(?:i|we) (?:wanted|want) to (?:just )?make sure\b/gi, 'to make sure'],
];

/** Removes openers, fillers, hedges and a closing tag question; keeps every clinical word. */
export function stripTalk(sentence: string): string {
  let t = sentence.trim();
  for (let i = 0; i < 3; i++) {
    const next = t.replace(OPENERS, '').replace(CLOSERS, '');
    if (next === t) break;
    t = next;
  }
  for (const [re, to] of HEDGES) t = t.replace(re, to);
  // "no, I have a stuffy nose": the yes or no answers the question before; the statement stands alone.
  t = t.replace(/^(?:no|nope|yes|yeah|yep)\b[\s,]+(?=(?:i|i'm|i've|it|it's|he|she|we|they|my|the|there|that|this)\b)/i, '');
  // A filler taken out of "from, um, your heart failure" leaves a comma after a function word.
  t = t.replace(/\b(from|to|of|the|a|an|with|and|in|on|for|at|by|is|are|was|be)\s*,\s+/gi, '$1 ');
  t = t.replace(/\bjust going to\b/gi, 'going to');
  return t.replace(/\s{2,}/g, ' ').replace(/^[,;:\s]+/, '').trim();
}

// "I'm going to", "we'll", "let's", "I want to", "what I'd like to do is": the clinician's intent.
const INTENT =
  /^(?:(?:i|we)(?:'m| am|'re| are)? (?:also |just |probably |definitely |then )*(?:going to|gonna) |(?:i|we)(?:'d like to| would like to|'ll| will|'d| would| should| can| could| may| might| need to| want to| wanna| have to| plan to|'d like to| would like to| like to)(?: also| just| probably| definitely| then)* |(?:i|we) (?:also |just |do |really )*(?:want|need|plan|would like|'d like|like) to |let's (?:also |just )*|let me (?:just )?|what (?:i|we)(?:'d| would) like to do is |what (?:i|we)(?:'re| are) going to do is |the plan is to |my plan is to |i think we should |i think we(?:'ll| will) |i (?:would |'d )?recommend (?:that )?we )/i;
const MEDICATION_VERBS = /^(prescribe|start|continue|increase|decrease|reduce|lower|raise|bump|stop|discontinue|hold|switch|change|adjust|add|refill|renew|give|put|keep|titrate|wean|taper|resume|try|restart|up|double)\b/i;
const TESTING_VERBS = /^(order|get|obtain|check|repeat|do|run|draw|schedule|perform|recheck|test|send you (?:out )?for|send (?:off|out)|have you (?:get|do|go for))\b/i;
const REFERRAL_VERBS = /^(refer|send you (?:over )?to|have you see|consult|get you (?:in )?(?:to see|with))\b/i;
// Visit narration: what the clinician is about to do in the room, not a plan.
const NARRATION = /^(see (?:that|it|this|those|these|if|whether|how|what)|do (?:a |an |your |the )?(?:quick |brief |full )?(?:physical )?exam|check (?:out|on) (?:your|you|him|her)|listen to|feel your|press on|talk|discuss|go over|look|take a look|take a listen|listen|examine|check you out|review|explain|tell|ask|show|start by|move on|see how|see what|figure out|find out|touch on|chat|jump|switch gears|get to|come back to|summarize)\b/i;
const TIME = String.raw`(?:a (?:week|month|year|couple (?:of )?(?:days|weeks|months))|a few (?:days|weeks|months)|\d+(?:-\d+)? (?:days?|weeks?|months?|years?)|(?:one|two|three|four|five|six|eight|ten|twelve) (?:days?|weeks?|months?))`;
const FOLLOW_UP = new RegExp(
  String.raw`\b(?:see (?:you|him|her|them) (?:back |again )*|follow[- ]?up(?: with (?:me|us))?|come back(?: to see (?:me|us))?|return|recheck|check back(?: with (?:me|us))?|be back)\s*(?:in|after|within)\s+(?:about |approximately |another )?(${TIME})`,
  'i',
);
const ADVICE =
  /^(?:i (?:want|need|would like|'d like) you to|i(?:'d| would)? (?:recommend|suggest|encourage you to|advise you to)(?: that)?(?: you)?|you (?:should|need to|have to|must|can|could|will want to|want to|might want to)|make sure (?:that )?you|be sure to|remember to|try to|try and|please)\s+/i;
const CALL_IF = /\b(?:call (?:me|us|the office|the clinic)|give (?:me|us) a call|let (?:me|us) know|reach out(?: to (?:me|us))?|message (?:me|us)|contact (?:me|us|the office))\b(.*?\bif\b.*)$/i;
const RETURN_IF = /\b(go to the (?:er|emergency room|emergency department|hospital)|come back|return)\b(.*?\bif\b.*)$/i;
// An instruction given straight to the patient ("just set an alarm", "keep icing it").
const IMPERATIVE = /^(?:just\s+)?(?:set|take|try|keep|avoid|make sure|call|record|check|watch|weigh|drink|eat|use|apply|ice|rest|elevate|wear|stay|cut back|limit|stop|continue to|remember|write down|bring)\b/i;
const DONT = /^(?:don't|do not|you don't want to|you shouldn't|you should not|avoid)\s+/i;

/** The patient as the subject of a sentence ("He", "She", "The patient"). */
function subjectOf(gender: Gender): string {
  const s = pronounsFor(gender).subject;
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** Third person for what the clinician said, minus the possessive before a drug ("your Lasix" -> "Lasix"). */
function clinicianText(text: string, gender: Gender): string {
  let t = text.replace(/\b(your|his|her|my) (?=(?:current |usual |regular |daily )?([\p{L}-]+))/giu, (m, _p: string, next: string) => (isDrugWord(next) || /^(medications?|meds|dose|dosage|insulin|inhaler)$/i.test(next) ? '' : m));
  t = rewriteClinicianSentence(t, gender);
  return t;
}

/** True for the clinician narrating the visit ("let me take a listen", "we're going to look at your results"). */
export function isNarration(sentence: string): boolean {
  const t = stripTalk(sentence);
  const intent = INTENT.exec(t);
  return intent !== null && NARRATION.test(t.slice(intent[0].length).replace(/^(?:go ahead and|also|just|then)\s+/i, ''));
}

/**
 * A clinician's plan sentence as an order, counselling line or follow-up, or undefined when the
 * sentence is no plan (narration of the visit, small talk).
 */
export function toPlanStatement(sentence: string, gender: Gender): PlanStatement | undefined {
  const t = stripTalk(sentence);
  // "If you're still having symptoms, I want to order an MRI": the plan, under its condition.
  const cond = /^((?:if|when|once|after|before|until|unless|should)\b[^,]{3,80}),\s*(.+)$/i.exec(t);
  if (cond && !CALL_IF.test(t) && !RETURN_IF.test(t)) {
    const plan = toPlanStatement(cond[2]!, gender);
    if (plan && plan.act !== 'advice' && plan.act !== 'followup') {
      const c = clinicianText(cond[1]!, gender).replace(/\.$/, '');
      return { act: plan.act, text: polishSentence(`${c}, ${plan.text.charAt(0).toLowerCase()}${plan.text.slice(1)}`) };
    }
  }
  const follow = FOLLOW_UP.exec(t);
  if (follow && !/\bif\b/i.test(t.slice(0, follow.index))) return { act: 'followup', text: `Follow up in ${follow[1]}.` };
  if (/\b(follow[- ]?up|come back|see (?:you|him|her) back)\b.*\bas needed\b/i.test(t)) return { act: 'followup', text: 'Follow up as needed.' };
  const call = CALL_IF.exec(t) ?? RETURN_IF.exec(t);
  if (call) {
    const verb = /let (?:me|us) know/i.test(call[0]) ? 'report' : /^(go to|come back|return)/i.test(call[1] ?? '') && RETURN_IF.test(t) && !CALL_IF.test(t) ? call[1]!.toLowerCase() : 'call';
    return { act: 'advice', text: advised(`${verb}${call[call.length - 1]}`, gender) };
  }
  const advice = ADVICE.exec(t);
  // "you should continue the lisinopril 10 mg a day" is a medication order, not counselling.
  if (advice && MEDICATION_VERBS.test(t.slice(advice[0].length)) && /\p{L}/u.test(t) && t.slice(advice[0].length).split(/\s+/).some((w) => isDrugWord(w.replace(/\W+$/, '')))) {
    return { act: 'medication', text: polishSentence(clinicianText(t.slice(advice[0].length).replace(/^(continue|start|stop)\s+(?:with\s+|taking\s+|on\s+)?(?:the\s+)?/i, '$1 '), gender)) };
  }
  if (advice) return { act: 'advice', text: advised(t.slice(advice[0].length), gender) };
  if (IMPERATIVE.test(t) && !/^(?:stop|continue to) (?:the |your )?\S+ (?:and|,)/i.test(t)) return { act: 'advice', text: advised(t.replace(/^just\s+/i, ''), gender) };
  const dont = DONT.exec(t);
  if (dont && /^(?:don't|do not|avoid)/i.test(t)) return { act: 'advice', text: advised(`${/^avoid/i.test(dont[0]) ? 'avoid ' : 'not '}${t.slice(dont[0].length)}`, gender) };
  // A dictated order: "Plan: start amoxicillin.", "Order an echocardiogram."
  const dictated = /^(?:plan\s*:\s*)?(?=(?:start|continue|increase|decrease|stop|discontinue|order|obtain|refer|prescribe|schedule|repeat|recheck|begin|initiate)\b)/i.exec(t);
  const intent = INTENT.exec(t) ?? dictated;
  if (!intent) return undefined;
  // "I'll be in touch with you after we get your results": the clinician will report back.
  if (/^(?:also |then )?(?:be in touch|call you|get back to you|reach out to you|let you know)\b/i.test(t.slice(intent[0].length))) {
    return { act: 'advice', text: polishSentence(`I will ${clinicianText(t.slice(intent[0].length).replace(/^(?:also|then)\s+/i, ''), gender).replace(/\.$/, '')}`) };
  }
  let rest = t.slice(intent[0].length).replace(/^(?:go ahead and|also|just|then)\s+/i, '');
  if (NARRATION.test(rest)) return undefined;
  // "I want to see you take it as directed", "I'd like to have you keep a log": advice, not an order.
  const through = /^(?:see|have|get) (?:you|him|her) (?!back\b|again\b|in\b)(\w+.*)$/i.exec(rest);
  if (through) return { act: 'advice', text: advised(through[1]!, gender) };
  const act: PlanAct = REFERRAL_VERBS.test(rest) ? 'referral' : TESTING_VERBS.test(rest) ? 'testing' : MEDICATION_VERBS.test(rest) ? 'medication' : 'order';
  rest = rest
    .replace(/^(start|put|keep|continue|maintain|leave|restart)\s+(?:you|him|her)\s+on\s+/i, (_m, v: string) => `${/^put$/i.test(v) ? 'start' : v} `)
    .replace(/^(continue|stay)\s+(?:with|on)\s+(?:the\s+)?/i, 'continue ')
    .replace(/^send you (?:over )?to\s+/i, 'refer to ')
    .replace(/^(?:send you (?:out )?for|have you (?:get|do|go for))\s+/i, 'order ')
    .replace(/^have you see\s+/i, 'refer to ')
    .replace(/^(prescribe|give|get|order|refer|schedule|set)\s+(?:you|him|her)\s+/i, '$1 ')
    .replace(/^get\s+/i, 'obtain ')
    .replace(/^do\s+/i, 'perform ')
    .replace(/^up\s+/i, 'increase ');
  if (rest.split(/\s+/).length < 2) return undefined;
  return { act, text: polishSentence(clinicianText(rest, gender)) };
}

/** "weigh yourself every day" -> "The patient was advised to weigh himself every day." */
function advised(what: string, gender: Gender): string {
  const body = clinicianText(what.replace(/^to\s+/i, ''), gender).replace(/\.$/, '');
  return polishSentence(`The patient was advised to ${body.charAt(0).toLowerCase()}${body.slice(1)}`);
}

// "on your heart exam,", "for your strength,", "looking at your knee,": the region a finding is on.
const EXAM_LEAD =
  /^(?:(?:on|for|with|in|upon|looking at|examining|on examination of|on exam of|on the exam of)\s+(?:your|the|his|her)\s+)([\p{L}-]+(?:\s+[\p{L}-]+){0,2}?)?\s*(?:physical\s+)?(?:exam(?:ination)?)?\s*,\s*/iu;
// "on throat examination there is ...", "on nasal exam": the region without a possessive, the word exam required.
const EXAM_LEAD_BARE = /^(?:on|upon|in)\s+(?:([\p{L}-]+(?:\s+[\p{L}-]+){0,2}?)\s+)?(?:exam|examination)\b\s*,?\s*/iu;
const OBSERVER_NO = /\b(?:i|we) (?:do not|don't|did not|didn't|cannot|can't|could not|couldn't) (?:appreciate|hear|see|feel|note|notice|find|detect|palpate|elicit)\s+(?:any\s+)?/gi;
const OBSERVER = /\b(?:i|we) (?:do |also |did |can |could )?(?:appreciate|hear|see|feel|note|notice|find|detect|palpate|elicit)\s+/gi;

/** One finding of the clinician's spoken exam, labelled by the region it was said about. */
export interface ExamStatement {
  region?: string;
  text: string;
}

/**
 * The clinician's spoken exam as written findings: "on your heart exam, I do appreciate a
 * 3 out of 6 systolic ejection murmur" -> region "heart", "3/6 systolic ejection murmur."
 */
export function toExamStatements(sentence: string, gender: Gender): ExamStatement[] {
  const out: ExamStatement[] = [];
  // One finding per clause that names its own region ("..., and on your lung exam, ...").
  const clauses = stripTalk(sentence).split(/,?\s+and\s+(?=(?:on|for|in) (?:your|the) )|,\s+(?:and\s+)?(?=your (?:lower |upper )?(?:extremities|legs|arms|abdomen|belly|lungs|heart)\b(?! rate))|\s+and\s+(?=your (?:lungs|abdomen|belly|skin|lower extremities)\b)/i);
  for (const clause of clauses) {
    let t = clause.trim();
    let region: string | undefined;
    const lead = EXAM_LEAD.exec(t) ?? EXAM_LEAD_BARE.exec(t);
    if (lead) {
      region = lead[1]?.trim() || undefined;
      if (region && /^(physical|whole|entire|overall|general)$/i.test(region)) region = undefined;
      t = t.slice(lead[0].length);
    }
    t = t.replace(OBSERVER_NO, 'no ').replace(OBSERVER, '');
    t = t.replace(/^(?:you|he|she)\s+(?:do\s+|does\s+)?(?:have|has)\s+(?:a\s+|an\s+|some\s+)?/i, '').replace(/^(?:you|he|she)\s+(?:don't|do not|doesn't|does not)\s+have\s+(?:any\s+)?/i, 'no ');
    t = t.replace(/^there(?:'s| is| are)\s+(?:a\s+|an\s+|some\s+)?/i, '').replace(/^it (?:looks|sounds|seems|feels)\s+/i, '');
    t = t.replace(/\b(\d+)\s+out of\s+(\d+)\b/gi, '$1/$2');
    t = t.replace(/\b(?:your|his|her|the patient's) (?=(?:right|left|bilateral|both)\b)/gi, 'the ');
    t = t.replace(/^(?:your|his|her|the patient's)\s+/i, '');
    if (region && !new RegExp(`\\b${region}`, 'i').test(t) && /^(strength|reflexes|sensation|range of motion|pulses|gait)$/i.test(region)) {
      t = `${region} ${t}`;
    }
    // Commands given during the exam ("open up your mouth and say ah") are not findings.
    t = t.replace(/\s*\b(?:open (?:up )?(?:your|the) mouth|say ah+|take a (?:deep )?breath|breathe (?:in|out)|lean (?:forward|back)|lie (?:back|down)|look (?:up|down|straight)|follow my finger|squeeze my (?:hand|fingers)|push against|relax)\b.*$/i, '');
    if (t.split(/\s+/).filter((w) => /\p{L}|\d/u.test(w)).length < 2) continue;
    const text = polishSentence(rewriteClinicianSentence(t, gender));
    out.push(region ? { region, text } : { text });
  }
  return out;
}

// "this is the echocardiogram that we did about 4 months ago, and this shows that ...".
const RESULT_SHOWN = /^(?:this|that|here)\s+is\s+(?:the|your|his|her)\s+([^,]{2,40}?)\s+(?:that|which)\s+(?:we|you|i)\s+(?:did|got|had|ordered|had done|obtained)\b[^,]*,\s*(?:and\s+)?(?:this|it|that)\s+(?:shows|showed|revealed|demonstrates|demonstrated)\s+(?:that\s+)?/i;
const RESULT_LEAD =
  /^(?:(?:i |we )?(?:just )?(?:wanted|want|wanna|would like|'d like) to (?:check|look at|review|go over|see)|(?:looking|look|looked)\s+(?:here\s+)?at|in reviewing|reviewing|when (?:we|i) look at|if (?:we|i) look at|i (?:reviewed|looked at|have|got))\s+(?:the\s+)?(?:results?\s+(?:of|from)\s+)?(?:your\s+|the\s+|his\s+|her\s+)?([^,]{2,40}?)\s*,\s*/i;

/** A result the clinician read out: label (the test) and the finding ("Chest x-ray", "fluid in the lungs."). */
export function toResultStatement(sentence: string, gender: Gender): { label?: string; text: string } | undefined {
  let t = stripTalk(sentence);
  let label: string | undefined;
  const lead = RESULT_SHOWN.exec(t) ?? RESULT_LEAD.exec(t);
  if (lead) {
    label = lead[1]!.replace(/^(?:recent|last|latest|new)\s+/i, '').trim();
    t = t.slice(lead[0].length);
  }
  t = t.replace(OBSERVER_NO, 'no ').replace(OBSERVER, '');
  t = t.replace(/^(?:and\s+)?it\s+(?:does\s+)?(?:looks?|seems?|appears?)\s+(?:like|that)\s+/i, '').replace(/^(?:this|that|it)\s+is\s+(?=an?\s)/i, '');
  t = t.replace(/^(?:you|he|she)\s+(?:have|has)\s+/i, '').replace(/^(?:your|his|her|the patient's)\s+/i, '');
  if (lead && t === '') return undefined;
  if (t.split(/\s+/).length < 2) return undefined;
  const text = polishSentence(rewriteClinicianSentence(t, gender));
  return label ? { label: label.charAt(0).toUpperCase() + label.slice(1), text } : { text };
}

/** The clinician's impression, in writing: "I think you're retaining fluid" -> "I believe he is retaining fluid." */
export function toAssessmentStatement(sentence: string, gender: Gender): string {
  let t = stripTalk(sentence);
  t = t.replace(/\bi (?:do )?think\b/gi, 'I believe').replace(/\bi guess\b/gi, 'I suspect');
  t = t.replace(/^it (?:looks|sounds|seems) like\s+/i, 'it appears that ');
  t = t.replace(/\bwhat (?:that|this|all that) means is(?: that)?\s*/gi, '').replace(/\bthat (?:basically )?means(?: that)?\s+/gi, '');
  return polishSentence(clinicianText(t, gender));
}

/** History told by the clinician ("I know that you've had..." -> "He has had..."). */
export function toClinicianHistory(sentence: string, gender: Gender): string {
  let t = stripTalk(sentence);
  t = t.replace(/^(?:i (?:know|see|remember|understand|heard|noticed|read)|it says(?: here)?|i see here|looks like|it looks like)(?: here)?(?: that)?\s*,?\s*/i, '');
  return polishSentence(clinicianText(t, gender));
}

/** What the patient said, in the third person ("I've had a cough" -> "She has had a cough."). */
export function toPatientStatement(sentence: string, gender: Gender): string {
  let t = stripTalk(sentence);
  t = t.replace(/^(?:i (?:think|guess|mean|believe|would say|'d say)|to be honest|honestly|probably)\s*,?\s+(?=\S+\s+\S+)/i, '');
  // Speech trailing off ("... and i feel", "..., and it was") ends the sentence before it.
  t = t.replace(/,?\s+(?:and|but|so)\s+(?:i|it|he|she|we|they)\s+[\p{L}']+\s*[.…]*$/iu, '.');
  // Speech drops the subject ("went to Washington last weekend", "been pretty good"); writing does not.
  if (/^(?:been)\b/i.test(t)) t = `I have ${t}`;
  else if (/^(?:went|got|had|took|tried|started|noticed|felt|did|used|fell|hurt|saw|came|stopped|quit|ran|woke|slept|ate|drank|thought|called|[a-z]+ed)\b/i.test(t) && !/^(?:used to be|bed|red|need|speed)\b/i.test(t)) t = `I ${t}`;
  return rewritePatientSentence(t, gender);
}

/** True when a sentence has a verb (a statement), not a bare phrase ("In terms of her depression."). */
export function hasVerb(text: string): boolean {
  return /\b(?:is|are|was|were|be|been|being|am|has|have|had|do|does|did|can|could|will|would|should|may|might|must|shall|get|gets|got|feel|feels|felt|take|takes|took|need|needs|want|wants|seem|seems|look|looks|go|goes|went|make|makes|made|keep|keeps|kept|say|says|said|see|sees|saw|come|comes|came|\w+ed|\w+ing)\b/i.test(text) || /\b\w{3,}s\b/.test(text);
}

/** Sentence with a subject the note can use as is. */
export function patientSubject(gender: Gender): string {
  return subjectOf(gender);
}

/**
 * The sentence as written, or what is left of it once clauses that still read as talk are
 * taken out; undefined when nothing clinical is left. The last guard of the clinical register.
 */
export function keepWritten(text: string, isTalk: (s: string) => boolean): string | undefined {
  if (!isTalk(text)) return text;
  const clauses = text.replace(/[.!?]+$/, '').split(/,\s+|;\s+/);
  const talk = (c: string): boolean => isTalk(c) || /^(?:okay|ok|so|well|yeah|yes|alright|all right|um|uh|right|now|sure)$/i.test(c.trim());
  // Only a spoken lead-in or a trailing aside is cut; talk in the middle loses the sentence.
  let from = 0;
  let to = clauses.length;
  while (from < to && talk(clauses[from]!)) {
    if (/\b(?:the|a|an|his|her|their|my|your|last|of|to|for|with|and|about|some|that)$/i.test(clauses[from]!.trim())) return undefined;
    from++;
  }
  while (to > from && talk(clauses[to - 1]!)) to--;
  const kept = clauses.slice(from, to);
  if (from > 0 && /^\s*(?:which|that|who|where|and|but|or|so|because)\b/i.test(kept[0] ?? '')) return undefined;
  if (kept.length === 0 || kept.length === clauses.length || kept.some(isTalk)) return undefined;
  const joined = kept.join(', ').replace(/^(?:and|but|so|because)\s+/i, '');
  if ((joined.match(/\p{L}{3,}/gu) ?? []).length < 3 || !/\b(?:is|are|was|were|has|have|had|does|did|will|can|\w+ed|\w+s)\b/i.test(joined)) return undefined;
  const out = polishSentence(joined);
  return isTalk(out) ? undefined : out;
}
