/**
 * The entry point: transcript and caller context in, EncounterFacts out. The transcript is read
 * once into sentences (said.ts); each reader takes the facts of its kind with their evidence;
 * the assessment and plan is walked problem by problem; whatever informative sentence no reader
 * placed is listed as unplaced so a writer can show it for review instead of dropping it.
 */
import { parseMedicationList, correctMedicationNames } from '../clinical-language/medications.js';
import { guessLanguage } from '../clinical-language/language-guess.js';
import { answerPolarity } from '../clinical-language/context.js';
import { readAllergies, drugMatcher, readMedications } from './medications.js';
import { readExam } from './exam.js';
import { readHistory, readPatient } from './history.js';
import { clausesOf, planItemsIn } from './plan.js';
import { danglingCondition } from './plan-condition.js';
import { withdrawContradicted } from './denials.js';
import { isSymptomOnly, judgesCondition, problemIn, problemTerm, type ProblemMention } from './problems.js';
import { registerFailure } from './register.js';
import { readResults } from './results.js';
import { evidenceOf, readSaid, type Said } from './said.js';
import { readSymptoms } from './symptoms.js';
import { readStatements } from './narrative.js';
import { isNarration, stripTalk } from './talk.js';
import type { EncounterFacts, EncounterInput, PatientFacts, PlanItem, Problem, Unplaced } from './types.js';
import { readVitals } from './vitals.js';

