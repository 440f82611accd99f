/**
 * The entry point: transcript and caller context in, EncounterFacts out. The transcript is read
 * once into sentences (said.ts); each reader takes the facts of its kind with their evidence;
 * the assessment and plan is walked problem by problem; whatever informative sentence no reader
 * placed is listed as unplaced so a writer can show it for review instead of dropping it.
 */
import { readFrequencies } from '../clinical-language/units.js';
import { BODY_SITES } from './attributes.js';
import { parseMedicationList, correctMedicationNames } from '../clinical-language/medications.js';
import { guessLanguage } from '../clinical-language/language-guess.js';
import { answerPolarity } from '../clinical-language/context.js';
import { ordersTestsToConfirm } from './assertion.js';
import { readAllergies, drugMatcher, readMedications, MISSED_DOSES } from './medications.js';
import { readExam } from './exam.js';
import { readHistory, readPatient } from './history.js';
import { withdrawContradicted } from './denials.js';
import { contentWords, dedupePlan, walkPlan } from './plan-walk.js';
import { conditionOfReason } from './problems.js';
import { readResults } from './results.js';
import { evidenceOf, readSaid, type Said } from './said.js';
import { readSymptoms } from './symptoms.js';
import { readStatements } from './narrative.js';
import type { EncounterFacts, EncounterInput, Medication, PlanItem, Problem, Symptom, Unplaced } from './types.js';
import { readVitals } from './vitals.js';
import { readProcedures } from './procedures.js';
import { tidyProblems } from './problem-names.js';

