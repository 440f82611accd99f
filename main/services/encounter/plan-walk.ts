/**
 * The clinician's assessment and plan walked sentence by sentence: each problem as it is opened
 * or stated ("for your first problem, your back pain", "I think you have a lumbar strain"), a
 * correction superseding what was said first, the orders said under it, its reasoning in clinical
 * register, orders said before the plan or dictated to the assistant, and the patient's assent.
 */
import { drugMatcher } from './medications.js';
import { clausesOf, planItemsIn } from './plan.js';
import { danglingCondition } from './plan-condition.js';
import { applyCorrection, applySchedule, type LastOrder } from './plan-correction.js';
import { indicatedProblem } from './plan-indication.js';
import { isComplaintByPlace, isSymptomOnly, judgesCondition, namesAssessedProblem, problemIn, type ProblemMention } from './problems.js';
import { agree } from './narrative.js';
import { registerFailure, tagsOf } from './register.js';
import { evidenceOf, type Said } from './said.js';
import { isNarration, stripTalk } from './talk.js';
import type { EncounterFacts, HistoryItem, PatientFacts, PlanItem, Problem, Unplaced } from './types.js';

const STOP = new Set('a an the and or but so if then of to in on at for with by from as is are was were be been am i me my you your he she it we they them his her its our this that these those there here what which who how when where why do does did have has had not no yes yeah okay ok just really very like um uh well also too get got go going come can could will would should may might let know think see say said tell mean way good great sure right oh all some any one about up out more much now still even back thing things lot bit little kind sort'.split(' '));
/** Words that carry content (not function words or fillers). */
export const contentWords = (t: string): number => (t.toLowerCase().match(/[\p{L}]+/gu) ?? []).filter((w) => !STOP.has(w) && w.length > 2).length;
const ORDER_SAID = /\b(?:i(?:'m| am)? going to|i'll|i will|we'll|we will|we're going to|let's|i want to|i'd like to)\s+(?:go ahead and\s+)?(?:just\s+)?(?:order|get|prescribe|start|refer|send|schedule|put you on|give you|recommend)\b|\bi (?:would |'d )?(?:suggest|recommend)\b|\bi want you to (?:take|start|use|continue|try)\b/i;
const ASSENT_ASKED = /\b(?:sound good|sounds good|does that sound|any questions|okay\?|all right\?|is that okay|how does that sound|do you agree)\b/i;
const ASSENT = /^\W*(?:yes|yeah|yep|okay|ok|sure|sounds good|that sounds (?:good|great|fine|reasonable)|i agree|alright|all right|perfect|great)\b/i;
const QUESTION_CLAUSE = /\?\s*$|^\W*(?:and\s+)?(?:(?!(?:i|we|you|they|he|she|it|that|this|so|then|now|and|if|when)\b)[a-z]+,?\s+)?(?:do|does|did|is|are|have|has|can|could|would|any)\s+(?:you|he|she|we|there)\b/i;
/**
 * An instruction to the patient ("definitely take your medication on time and see that nutritionist") or an offer
 * of questions is no reasoning. Only for reasoning: "prescribe meloxicam 15 mg to help with that, do you have any
 * questions" still orders.
 */
const NOT_REASONING = /\bany (?:other )?questions\b/i;
// What the patient will, can or must do is an instruction, not the assessment ("she will take 15 mg once a day", "he can pick
// that up at his pharmacy"); "this means ...", "everything looks good" point at what the reader cannot see.
const NOT_ASSESSMENT = /^(?:(?:he|she|the patient)\s+(?:\w+ly\s+|also\s+|just\s+|still\s+)?(?:will|'ll|can|should|must|(?:may|might|could|would)(?! (?:have|be|benefit)\b)|won't|can't|cannot|shouldn't|wouldn't|needs? to|has to|have to|does have to|does not (?:have|need) to|doesn't (?:have|need) to|is (?:just |also |still )?going to|is gonna|said|says|told|mentioned)\b|^(?:he|she|the patient)'ll\b|here (?:is|are)\b|this (?:means|completes|will|would|should|is going to)\b|everything (?:looks|seems|is) (?:good|great|fine|okay|ok|normal|well)\b|everything else\b|maybe|perhaps|hopefully|seems like|it seems|(?:[^,]{0,30},\s*)?(?:wash|take|apply|use|avoid|keep|stop|start|continue|call|come|go|try|make sure|remember|don't|do not)\b)|\bplease\b/i;
// Speech that broke off or restarted: "the those kidney stones", "reflux medicine can if he has reflux", "seem to be doing".
// A subject with no finite verb ("the patient passing that stone"), a phrase with no main clause ("for the next couple of
// weeks on doing ..."), a lead-in with no subject ("going to give ...", "anything else going on").
const BROKEN = /\b(?:the|a|an|these|those|this)\s+(?:the|a|an|this|that|these|those)\b|\b(?:can|could|will|would|should|may|might)\s+(?:if|when|because|that)\b|\b(?:doing|going)\W*$|^(?:he|she|the patient)\s+(?!(?:during|nothing|something|anything|morning|evening|thing|being)\b)\w+ing\b|^for\b(?![^,]*,)(?!.*\b(?:this|it|that) (?:looks|is|seems|appears|sounds)\b)|^(?:going to|gonna|anything|any|as long as|probably|still|this because)\b|^(?:he|she|the patient) and\b|\b(?:is|are|was)\s+(?:his|her|the patient's|their)\s+\w+\s+(?:is|are|was)\b/i;
const INSTRUCTION = /^\W*(?:(?:and|so|but|now|okay|definitely|just|please|really|also)\s+)*(?:take|see|call|make sure|keep|go|come|try|stay|avoid|use|continue|remember|bring|watch|get)\b/i;

type Drugs = ReturnType<typeof drugMatcher>;

/** What the walk builds, sentence by sentence. */
export interface PlanWalk {
  problems: Problem[];
  /** Plan items of no single problem. */
  general: PlanItem[];
  current?: Problem;
  agreement?: EncounterFacts['agreement'];
  /** Sentences a fact was read from. */
  used: Set<number>;
  /** The last medication order, which a correction said soon after changes. */
  lastOrder?: LastOrder;
  unplaced: Unplaced[];
  /** A start said of a drug class ("I'm going to start you on an anti-inflammatory"), awaiting the drug's name. */
  classStart?: number;
  /** The order written with the class's name, which the drug named next replaces, and the list it is in. */
  classItem?: PlanItem;
  classList?: PlanItem[];
  /** The visit's sentences, for where an order belongs. */
  said: readonly Said[];
}

/** "Start you on an anti-inflammatory", "put you on a muscle relaxant": an order whose drug is named next. */
const CLASS_START = /\b(?:(?:start|put|begin)\s+(?:you|him|her)\s+on|giv(?:e|ing)\s+(?:you|him|her))\s+(?:an?|some)\s+((?:[\p{L}-]+\s+){0,2}?(?:anti-?[\p{L}]+|[\p{L}-]*(?:relaxant|medicine|medication|pill|antibiotic|steroid|inhaler|cream|ointment|blocker|inhibitor|diuretic|statin)))\b/iu;
/** A clause that gives the class's drug its name: "I'll write you for Flexeril", "it's called", "it's going to be". */
const NAMES_IT = /\b(?:writ(?:e|ing) (?:you|him|her)(?: up)? for|called|it(?:'s| is)(?: going to be)?|that(?:'ll| will) be|namely|which is)\b/i;
/** Whether the class start at `at` orders now: said by me or us as an intent, with no negation, hope or condition before it. */
function ordersClassNow(clause: string, at: number): boolean {
  const before = clause.slice(0, at);
  if (/\b(?:not|never|no need|don't|won't|if|unless|maybe|might|may|could|eventually|hopefully|someday|consider)\b|n't\b/i.test(before)) return false;
  return /\b(?:i|we)(?:'m| am|'ll| will|'re| are|'d like| would like| want| wan na| need)\b|\blet's\b|^\W*(?:so\s+|and\s+|okay\s+)*(?:start|put|begin|give)\b/i.test(before + clause.slice(at, at + 6));
}
/** A class a clinician writes as the order until the drug is named ("Start statin"); "some medicine" names nothing. */
const WRITTEN_CLASS = /(?:anti-?\p{L}+|relaxant|antibiotic|steroid|inhaler|cream|ointment|blocker|inhibitor|diuretic|statin)$/iu;
/** "It's going to be Mobic 15 mg once a day": the drug named after its class was ordered. */
const NAMED_NEXT = /^\W*(?:and\s+|so\s+)?(?:it(?:'s| is)(?: going to be)?|it(?:'ll| will) be|that(?:'ll| will) be|we(?:'ll| will) (?:do|use|go with)|i(?:'ll| will) (?:do|use|go with))\b/i;

/**
 * Visit narration can still carry an order ("I'm going to go ahead and start you on doxycycline
 * 100 mg twice a day", "I want to go ahead and just order an x-ray of your right knee"): such a
 * sentence is read for its orders, not skipped as narration.
 */
function carriesOrder(text: string, drugs: Drugs): boolean {
  return clausesOf(text).some((c) => planItemsIn(c, drugs).some((i) => i.kind !== 'education' && i.kind !== 'follow-up'));
}

const ORDER_OF_IT = /^\W*(?:so\s+|and\s+)?(?:we(?:'ll| will| can)|i(?:'ll| will| can)|let's|let me)?\s*(?:go ahead and\s+)?(?:schedule|order|get|set up|arrange|book)\s+(?:that|it|one|those|them)(?:\s+(?:for you|today|done|scheduled|set up|up|ordered))?\s*(?:[.,;!?]|$)/i;

/** The order in a command to the dictation assistant ("hey dragon, order an echocardiogram"), if it gives one. */
function dictatedOrder(text: string): string | undefined {
  const m = /\b(?:hey,?\s+)?(?:dragon|dax)\s*,?\s*((?:order|prescribe|refer|schedule|send|refill|start|continue|increase|decrease|stop)\b.*)$/i.exec(text);
  return m?.[1];
}

const INSTRUCTING = /^(?:take|use|apply|wash|avoid|keep|stop|start|continue|call|come|go|try|receive|set|put|make|remember|rest|ice|elevate|drink|eat|walk|wear|follow|schedule|get|check|monitor|return|see|let|give|bring|hold|limit|cut|reduce|increase|decrease|watch|do|don't|begin|finish|pick|fill|contact|notify|bring)$/i;
/** "Receive another injection if needed": a sentence that opens with a verb in its base form tells the patient what to do. */
function imperative(sentence: string): boolean {
  const { words, pos, lemmas } = tagsOf(sentence.replace(/^(?:just|also|then|so|and)\s+/i, ''));
  // Verbs of instruction only: a noun the tagger takes for a verb ("tear of the meniscus", "wear and tear") is no order.
  return pos[0] === 'VERB' && lemmas[0]?.toLowerCase() === words[0]?.toLowerCase() && INSTRUCTING.test(words[0] ?? '');
}

/** Third person for a clinician's statement about the patient ("you're doing well" -> "He is doing well"). */
export function thirdPerson(text: string, patient: PatientFacts): string {
  const [subj, obj, poss] = patient.sex === 'female' ? ['she', 'her', 'her'] : patient.sex === 'male' ? ['he', 'him', 'his'] : ['the patient', 'the patient', "the patient's"];
  let t = stripTalk(text).replace(/[,\s]+$/, '');
  t = t
    .replace(/\byou(?:'re| are)\b/gi, `${subj} is`).replace(/\byou(?:'ve| have) been\b/gi, `${subj} has been`).replace(/\byou(?:'ve| have)\b/gi, `${subj} has`)
    .replace(/\byou were\b/gi, `${subj} was`).replace(/\byou do\b/gi, `${subj} does`).replace(/\byou don't\b/gi, `${subj} does not`).replace(/\byou(?:'ll| will)\b/gi, `${subj} will`)
    .replace(/\byour\b/gi, poss).replace(/\byourself\b/gi, `${obj}self`).replace(/(?<=\b(?:to|for|with|on|give|tell|see|help|send|let)\s)you\b/gi, obj).replace(/^you\b/i, subj);
  if (!t) return t;
  t = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

/** A problem named again is the same problem; a later statement supersedes ("actually, it's not a fracture"). */
function openProblem(walk: PlanWalk, m: ProblemMention, s: Said, history: readonly HistoryItem[]): Problem {
  const existing = walk.problems.find((p) => p.name === m.name);
  if (existing) {
    if (m.certainty !== 'confirmed' || existing.certainty === 'probable') existing.certainty = m.certainty;
    existing.evidence.push(...evidenceOf(s));
    return existing;
  }
  const p: Problem = { name: m.name, status: m.status, certainty: m.certainty, ...(m.laterality ? { laterality: m.laterality } : {}), reasoning: [], plan: [], evidence: evidenceOf(s) };
  if (p.status === 'unknown' && history.some((h) => h.kind === 'medical' && h.term === p.name)) p.status = 'chronic';
  walk.problems.push(p);
  return p;
}

/** The problem a clinician's sentence names, placed; returns what the sentence says beyond naming it. */
function placeMention(walk: PlanWalk, s: Said, said: readonly Said[], history: readonly HistoryItem[]): string {
  const mention = problemIn(s.text);
  if (!mention) return s.text;
  // "I don't see any fracture" said of an x-ray already read as its result is the result, not a problem ruled out.
  if (mention.certainty === 'ruled-out' && !mention.opens && !mention.withdrawn && walk.used.has(s.i)) return s.text;
  // A problem named earlier is withdrawn: every problem whose name ends in the withdrawn words is ruled out.
  if (mention.withdrawn) for (const p of walk.problems) if (p.name === mention.withdrawn || p.name.endsWith(` ${mention.withdrawn}`)) p.certainty = 'ruled-out';
  const current = walk.current;
  // "For your first problem, your back pain. I think you have a lumbar strain": the diagnosis names the
  // problem the symptom opened, rather than standing beside it as a second one.
  // A complaint named by its place is renamed only by a confirmed diagnosis: "possible rotator cuff tear" leaves "left shoulder pain".
  if (!mention.opens && mention.certainty !== 'ruled-out' && current && current.plan.length === 0 && (isSymptomOnly(current.name) || (mention.certainty === 'confirmed' && isComplaintByPlace(current.name)))
    && !isSymptomOnly(mention.name) && !walk.problems.some((p) => p.name === mention.name) && s.i - (current.evidence.length ? said.findIndex((x) => x.start === current.evidence[0]!.start) : -9) <= 2) {
    current.name = mention.name;
    current.certainty = mention.certainty;
    if (mention.laterality) current.laterality = mention.laterality;
    current.evidence.push(...evidenceOf(s));
    return s.text;
  }
  // "For your first problem, your shortness of breath, I think you are in a heart failure exacerbation":
  // the diagnosis said after the symptom names the problem.
  const dx = mention.opens && isSymptomOnly(mention.name) ? problemIn(mention.rest) : undefined;
  // A diagnosis the clinician only thinks or believes is probable: the symptom is coded unless the history confirms it.
  const hedged = dx ? /\bi (?:think|believe|feel)\b/i.test(mention.rest) : false;
  const named = dx && !dx.opens && !dx.withdrawn && dx.certainty !== 'ruled-out' && !isSymptomOnly(dx.name)
    ? { ...dx, opens: true, rest: mention.rest, certainty: hedged ? 'probable' as const : dx.certainty } : mention;
  const p = openProblem(walk, named, s, history);
  if (mention.opens || mention.certainty !== 'ruled-out') walk.current = p;
  walk.used.add(s.i);
  const rest = mention.rest;
  // "Not a sprain, it's a fracture": the second name said is the one kept.
  const second = mention.certainty === 'ruled-out' ? problemIn(rest.slice(rest.toLowerCase().indexOf(mention.name.split(' ')[0]!) + mention.name.length)) : undefined;
  if (second && second.name !== mention.name) walk.current = openProblem(walk, second, s, history);
  return rest;
}

/** The class ordered a sentence or two before ("a muscle relaxant") becomes the drug now named for it. */
function nameTheClass(walk: PlanWalk, medication: NonNullable<PlanItem['medication']>, s: Said): void {
  walk.classItem!.medication = medication;
  walk.classItem!.evidence.push(...evidenceOf(s));
  walk.classItem = undefined;
  walk.classStart = undefined;
  walk.used.add(s.i);
}

/** The orders and reasoning of a clinician's sentence, under the current problem or for the visit. */
function placeClauses(walk: PlanWalk, rest: string, s: Said, condition: string | undefined, drugs: Drugs, patient: PatientFacts): void {
  let previous = '';
  for (const clause of clausesOf(rest)) {
    // "Let's continue the Prozac 20 mg a day and do you need a refill?": the question part asks, the rest orders.
    if (QUESTION_CLAUSE.test(clause)) continue;
    // "You're due for a mammogram, so we'll schedule that": an order said of the study the clause before named.
    const items = planItemsIn(clause, drugs);
    const sameProblem = walk.classList !== undefined && walk.classList === (walk.current?.plan ?? walk.general);
    if (items.length === 0 && walk.classStart !== undefined && s.i - walk.classStart <= 2 && NAMED_NEXT.test(clause)) {
      const named = planItemsIn(`start ${clause.replace(NAMED_NEXT, '')}`, drugs).filter((i) => i.kind === 'medication');
      // The class written as the order becomes the drug named ("start you on an anti-inflammatory ... it's going to be Mobic").
      if (named.length && walk.classItem && sameProblem) {
        nameTheClass(walk, named[0]!.medication!, s);
        continue;
      }
      items.push(...named);
    }
    // "I'm going to give you a muscle relaxant, I'll write you for Flexeril 5 mg": the drug started next is the class's.
    // Only a drug introduced as the class's name replaces it ("I'll write you for", "it's called"); another drug
    // started next ("and I'll also start you on ibuprofen") stands beside it. Only under the same problem.
    const namedStart = walk.classItem && sameProblem && walk.classStart !== undefined && s.i - walk.classStart <= 2 && NAMES_IT.test(clause)
      ? items.findIndex((i) => i.kind === 'medication' && i.action === 'start') : -1;
    if (namedStart >= 0) {
      nameTheClass(walk, items.splice(namedStart, 1)[0]!.medication!, s);
      if (items.length === 0) continue;
    }
    const started = items.length === 0 ? CLASS_START.exec(clause) : null;
    const cls = started?.[1]!.toLowerCase().replace(/\s+/g, ' ');
    // Written as an order only when the clinician orders it now: not denied ("I don't want to start you on an
    // antibiotic"), not someone else's past ("the urgent care put you on an antibiotic"), not hoped or conditional.
    if (cls && WRITTEN_CLASS.test(cls) && ordersClassNow(clause, started!.index)) items.push({ kind: 'medication', action: 'start', medication: { name: cls }, evidence: [] });
    walk.classStart = started ? s.i : items.length ? undefined : walk.classStart;
    if (walk.classStart === undefined || started) walk.classItem = undefined;
    if (items.length === 0 && previous && ORDER_OF_IT.test(clause)) items.push(...planItemsIn(`${previous}, ${clause}`, drugs).filter((i) => i.kind === 'test' || i.kind === 'imaging'));
    previous = clause;
    if (applyCorrection(walk.lastOrder, clause, s.i, items, evidenceOf(s), drugs) || applySchedule(walk.lastOrder, clause, s.i, items, evidenceOf(s), walk.current?.plan ?? walk.general)) {
      walk.used.add(s.i);
      continue;
    }
    if (items.length) {
      for (const item of items) {
        // "Watch your blood pressures, and if they start rising, contact me": the precaution's "they" is the advice's object, so the two stay one instruction.
        const last = walk.general[walk.general.length - 1];
        const pronoun = /^Return precautions: (?:call|call 911|return|go to the emergency department) if (?:they|it|that|those|these)\b/.exec(item.text ?? '');
        if (pronoun && last?.kind === 'education' && last.text && !last.text.startsWith('Return precautions') && last.evidence.some((e) => e.start === s.start)) {
          last.text = `${last.text}; ${item.text!.slice('Return precautions: '.length)}`;
          continue;
        }
        const placed = { ...item, ...(condition && !item.condition && item.kind !== 'education' && item.kind !== 'follow-up' ? { condition } : {}), evidence: evidenceOf(s) };
        // Counselling and follow-up are for the visit unless said of one problem; they follow the problems. An order for
        // another condition than the problem being discussed goes to that condition's problem.
        const home = indicatedProblem(placed, walk.current, walk.problems, walk.said);
        if (home?.opened) walk.problems.push(home.problem);
        const list = item.kind === 'follow-up' || item.kind === 'education' || !walk.current ? walk.general : (home?.problem ?? walk.current).plan;
        list.push(placed);
        if (placed.kind === 'medication') walk.lastOrder = { item: placed, list, sentence: s.i };
        if (started && placed.kind === 'medication' && placed.medication?.name === cls) {
          walk.classItem = placed;
          walk.classList = list;
        }
      }
      walk.used.add(s.i);
      continue;
    }
    if (isNarration(clause) || contentWords(clause) < 2) continue;
    const written = agree(thirdPerson(clause, patient));
    const failure = registerFailure(written) ?? (BROKEN.test(written) ? 'fragment' : NOT_ASSESSMENT.test(written) || imperative(written) ? 'instruction' : undefined);
    if (walk.current && !failure && !INSTRUCTION.test(clause) && !NOT_REASONING.test(clause) && walk.current.reasoning.length < 2 && written.split(/\s+/).length <= 30) {
      walk.current.reasoning.push(written);
      walk.used.add(s.i);
    } else if (contentWords(clause) >= 3) {
      walk.unplaced.push({ text: stripTalk(clause), section: 'plan', reason: failure ? `failed register gate (${failure})` : 'no plan item read', evidence: evidenceOf(s) });
    }
  }
}

/** An order dictated to the assistant ("Dragon, order a refill of Prozac 20 mg daily"): true when the sentence is one. */
function readDictatedOrder(walk: PlanWalk, s: Said, drugs: Drugs): boolean {
  const command = s.talk === 'dictation command' ? dictatedOrder(s.text) : undefined;
  if (command && s.phase !== 'history') {
    const items = planItemsIn(command, drugs).filter((i) => i.kind !== 'education' && i.kind !== 'follow-up');
    for (const item of items) (walk.current ?? { plan: walk.general }).plan.push({ ...item, evidence: evidenceOf(s) });
    if (items.length) walk.used.add(s.i);
    return true;
  }
  return false;
}

/** Walk the said sentences for the assessment and plan. */
export function walkPlan(said: readonly Said[], drugs: Drugs, history: readonly HistoryItem[], patient: PatientFacts, used: Set<number>, unplaced: Unplaced[]): PlanWalk {
  const walk: PlanWalk = { problems: [], general: [], used, unplaced, said };
  // "Let's get an x-ray today and if it shows a fracture." / "We'll refer you to orthopedics.": a condition
  // left open at a sentence's end governs the orders of the clinician's next sentence.
  let pending: string | undefined;
  for (const s of said) {
    const condition = pending;
    if (s.speaker === 'clinician') pending = danglingCondition(s.text);
    if (readDictatedOrder(walk, s, drugs)) continue;
    // Narration can still carry an order: "I want to go ahead and just order an x-ray of your right knee".
    if ((s.talk && !(s.talk === 'narration' && (carriesOrder(s.text, drugs) || namesAssessedProblem(s.text)))) || (s.question && s.phase !== 'plan')) continue;
    if (s.speaker === 'patient' && ASSENT.test(s.text) && s.answers !== undefined && ASSENT_ASKED.test(said[s.answers]!.text)) {
      walk.agreement = { evidence: evidenceOf(said[s.answers], s) };
      used.add(s.i);
      continue;
    }
    if (s.speaker !== 'clinician') continue;
    if (s.phase !== 'plan' && !judgesCondition(s.text)) {
      // An order said before the plan ("I'm going to order an x-ray of your knee") is still an order.
      if (!ORDER_SAID.test(s.text) || used.has(s.i)) continue;
      const items = planItemsIn(s.text, drugs).filter((i) => i.kind !== 'education');
      for (const item of items) walk.general.push({ ...item, evidence: evidenceOf(s) });
      if (items.length) used.add(s.i);
      continue;
    }
    if (isNarration(s.text) && !carriesOrder(s.text, drugs) && !namesAssessedProblem(s.text)) continue;
    placeClauses(walk, placeMention(walk, s, said, history), s, condition, drugs, patient);
  }
  // "Order an A1c" said before the metformin opened the diabetes: an order goes to the problem its condition opened later.
  for (const p of walk.problems) {
    for (const item of [...p.plan]) {
      const home = indicatedProblem(item, p, walk.problems, []);
      if (!home || home.opened) continue;
      p.plan.splice(p.plan.indexOf(item), 1);
      home.problem.plan.push(item);
    }
  }
  return walk;
}

/**
 * The same order said twice is one. "Continue lisinopril 10 mg" then "Dragon, order lisinopril 10
 * mg daily" is one order, whatever its verb; an order said firmly once is not also kept as conditional.
 */
export function dedupePlan(items: PlanItem[]): PlanItem[] {
  const keyOf = (i: PlanItem): string => JSON.stringify(i.kind === 'medication' && i.medication?.dose ? [i.kind, i.medication.generic, i.medication.dose] : [i.kind, i.action, i.medication?.generic, i.target, i.when, i.text]);
  const firm = new Set(items.filter((i) => !i.condition).map(keyOf));
  // "We will start you on the Prilosec" after "Prilosec 20 mg once a day": the dosed order says it all.
  const dosed = new Set(items.filter((i) => i.medication?.dose).map((i) => i.medication!.generic));
  const kept = items.filter((i) => i.kind !== 'medication' || i.medication?.dose || !dosed.has(i.medication?.generic));
  const seen = new Set<string>();
  return kept.filter((i) => {
    const key = keyOf(i);
    if (i.condition && firm.has(key)) return false;
    return !seen.has(key) && seen.add(key);
  });
}