const STOP = new Set('a an the and or but so if then of to in on at for with by from as is are was were be been am i me my you your he she it we they them his her its our this that these those there here what which who how when where why do does did have has had not no yes yeah okay ok just really very like um uh well also too get got go going come can could will would should may might let know think see say said tell mean way good great sure right oh all some any one about up out more much now still even back thing things lot bit little kind sort'.split(' '));
const contentWords = (t: string): number => (t.toLowerCase().match(/[\p{L}]+/gu) ?? []).filter((w) => !STOP.has(w) && w.length > 2).length;
const ORDER_SAID = /\b(?:i(?:'m| am)? going to|i'll|i will|we'll|we will|we're going to|let's|i want to|i'd like to)\s+(?:go ahead and\s+)?(?:just\s+)?(?:order|get|prescribe|start|refer|send|schedule|put you on|give you|recommend)\b/i;
const ASSENT_ASKED = /\b(?:sound good|sounds good|does that sound|any questions|okay\?|all right\?|is that okay|how does that sound|do you agree)\b/i;
const ASSENT = /^\W*(?:yes|yeah|yep|okay|ok|sure|sounds good|that sounds (?:good|great|fine|reasonable)|i agree|alright|all right|perfect|great)\b/i;

const QUESTION_CLAUSE = /\?\s*$|^\W*(?:and\s+)?(?:do|does|did|is|are|have|has|can|could|would|any)\s+(?:you|he|she|we|there)\b/i;

/**
 * Visit narration can still carry an order ("I'm going to go ahead and start you on doxycycline
 * 100 mg twice a day", "I want to go ahead and just order an x-ray of your right knee"): such a
 * sentence is read for its orders, not skipped as narration.
 */
function carriesOrder(text: string, drugs: ReturnType<typeof drugMatcher>): boolean {
  return clausesOf(text).some((c) => planItemsIn(c, drugs).some((i) => i.kind !== 'education' && i.kind !== 'follow-up'));
}

/** The order in a command to the dictation assistant ("hey dragon, order an echocardiogram"), if it gives one. */
function dictatedOrder(text: string): string | undefined {
  const m = /\b(?:hey,?\s+)?(?:dragon|dax)\s*,?\s*((?:order|prescribe|refer|schedule|send|refill|start|continue|increase|decrease|stop)\b.*)$/i.exec(text);
  return m?.[1];
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

function reasonForVisit(said: Said[]): { term: string; said: Said } | undefined {
  for (const s of said.slice(0, Math.max(15, Math.floor(said.length * 0.3)))) {
    if (s.talk || s.question) continue;
    const m = /\b(?:presents?|presenting|here|in|coming in|came in|referred|seen)\s+(?:today\s+|here\s+)?(?:for|with|because of|regarding)\s+((?:an?\s+|the\s+|his\s+|her\s+|your\s+|my\s+|some\s+)?[^,.;?]{3,60}?)(?=[,.;?]|\s+(?:who|which|that|and\s+(?:she|he|i|we))\b|$)/i.exec(s.text);
    if (!m) continue;
    const term = m[1]!.replace(/^(?:an?|the|his|her|your|my|some)\s+/i, '').replace(/^(?:complaints? of|evaluation of|concerns? (?:of|about))\s+/i, '').replace(/\b(?:today|please)\b/gi, '').trim();
    if (term.split(/\s+/).length <= 8 && contentWords(term) >= 1 && !/\b(?:i|you|me)\b/i.test(term)) return { term: term.toLowerCase(), said: s };
  }
  for (const s of said.slice(0, 40)) {
    if (s.speaker !== 'clinician' || !/\bwhat (?:brings|brought) you|\bwhat can i (?:do|help)|\bhow can i help|\bwhat(?:'s| is) going on|\bwhat seems to be/i.test(s.text)) continue;
    const reply = s.reply !== undefined ? said[s.reply] : undefined;
    if (reply) return { term: '', said: reply };
  }
  return undefined;
}

/** "Are you taking your medications?" "Yes, I am": adherence said of the medications as a whole. */
function adherence(said: Said[], used: Set<number>): { text: string; section: 'hpi'; weight: number; evidence: ReturnType<typeof evidenceOf> }[] {
  const out: { text: string; section: 'hpi'; weight: number; evidence: ReturnType<typeof evidenceOf> }[] = [];
  for (const s of said) {
    if (s.speaker !== 'clinician' || !s.question || s.reply === undefined || !/\b(?:taking|take) (?:your|all your|all of your) (?:medications|medicines|meds|pills)\b/i.test(s.text)) continue;
    const reply = said[s.reply]!;
    const polarity = answerPolarity(reply.spoken);
    if (!polarity) continue;
    out.push({ text: polarity === 'positive' ? 'Reports taking medications as prescribed.' : 'Reports not taking medications as prescribed.', section: 'hpi', weight: 4, evidence: evidenceOf(s, reply) });
    used.add(s.i).add(reply.i);
  }
  return out;
}

/** Read an encounter into facts. */
export function understandEncounter(input: EncounterInput): EncounterFacts {
  const listed = parseMedicationList(input.medicationList);
  const transcript = input.transcript;
  const { said, utterances } = readSaid(transcript);
  // Drug names are corrected to the caller's list sentence by sentence, so spans stay those of the transcript as given.
  if (listed.length) for (const s of said) s.text = correctMedicationNames(s.text, listed);
  const sourceLanguage = guessLanguage(transcript) ?? 'en';
  const patient = readPatient(said, input);
  const history = readHistory(said);
  const symptoms = readSymptoms(said);
  const medications = readMedications(said, listed);
  const allergies = readAllergies(said);
  const vitals = readVitals(said);
  const exam = readExam(said);
  const results = readResults(said);
  const used = new Set<number>([...history.used, ...symptoms.used, ...medications.used, ...allergies.used, ...vitals.used, ...exam.used, ...results.used]);
  const unplaced: Unplaced[] = exam.unplaced.filter((u) => !said.some((s) => used.has(s.i) && s.start === u.evidence[0]?.start));
  const drugs = drugMatcher(listed);

  const problems: Problem[] = [];
  const general: PlanItem[] = [];
  let current: Problem | undefined;
  const open = (m: ProblemMention, s: Said): Problem => {
    const existing = problems.find((p) => p.name === m.name);
    if (existing) {
      // A later statement supersedes: "actually, it's not a fracture".
      if (m.certainty !== 'confirmed' || existing.certainty === 'probable') existing.certainty = m.certainty;
      existing.evidence.push(...evidenceOf(s));
      return existing;
    }
    const p: Problem = { name: m.name, status: m.status, certainty: m.certainty, ...(m.laterality ? { laterality: m.laterality } : {}), reasoning: [], plan: [], evidence: evidenceOf(s) };
    if (p.status === 'unknown' && history.history.some((h) => h.kind === 'medical' && h.term === p.name)) p.status = 'chronic';
    problems.push(p);
    return p;
  };
  let agreement: EncounterFacts['agreement'];
  // "Let's get an x-ray today and if it shows a fracture." / "We'll refer you to orthopedics.": a condition
  // left open at a sentence's end governs the orders of the clinician's next sentence.
  let pending: string | undefined;
  for (const s of said) {
    const condition = pending;
    if (s.speaker === 'clinician') pending = danglingCondition(s.text);
    // "Dragon, order a refill of Prozac 20 mg daily": an order dictated to the assistant is an order.
    const command = s.talk === 'dictation command' ? dictatedOrder(s.text) : undefined;
    if (command && s.phase !== 'history') {
      const items = planItemsIn(command, drugs).filter((i) => i.kind !== 'education' && i.kind !== 'follow-up');
      for (const item of items) (current ?? { plan: general }).plan.push({ ...item, evidence: evidenceOf(s) });
      if (items.length) used.add(s.i);
      continue;
    }
    // Narration can still carry an order: "I want to go ahead and just order an x-ray of your right knee".
    if ((s.talk && !(s.talk === 'narration' && carriesOrder(s.text, drugs))) || (s.question && s.phase !== 'plan')) continue;
    if (s.speaker === 'patient' && ASSENT.test(s.text) && s.answers !== undefined && ASSENT_ASKED.test(said[s.answers]!.text)) {
      agreement = { evidence: evidenceOf(said[s.answers], s) };
      used.add(s.i);
      continue;
    }
    if (s.speaker !== 'clinician') continue;
    if (s.phase !== 'plan' && !judgesCondition(s.text)) {
      // An order said before the plan ("I'm going to order an x-ray of your knee") is still an order.
      if (!ORDER_SAID.test(s.text) || used.has(s.i)) continue;
      const items = planItemsIn(s.text, drugs).filter((i) => i.kind !== 'education');
      for (const item of items) general.push({ ...item, evidence: evidenceOf(s) });
      if (items.length) used.add(s.i);
      continue;
    }
    if (isNarration(s.text) && !carriesOrder(s.text, drugs)) continue;
    let rest = s.text;
    const mention = problemIn(s.text);
    if (mention?.withdrawn) {
      // A problem named earlier is withdrawn: every problem whose name ends in the withdrawn words is ruled out.
      for (const p of problems) if (p.name === mention.withdrawn || p.name.endsWith(` ${mention.withdrawn}`)) p.certainty = 'ruled-out';
    }
    // "For your first problem, your back pain. I think you have a lumbar strain": the diagnosis names the
    // problem the symptom opened, rather than standing beside it as a second one.
    if (mention && !mention.opens && mention.certainty !== 'ruled-out' && current && current.plan.length === 0 && isSymptomOnly(current.name)
      && !isSymptomOnly(mention.name) && !problems.some((p) => p.name === mention.name) && s.i - (current.evidence.length ? said.findIndex((x) => x.start === current!.evidence[0]!.start) : -9) <= 2) {
      current.name = mention.name;
      current.certainty = mention.certainty;
      if (mention.laterality) current.laterality = mention.laterality;
      current.evidence.push(...evidenceOf(s));
    } else if (mention) {
      const p = open(mention, s);
      if (mention.opens || mention.certainty !== 'ruled-out') current = p;
      used.add(s.i);
      rest = mention.rest;
      // "Not a sprain, it's a fracture": the second name said is the one kept.
      const second = mention.certainty === 'ruled-out' ? problemIn(rest.slice(rest.toLowerCase().indexOf(mention.name.split(' ')[0]!) + mention.name.length)) : undefined;
      if (second && second.name !== mention.name) current = open(second, s);
    }
    for (const clause of clausesOf(rest)) {
      // "Let's continue the Prozac 20 mg a day and do you need a refill?": the question part asks, the rest orders.
      if (QUESTION_CLAUSE.test(clause)) continue;
      const items = planItemsIn(clause, drugs);
      if (items.length) {
        for (const item of items) {
          const placed = { ...item, ...(condition && !item.condition && item.kind !== 'education' && item.kind !== 'follow-up' ? { condition } : {}), evidence: evidenceOf(s) };
          // Counselling and follow-up are for the visit unless said of one problem; they follow the problems.
          if (item.kind === 'follow-up' || item.kind === 'education' || !current) general.push(placed);
          else current.plan.push(placed);
        }
        used.add(s.i);
        continue;
      }
      if (isNarration(clause) || contentWords(clause) < 2) continue;
      const written = thirdPerson(clause, patient);
      const failure = registerFailure(written);
      if (current && !failure && current.reasoning.length < 2 && written.split(/\s+/).length <= 30) {
        current.reasoning.push(written);
        used.add(s.i);
      } else if (contentWords(clause) >= 3) {
        unplaced.push({ text: stripTalk(clause), section: 'plan', reason: failure ? `failed register gate (${failure})` : 'no plan item read', evidence: evidenceOf(s) });
      }
    }
  }
  // The same order said twice is one.
  // "Continue lisinopril 10 mg" then "Dragon, order lisinopril 10 mg daily" is one order, whatever its verb;
  // an order said firmly once is not also kept as conditional.
  const dedupe = (items: PlanItem[]): PlanItem[] => {
    const keyOf = (i: PlanItem): string => JSON.stringify(i.kind === 'medication' && i.medication?.dose ? [i.kind, i.medication.generic, i.medication.dose] : [i.kind, i.action, i.medication?.generic, i.target, i.when, i.text]);
    const firm = new Set(items.filter((i) => !i.condition).map(keyOf));
    // "We will start you on the Prilosec" after "Prilosec 20 mg once a day": the dosed order says it all.
    const dosed = new Set(items.filter((i) => i.medication?.dose).map((i) => i.medication!.generic));
    items = items.filter((i) => i.kind !== 'medication' || i.medication?.dose || !dosed.has(i.medication?.generic));
    const seen = new Set<string>();
    return items.filter((i) => {
      const key = keyOf(i);
      if (i.condition && firm.has(key)) return false;
      return !seen.has(key) && seen.add(key);
    });
  };
  for (const p of problems) p.plan = dedupe(p.plan);
  const follow = general.filter((i) => i.kind === 'follow-up');
  const plan = dedupe([...general.filter((i) => i.kind !== 'follow-up' && !problems.some((p) => p.plan.some((q) => q.kind === i.kind && q.target === i.target && q.medication?.generic === i.medication?.generic))), ...follow.slice(-1)]);

  for (const s of said) {
    if (used.has(s.i) || s.talk || s.question || s.phase === 'plan') continue;
    if (s.text.split(/\s+/).length < 5 || contentWords(s.text) < 2) continue;
    unplaced.push({ text: s.text, section: s.phase === 'exam' ? 'exam' : 'hpi', reason: 'no fact read', evidence: evidenceOf(s) });
  }

  const reason = reasonForVisit(said);
  const facts: EncounterFacts = {
    sourceLanguage, patient, symptoms: withdrawContradicted(symptoms.symptoms, problems, history.history), history: history.history, medications: medications.medications, allergies: allergies.allergies,
    vitals: vitals.vitals, exam: exam.exam, results: results.results, problems, plan, unplaced, utterances,
  };
  const statements = [
    ...readStatements(said.filter((s) => !used.has(s.i)), patient),
    ...symptoms.timing.map((t) => ({ text: `Onset ${t.text}.`, section: 'hpi' as const, weight: 3, evidence: t.evidence })),
    ...adherence(said, used),
  ];
  // One entry per sentence: the same sentence unplaced twice is listed once; a sentence written as a statement is placed.
  const seenUnplaced = new Set<number>(statements.flatMap((st) => st.evidence.map((e) => e.start)));
  facts.unplaced = unplaced.filter((u) => !used.has(said.find((s) => s.start === u.evidence[0]?.start)?.i ?? -1) && !seenUnplaced.has(u.evidence[0]?.start ?? -1) && seenUnplaced.add(u.evidence[0]?.start ?? -1));
  if (statements.length) facts.statements = statements;
  if (reason && !reason.term) {
    const said = symptoms.symptoms.filter((s) => s.presence === 'reported' && s.subject === 'patient' && s.evidence.some((e) => e.start === reason.said.start));
    if (said.length) reason.term = said.slice(0, 2).map((s) => `${s.laterality ? `${s.laterality} ` : ''}${s.term}`).join(' and ');
  }
  if (reason?.term) facts.reasonForVisit = { term: reason.term, evidence: evidenceOf(reason.said) };
  if (agreement) facts.agreement = agreement;
  return facts;
}