function reasonForVisit(said: Said[]): { term: string; said: Said } | undefined {
  for (const s of said.slice(0, Math.max(15, Math.floor(said.length * 0.3)))) {
    if (s.talk || s.question) continue;
    const m = /\b(?:presents?|presenting|here|in|coming in|came in|referred|seen)\s+(?:today\s+|here\s+)?(?:for|with|because of|regarding)\s+((?:an?\s+|the\s+|his\s+|her\s+|your\s+|my\s+|some\s+)?[^,.;?]{3,60}?)(?=[,.;?]|\s+(?:who|which|that|and\s+(?:she|he|i|we))\b|$)/i.exec(s.text);
    if (!m) continue;
    const term = m[1]!.replace(/^(?:an?|the|his|her|your|my|our|some)\s+/i, '').replace(/^(?:complaints? of|evaluation of|concerns? (?:of|about))\s+/i, '').replace(/\b(?:today|please)\b/gi, '').trim();
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
  let missed: { s: Said; reply: Said } | undefined;
  for (const s of said) {
    if (s.speaker !== 'clinician' || !s.question || s.reply === undefined || !/\b(?:taking|take) (?:your|all your|all of your|the|those|these) (?:medications|medicines|meds|pills)\b/i.test(s.text)) continue;
    const reply = said[s.reply]!;
    // "I take them most times but sometimes I miss a dose or two": admitted missed doses are the answer,
    // and they stand against any later "yes" (the patient does not become adherent by being asked again).
    const answer = said.filter((r) => r.turn === reply.turn && r.i >= reply.i);
    if (reply.speaker === 'patient' && answer.some((r) => MISSED_DOSES.test(r.text))) {
      used.add(s.i).add(reply.i);
      missed ??= { s, reply };
      continue;
    }
    const polarity = answerPolarity(reply.spoken);
    if (!polarity) continue;
    used.add(s.i).add(reply.i);
    out.push({ text: polarity === 'positive' ? 'Reports taking medications as prescribed.' : 'Reports not taking medications as prescribed.', section: 'hpi', weight: 4, evidence: evidenceOf(s, reply) });
  }
  if (missed) return [{ text: 'Reports sometimes missing doses of medications.', section: 'hpi', weight: 4, evidence: evidenceOf(missed.s, missed.reply) }];
  return out;
}

/** Informative sentences of the history and exam that no reader placed. */
function historyUnplaced(said: readonly Said[], used: Set<number>): Unplaced[] {
  const out: Unplaced[] = [];
  for (const s of said) {
    // The clinician's plan sentences are listed by the plan's reading; what the patient says there is listed here.
    if (used.has(s.i) || s.talk || s.question || (s.phase === 'plan' && s.speaker !== 'patient')) continue;
    if (s.text.split(/\s+/).length < 5 || contentWords(s.text) < 2) continue;
    out.push({ text: s.text, section: s.phase === 'exam' ? 'exam' : s.phase === 'plan' ? 'plan' : 'hpi', reason: 'no fact read', evidence: evidenceOf(s) });
  }
  return out;
}

/** Outpatient rule, for a conversation as for a note: a diagnosis whose own lines order tests to confirm it is probable. */
function unconfirmedByTests(problems: Problem[], said: readonly Said[]): void {
  for (const p of problems) {
    if (p.certainty !== 'confirmed') continue;
    const lines = [...p.reasoning, ...p.evidence.map((e) => said.find((s) => s.start === e.start)?.text ?? '')];
    if (lines.some(ordersTestsToConfirm)) p.certainty = 'probable';
  }
  // "I don't think you have covid" with a covid test sent today: the condition is not ruled out while its test is
  // pending, and a note that says "ruled out" would be false. The problem is left to its test, ordered where it was said.
  const pending = problems.flatMap((p) => p.plan).filter((i) => (i.kind === 'test' || i.kind === 'imaging') && !i.condition).map((i) => i.target ?? '');
  for (let k = problems.length - 1; k >= 0; k--) {
    const p = problems[k]!;
    const word = p.name.toLowerCase().replace(/-19$/, '').split(/\s+/)[0]!;
    if (p.certainty === 'ruled-out' && p.plan.length === 0 && word.length >= 3 && pending.some((t) => t.toLowerCase().includes(word))) problems.splice(k, 1);
  }
}

/** Conditions of a limb or joint, which have a side. */
const SIDED_CONDITION = /\b(?:strain|sprain|fracture|tear|contusion|dislocation|tendinitis|tendonitis|tendinopathy|bursitis|arthritis|osteoarthritis|epicondylitis|injury|ligament|meniscus|mcl|acl|lcl|pcl|rotator cuff|impingement|capsulitis|fasciitis|synovitis|effusion|laceration|sprained|trigger finger|tunnel syndrome)\b/i;

/**
 * A limb's condition named without a side ("you have an MCL strain") takes the side of the
 * patient's complaints, when every sided complaint the patient reports is on one side.
 */
function sideFromComplaint(problems: Problem[], symptoms: readonly Symptom[]): void {
  const sides = new Set(symptoms.filter((s) => s.presence === 'reported' && s.subject === 'patient' && s.laterality).map((s) => s.laterality));
  if (sides.size !== 1) return;
  const side = [...sides][0]!;
  for (const p of problems) if (!p.laterality && SIDED_CONDITION.test(p.name)) p.laterality = side;
}

/** "Back pain" is low back pain when the visit names only the low back ("lumbar spine x-ray", "my lower back"). */
function lowBackFromEncounter(items: { name?: string; term?: string }[], said: readonly Said[]): void {
  const text = said.map((s) => s.text).join('\n');
  if (!/\b(?:lower back|low back|lumbar)\b/i.test(text) || /\b(?:upper back|mid(?:dle)?[- ]back|thoracic)\b/i.test(text)) return;
  for (const item of items) {
    if (item.name === 'back pain') item.name = 'low back pain';
    if (item.term === 'back pain') item.term = 'low back pain';
  }
}

/** Narrative statements, the final unplaced list (one entry per sentence) and the reason for the visit, added to the facts. */
function finish(facts: EncounterFacts, said: Said[], used: Set<number>, unplaced: Unplaced[], symptoms: ReturnType<typeof readSymptoms>): void {
  const statements = [
    ...readStatements(said.filter((s) => !used.has(s.i)), facts.patient),
    ...symptoms.timing.map((t) => ({ text: `Onset ${t.text}.`, section: 'hpi' as const, weight: 3, evidence: t.evidence })),
    ...adherence(said, used),
  ];
  // One entry per sentence: the same sentence unplaced twice is listed once; a sentence written as a statement is placed.
  const seenUnplaced = new Set<number>(statements.flatMap((st) => st.evidence.map((e) => e.start)));
  facts.unplaced = unplaced.filter((u) => !used.has(said.find((s) => s.start === u.evidence[0]?.start)?.i ?? -1) && !seenUnplaced.has(u.evidence[0]?.start ?? -1) && seenUnplaced.add(u.evidence[0]?.start ?? -1));
  if (statements.length) facts.statements = statements;
  const reason = reasonForVisit(said);
  if (reason && !reason.term) {
    const named = symptoms.symptoms.filter((s) => s.presence === 'reported' && s.subject === 'patient' && s.evidence.some((e) => e.start === reason.said.start));
    if (named.length) reason.term = named.slice(0, 2).map((s) => `${s.laterality ? `${s.laterality} ` : ''}${s.term}`).join(' and ');
  }
  if (reason?.term) facts.reasonForVisit = { term: sideAsSaid(reason.term, reason.said, said, facts.unplaced), evidence: evidenceOf(reason.said) };
}

// Each body site as a word of its own, singular or plural ("knee", "knees"), compiled once.
const SITE_WORDS = new Map<string, RegExp>(BODY_SITES.map((b) => [b, new RegExp(String.raw`\b${b}s?\b`, 'i')]));
const namesSite = (text: string, site: string): boolean => SITE_WORDS.get(site)!.test(text);

/**
 * "You probably have a contusion" on a visit for right leg pain is a right leg contusion: an injury
 * named without a site takes the one body site the visit's reason names (and its side, if it has none).
 */
function siteFromReason(facts: EncounterFacts): void {
  const reason = facts.reasonForVisit?.term;
  if (!reason) return;
  const sites = BODY_SITES.filter((b) => namesSite(reason, b) && !BODY_SITES.some((o) => o !== b && o.includes(b) && namesSite(reason, o)));
  if (sites.length !== 1) return;
  const side = /\b(left|right)\b/i.exec(reason)?.[1]?.toLowerCase() as 'left' | 'right' | undefined;
  for (const p of facts.problems) {
    if (!/^(?:(?:mild|moderate|severe|acute)\s+)?(?:contusion|sprain|strain|fracture|laceration|abrasion|bruise|hematoma|tendinitis|tendonitis|bursitis)$/i.test(p.name)) continue;
    if (p.laterality && side && p.laterality !== side) continue;
    p.name = p.name.replace(/(contusion|sprain|strain|fracture|laceration|abrasion|bruise|hematoma|tendinitis|tendonitis|bursitis)$/i, `${sites[0]} $1`);
    if (!p.laterality && side) p.laterality = side;
  }
}

/**
 * "She's here for left leg pain" when the patient says "my right leg" and the exam finds the right
 * upper leg tender: a side said once against two or more saying the other is the slip. The note
 * follows the side said most, and the sentence goes to the physician's review list either way.
 */
function sideAsSaid(term: string, reasonSaid: Said, said: readonly Said[], unplaced: Unplaced[]): string {
  const m = /\b(left|right)\s+(?:[a-z]+\s+){0,2}?([a-z]+)\b/i.exec(term);
  const site = m ? BODY_SITES.find((b) => namesSite(term.slice(m.index), b)) : undefined;
  if (!m || !site) return term;
  const count = { left: 0, right: 0 };
  const near = new RegExp(String.raw`\b(left|right)\s+(?:[a-z]+\s+){0,2}?${site}s?\b`, 'gi');
  for (const s of said) {
    if (s.i === reasonSaid.i || s.question || s.talk) continue;
    for (const hit of s.text.matchAll(near)) count[hit[1]!.toLowerCase() as 'left' | 'right']++;
  }
  const side = m[1]!.toLowerCase() as 'left' | 'right';
  const other = side === 'left' ? 'right' : 'left';
  if (count[other] < 2 || count[side] > 0) return term;
  unplaced.push({ text: reasonSaid.text, section: 'hpi', reason: `side said both ways: ${side} here, ${other} ${count[other]} times elsewhere; the note follows ${other}`, evidence: evidenceOf(reasonSaid) });
  return term.replace(new RegExp(String.raw`\b${side}\b`, 'i'), other);
}

/**
 * A drug the plan starts today, which only the clinician has spoken of ("the thing about Alvesco is
 * that it would be two puffs twice a day"), is a new prescription, not one the patient takes: it is
 * written in the plan and kept off the current list.
 */
function newNotCurrent(medications: Medication[], items: readonly PlanItem[], takenAt: ReadonlySet<number>): void {
  const started = new Set(items.filter((i) => i.kind === 'medication' && i.action === 'start' && !i.condition).map((i) => i.medication?.generic ?? i.medication?.name.toLowerCase()));
  // "We've had you on Prozac 20 mg a day": said as taken (`takenAt`), it stays current whatever the plan does with it.
  for (const m of medications) {
    if (m.status !== 'current' || !started.has(m.generic ?? m.name.toLowerCase()) || m.from || m.evidence.some((e) => e.speaker !== 'clinician' || takenAt.has(e.start))) continue;
    m.status = 'mentioned';
  }
}
/**
 * A drug the patient already takes, "started" in the plan without a new dose ("I'll renew your albuterol, use it
 * if you need it"), is continued: "Start" would record a new drug. One started at a dose (another, or one the
 * patient never gave) stays an order.
 */
function alreadyTaken(medications: readonly Medication[], items: readonly PlanItem[], takenAt: ReadonlySet<number>): void {
  for (const item of items) {
    if (item.kind !== 'medication' || (item.action !== 'start' && item.action !== 'continue') || item.condition || !item.medication) continue;
    const on = medications.find((m) => m.status === 'current' && (m.generic ?? m.name.toLowerCase()) === (item.medication!.generic ?? item.medication!.name.toLowerCase()));
    if (!on || !on.evidence.some((e) => e.speaker === 'patient' || takenAt.has(e.start))) continue;
    // "You take metformin 500 mg twice a day" then "take the metformin 1000 mg in the morning": a new dose of a drug
    // taken on a schedule is a change of dose, up or down by the day's total where both schedules are known. One
    // taken now and then ("ibuprofen 200 mg sometimes") prescribed at a dose is a new prescription.
    // Only an order read as a start: "continue metformin 1000 mg" said of "500 mg, two tablets" continues what is taken.
    // A "continue" whose day differs from the day taken, both schedules known ("500 mg twice a day" continued as "1000 mg in
    // the morning and 500 mg in the evening"), is a change of dose by the day's total: "continue" would hide the increase.
    const scheduled = on.frequency !== undefined && !/as needed/.test(on.frequency);
    const bothDays = scheduled && item.medication.frequency !== undefined && !/as needed/.test(item.medication.frequency) && readFrequencies(on.frequency!)[0]?.perDay !== undefined;
    const continuedAtOther = item.action === 'continue' && bothDays && item.medication.dose && on.dose ? doseChange(on, item.medication) : undefined;
    const changed = item.action === 'start' && item.medication.dose && on.dose && scheduled ? doseChange(on, item.medication) : continuedAtOther === 'change' ? undefined : continuedAtOther;
    if (changed) {
      item.action = changed;
      continue;
    }
    // "Just taking some ibuprofen" then "I'll prescribe ibuprofen 800 mg twice a day": a dose the patient never gave is a new prescription.
    if (item.medication.dose && item.medication.dose !== on.dose) continue;
    item.action = 'continue';
  }
}

/**
 * The injections and aspirations done in the visit go to the problem of the part they were done on ("knee effusion" for
 * the knee), else the first problem, else the visit's plan; the bare "Injection, as discussed" the plan's reading made of
 * the same procedure gives way to them.
 */
function placeProcedures(done: { items: PlanItem[]; used: Set<number> }, problems: Problem[], general: PlanItem[], used: Set<number>): void {
  for (const i of done.used) used.add(i);
  for (const item of done.items) {
    // Only the same kind of procedure ("injection", "aspiration"): an epidural steroid injection planned for the back stays.
    for (const list of [general, ...problems.map((p) => p.plan)]) {
      for (let k = list.length - 1; k >= 0; k--) if (list[k]!.kind === 'procedure' && !list[k]!.text && /^(?:(?:steroid|cortisone|trigger (?:point|finger))\s+)?injection$|^aspiration$/.test(list[k]!.target ?? '')) list.splice(k, 1);
    }
    const part = BODY_SITES.find((b) => namesSite(item.text ?? '', b));
    // Else the problem under discussion when it was done: the last one named before it.
    const at = item.evidence[0]?.start ?? 0;
    const current = [...problems].filter((p) => p.evidence.some((e) => e.start <= at)).sort((a, b) => Math.max(...b.evidence.filter((e) => e.start <= at).map((e) => e.start)) - Math.max(...a.evidence.filter((e) => e.start <= at).map((e) => e.start)))[0];
    const home = (part ? problems.find((p) => namesSite(p.name, part)) : undefined) ?? current ?? problems[0];
    (home ? home.plan : general).push(item);
  }
}

/** How an ordered dose changes the one taken: by the day's total when both schedules are known, else by the dose. */
function doseChange(taken: { dose?: string; frequency?: string }, ordered: { dose?: string; frequency?: string }): 'increase' | 'decrease' | 'change' | undefined {
  // "500 mg, 2 tablets" is 1000 mg at a time.
  const amount = (d: string | undefined): { n: number; unit: string } | undefined => {
    const m = /^(\d+(?:\.\d+)?)\s*([a-z]+)(?:, (\d) (?:tablet|pill|capsule)s)?/i.exec(d ?? '');
    return m ? { n: Number(m[1]) * Number(m[3] ?? 1), unit: m[2]!.toLowerCase() } : undefined;
  };
  const a = amount(taken.dose);
  const b = amount(ordered.dose);
  if (!a || !b || a.unit !== b.unit || taken.dose === ordered.dose) return undefined;
  const perDay = (f: string | undefined): number | undefined => (f ? readFrequencies(f)[0]?.perDay : undefined);
  // "1000 mg in the morning and 500 mg at bedtime": a split schedule's day is the sum of its doses.
  const second = new RegExp(String.raw`\band (\d+(?:\.\d+)?)\s*${b.unit}\b`, 'i').exec(ordered.frequency ?? '');
  const [pa, pb] = [perDay(taken.frequency), second ? 1 : perDay(ordered.frequency)];
  const [da, db] = pa !== undefined && pb !== undefined ? [a.n * pa, b.n * pb + (second ? Number(second[1]) : 0)] : [a.n, b.n];
  return db > da ? 'increase' : db < da ? 'decrease' : 'change';
}
const TAKEN = /\b(?:had you on|have you on|got you on|you(?:'re| are) (?:on|taking|still taking|using)|you(?:'ve| have) been (?:on|taking|using)|you take|you use)\b/i;

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
  const walk = walkPlan(said, drugMatcher(listed), history.history, patient, used, unplaced);
  walk.problems = tidyProblems(walk.problems, walk.general);
  const { problems, general } = walk;
  placeProcedures(readProcedures(said), problems, general, used);
  for (const p of problems) p.plan = dedupePlan(p.plan);
  unconfirmedByTests(problems, said);
  sideFromComplaint(problems, symptoms.symptoms);
  lowBackFromEncounter([...problems, ...symptoms.symptoms], said);
  const follow = general.filter((i) => i.kind === 'follow-up');
  const plan = dedupePlan([...general.filter((i) => i.kind !== 'follow-up' && !problems.some((p) => p.plan.some((q) => q.kind === i.kind && q.target === i.target && q.medication?.generic === i.medication?.generic))), ...follow.slice(-1)]);
  unplaced.push(...historyUnplaced(said, used));
  // Where a drug is said as taken ("we've had you on", "you're taking"): both readings of the plan against the list use it.
  const takenAt = new Set(said.filter((s) => TAKEN.test(s.text)).map((s) => s.start));
  const ordered = [...problems.flatMap((p) => p.plan), ...plan];
  newNotCurrent(medications.medications, ordered, takenAt);
  alreadyTaken(medications.medications, ordered, takenAt);
  const facts: EncounterFacts = {
    sourceLanguage, patient, symptoms: withdrawContradicted(symptoms.symptoms, problems, history.history), history: history.history, medications: medications.medications, allergies: allergies.allergies,
    vitals: vitals.vitals, exam: exam.exam, results: results.results, problems, plan, unplaced, utterances,
  };
  finish(facts, said, used, unplaced, symptoms);
  // "Here for our yearly follow-up for asthma" and no diagnosis said: the condition the visit is for is its problem.
  const reasonCondition = facts.reasonForVisit && !problems.some((p) => p.certainty !== 'ruled-out') ? conditionOfReason(facts.reasonForVisit.term) : undefined;
  if (reasonCondition) {
    problems.push({ name: reasonCondition.name, status: reasonCondition.followUp ? 'chronic' : 'unknown', certainty: 'confirmed', reasoning: [], plan: [], evidence: facts.reasonForVisit!.evidence });
  }
  siteFromReason(facts);
  if (walk.agreement) facts.agreement = walk.agreement;
  return facts;
}
