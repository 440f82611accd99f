/**
 * Note content composed from EncounterFacts: every line is written from facts with phrase
 * templates ("Reports productive cough for 1 week. Denies fever and shortness of breath.",
 * "Right knee: ecchymosis medially, no effusion.", per problem its reasoning and plan items), not
 * copied from the transcript. A sentence of the clinician's own dictation stands only when it
 * passed the encounter's clinical-register gate. Vital signs measured elsewhere are history,
 * never today's vitals. What the facts could not place is returned as `unplaced` for review.
 */
import type { EncounterFacts, ExamFinding, PlanItem, Problem, Symptom } from '../../../services/encounter/types.js';
import { CONDITIONS, findingPhrases, systemOfName, type BodySystem } from '../../../services/clinical-language/lexicon.js';
import { createPhraseMatcher } from '../../../services/clinical-language/phrase-match.js';
import { emptyContent, type ContentItem, type LineAct, type NoteContent } from './compose.js';
import type { Fact, OrderFact } from './facts.js';
import type { RosFact } from './findings.js';

const cap = (s: string): string => (s ? s.charAt(0).toUpperCase() + s.slice(1) : s);
const stop = (s: string): string => (/[.!?]$/.test(s) ? s : `${s}.`);

/** "a, b and c" ("a, b or c" after a denial). */
export function listOf(items: string[], joiner = 'and'): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} ${joiner} ${items[items.length - 1]}`;
}

function symptomPhrase(s: Symptom): string {
  const site = s.laterality && !s.term.includes(s.laterality) ? `${s.laterality === 'bilateral' ? 'bilateral' : s.laterality} ` : '';
  let p = `${site}${s.term}`;
  const COURSE = /^(?:worse|better|worsens|improves|aggravated|relieved|helped|improved|on exertion|with )/;
  const quality = s.modifiers.filter((m) => !COURSE.test(m));
  if (quality.length) p = `${quality.slice(0, 2).join(', ')} ${p}`;
  if (s.severity) p = /\//.test(s.severity) ? `${p} rated ${s.severity}` : `${s.severity} ${p}`;
  if (s.duration) p += ` for ${s.duration}`;
  else if (s.onset) p += ` since ${s.onset.replace(/^since /, '')}`;
  const course = s.modifiers.filter((m) => COURSE.test(m));
  if (course.length) p += ` ${course.slice(0, 2).join(', ')}`;
  return p;
}

const pronoun = (f: EncounterFacts): { subj: string } => ({ subj: f.patient.sex === 'female' ? 'She' : f.patient.sex === 'male' ? 'He' : 'The patient' });

function intro(f: EncounterFacts, name?: string): string | undefined {
  const who = name ?? 'The patient';
  const age = f.patient.age ? `${f.patient.age}-year-old ${f.patient.sex ?? 'patient'}` : undefined;
  const medical = f.history.filter((h) => h.kind === 'medical' && h.presence === 'reported').map((h) => h.term);
  const pmh = medical.length ? ` with a past medical history significant for ${listOf(medical.slice(0, 5))}` : '';
  const reason = f.reasonForVisit?.term;
  if (!age && !reason && !pmh) return undefined;
  const presents = reason ? `presents for ${reason.replace(/^(?:his|her|their|the) /, '')}` : '';
  if (!age) return stop(pmh ? `${who} has a past medical history significant for ${listOf(medical.slice(0, 5))}${presents ? ` and ${presents}` : ''}` : `${who} ${presents}`);
  return stop(`${who} is a ${age}${pmh}${presents ? ` who ${presents}` : ''}`);
}

const ACT: Record<PlanItem['kind'], LineAct> = {
  medication: 'medication', test: 'testing', imaging: 'testing', referral: 'referral', procedure: 'order', education: 'advice', 'follow-up': 'followup', other: 'order',
};

/** A plan item as an order line, with the fact another language renders. */
export function planLine(item: PlanItem): { text: string; fact?: OrderFact } | undefined {
  const line = orderLine(item);
  if (!line || !item.condition) return line;
  // An order that waits on something is not ordered today: "Consider epidural steroid injection if it does not improve."
  const what = line.text.replace(/[.]$/, '').replace(/, as discussed$/, '').replace(/^(?:Order|Start) /, '').replace(/^Refer to /, 'referral to ');
  const verb = item.kind === 'medication' && !/^(?:Increase|Decrease|Stop|Switch|Continue|Refill)/.test(what) ? 'Consider starting' : 'Consider';
  const lower = /^[A-Z][a-z]/.test(what) && item.kind !== 'medication' ? `${what.charAt(0).toLowerCase()}${what.slice(1)}` : what;
  return { text: stop(`${verb} ${lower} ${item.condition}`) };
}

function orderLine(item: PlanItem): { text: string; fact?: OrderFact } | undefined {
  switch (item.kind) {
    case 'medication': {
      const m = item.medication!;
      const med = [m.name, m.dose, m.frequency].filter(Boolean).join(' ');
      const action = item.action ?? 'continue';
      const text =
        action === 'increase' || action === 'decrease' ? (m.dose ? `${cap(action)} ${m.name} to ${[m.dose, m.frequency].filter(Boolean).join(' ')}` : `${cap(action)} ${m.name}`)
          : action === 'stop' ? `Stop ${m.name}` : action === 'change' ? `Switch ${m.replaces ? `from ${m.replaces} ` : ''}to ${med}` : `${cap(action)} ${med}`;
      const drugAction = action === 'change' ? 'start' : action;
      return { text: stop(`${text}${m.duration ? ` for ${m.duration}` : ''}`), fact: { type: 'drug', action: drugAction, drug: m.name, ...(m.dose ? { dose: m.dose } : {}), ...(m.frequency ? { frequency: m.frequency } : {}), complete: !m.duration } };
    }
    case 'test':
    case 'imaging': {
      const side = item.laterality ? `${item.laterality} ` : '';
      const test = item.target!;
      const written = /^(?:mri|ct scan|ekg|cbc)$/.test(test) ? test.toUpperCase().replace('CT SCAN', 'CT scan') : test;
      return { text: stop(`Order ${side ? `${written} of the ${side.trim()} side` : written}`.replace(/ of the (left|right) side$/, ' ($1)')), ...(side ? {} : { fact: { type: 'test', test, complete: true } }) };
    }
    case 'referral':
      return { text: stop(`Refer to ${item.target}`), fact: { type: 'referral', to: item.target!, complete: true } };
    case 'procedure':
      // A procedure done in the visit is written as done, with what was injected and where.
      if (item.text) return { text: stop(item.text) };
      return { text: stop(`${cap(item.target!)}${item.laterality ? `, ${item.laterality}` : ''}, as discussed`) };
    case 'education':
      return item.text ? { text: stop(item.text) } : undefined;
    case 'follow-up': {
      if (item.when === 'as needed') return { text: 'Follow up as needed.', fact: { type: 'followup', prn: true, complete: true } };
      const m = /^in (\d+(?:-\d+)?|a few) (day|week|month|year)s?$/.exec(item.when ?? '');
      const fact: OrderFact | undefined = m && /^\d/.test(m[1]!) ? { type: 'followup', n: m[1]!, unit: m[2] as 'day', complete: true } : undefined;
      return { text: stop(`Follow up ${item.when ?? ''}`.trim()), ...(fact ? { fact } : {}) };
    }
    default:
      return item.text ? { text: stop(item.text) } : undefined;
  }
}

function problemTitle(p: Problem): string {
  const side = p.laterality && !p.name.includes(p.laterality) ? `${p.laterality} ` : '';
  const name = `${side}${p.name}`;
  return cap(p.certainty === 'probable' ? `possible ${name}` : p.status === 'resolved' ? `${name}, resolved` : name);
}

/** Exam findings grouped by system, region and side: "Right knee: ecchymosis medially, no effusion." */
function examLines(exam: ExamFinding[]): { label: string; text: string; system: string }[] {
  const groups = new Map<string, { label: string; system: string; findings: string[] }>();
  for (const e of exam) {
    const regional = e.region && (e.system === 'Musculoskeletal' || e.system === 'Skin') ? `${e.laterality ? `${e.laterality} ` : ''}${e.region}` : undefined;
    const label = regional ? cap(regional) : e.system;
    const key = `${label}`;
    const g = groups.get(key) ?? { label, system: e.system, findings: [] };
    let finding = e.finding;
    // "Tenderness of the right knee" under "Right knee" reads "Tenderness"; "straight leg raise" and
    // "lumbar spine" keep their words (the region inside a term is no location).
    if (regional) {
      const region = (e.region ?? '').replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      finding = finding.replace(new RegExp(String.raw`^(?:(?:the\s+)?(?:(?:left|right)\s+)?${region}s?\s+)(?=\w)|\s*\b(?:on|of|in|to|over|at)\s+(?:the\s+)?(?:(?:left|right)\s+)?${region}s?(?=\s*(?:$|,|;|\b(?:bilaterally|medially|laterally|anteriorly|posteriorly)\b))`, 'i'), '').trim();
    }
    else if (e.laterality && !/\b(?:left|right|bilateral|both)/i.test(finding)) finding = `${finding}, ${e.laterality}`;
    if (finding && !g.findings.includes(finding)) g.findings.push(finding);
    groups.set(key, g);
  }
  return [...groups.values()].filter((g) => g.findings.length).map((g) => ({ label: g.label, system: g.system, text: stop(cap(g.findings.join(', '))) }));
}

const GENERIC_WORDS = new Set(['pain', 'acute', 'chronic', 'mild', 'moderate', 'severe', 'left', 'right', 'bilateral', 'with', 'without', 'disease', 'disorder', 'syndrome']);
const stems = (text: string): string[] => text.toLowerCase().split(/[^a-z]+/).filter((w) => w.length >= 4 && !GENERIC_WORDS.has(w)).map((w) => w.replace(/s$/, ''));
const conditions = createPhraseMatcher(findingPhrases(CONDITIONS));
// Symptoms a patient mentions beside the reason for a visit (mood, sleep, energy, a vague stomach or nerve complaint); a
// cardinal symptom (pain, cough, fever, shortness of breath, dizziness) is the complaint even when a diagnosis follows.
const ASIDE = /^(?:anxiety|depress\w*|stress|fatigue|tired\w*|insomnia|trouble sleeping|weight gain|weight loss|chills|nausea|diarrhea|constipation|tingling|numbness|night sweats|low mood|irritability)$/i;

/**
 * The chief complaint: the reason for the visit as said; failing that, the first symptom the patient reports, unless it is
 * an aside to the visit's first problem: a symptom of mood, sleep, energy or a vague stomach or nerve complaint, sharing no
 * word with a first problem that is a confirmed condition the lexicon knows ("some anxiety" at a hepatitis C visit is no
 * visit for anxiety). A cardinal symptom is the complaint clinicians write ("right knee pain" for an MCL strain).
 */
function chiefComplaintOf(f: EncounterFacts, own: Symptom[]): string | undefined {
  if (f.reasonForVisit?.term) return f.reasonForVisit.term;
  const symptom = own.find((s) => s.presence === 'reported');
  const first = f.problems[0];
  if (!symptom) return first && problemTitle(first);
  const asSaid = symptomPhrase({ ...symptom, modifiers: [], duration: undefined as never, onset: undefined as never, severity: undefined as never });
  const known = first && first.certainty === 'confirmed' && first.status !== 'resolved' && conditions.find(first.name).length > 0;
  if (!known || !ASIDE.test(symptom.term) || stems(symptom.term).some((w) => stems(first.name).includes(w))) return asSaid;
  return problemTitle(first);
}

/** Build the note content from the encounter's facts. */
export function contentFromFacts(f: EncounterFacts, name?: string, language = 'en'): { content: NoteContent; problems: string[] } {
  // Narrative lines (the patient's account, the visit summary) exist only in English; a note in
  // another language keeps what its phrase table writes from facts rather than English prose.
  const narrative = language === 'en' || f.sourceLanguage !== 'en';
  const content = emptyContent();
  let index = 0;
  const push = (kind: keyof NoteContent, text: string, extra: Partial<ContentItem> = {}, weight = 5): void => {
    if (!text && !extra.fact) return;
    content[kind].push({ text, weight, index: index++, ...extra });
  };
  const { subj } = pronoun(f);
  const own = f.symptoms.filter((s) => s.subject === 'patient');
  const cc = chiefComplaintOf(f, own);
  if (cc) push('chief_complaint', stop(cap(cc)), {}, 100);

  const opening = intro(f, name);
  if (opening && narrative) push('hpi', opening, {}, 50);
  const reported = own.filter((s) => s.presence === 'reported');
  const detailed = reported.filter((s) => s.duration || s.onset || s.severity || s.modifiers.length || s.laterality);
  const plain = reported.filter((s) => !detailed.includes(s));
  for (const s of detailed) push('hpi', stop(`${subj} reports ${symptomPhrase(s)}`), { fact: rosFact(s.system, [s.term], []) }, 8);
  if (plain.length) push('hpi', stop(`${subj} reports ${listOf(plain.map(symptomPhrase))}`), { fact: rosFact(undefined, plain.map((s) => s.term), []) }, 7);
  const unsure = own.filter((s) => s.presence === 'uncertain');
  if (unsure.length) push('hpi', stop(`${subj} is unsure about ${listOf(unsure.map((s) => s.term))}`), {}, 4);
  const denied = own.filter((s) => s.presence === 'denied');
  if (denied.length) push('hpi', stop(`${subj} denies ${listOf(denied.map((s) => s.term))}`), { fact: rosFact(undefined, [], denied.map((s) => s.term)) }, 6);
  const deniedHistory = f.history.filter((h) => h.kind === 'medical' && h.presence === 'denied').map((h) => h.term);
  if (deniedHistory.length) push('hpi', stop(`${subj} denies a history of ${listOf(deniedHistory, 'or')}`), {}, 5);
  for (const m of f.medications) {
    if (m.adherence === 'missing doses') push('hpi', stop(`${subj} reports sometimes missing doses of ${m.name}`), {}, 6);
    else if (m.adherence === 'taking as prescribed') push('hpi', stop(`${subj} reports taking ${m.name} as prescribed`), {}, 5);
    else if (m.status === 'stopped') push('hpi', stop(`${subj} stopped taking ${m.name}`), {}, 5);
  }
  const tried = f.medications.filter((m) => m.status === 'past').map((m) => m.name);
  // English prose with no phrase-table fact: kept out of a note in another language, as the narrative is.
  if (tried.length && narrative) push('hpi', stop(`${subj} has tried ${listOf(tried)}`), {}, 5);
  for (const v of f.vitals.filter((x) => x.source !== 'today')) {
    const where = v.source === 'home' ? 'at home' : v.source === 'emergency' ? 'in the emergency department' : 'elsewhere';
    push('hpi', stop(`${VITAL_NAME[v.kind]} ${where} was reported as ${v.value}`), {}, 5);
  }
  // The patient's account in clinical register (gated statements), the most informative first within the budget.
  if (narrative) for (const st of f.statements ?? []) if (st.section === 'hpi') push('hpi', st.text, {}, 2 + st.weight);

  // Review of systems: the patient's own symptoms by body system.
  const bySystem = new Map<string, { present: string[]; absent: string[] }>();
  for (const s of own) {
    if (!s.system || s.presence === 'uncertain') continue;
    const g = bySystem.get(s.system) ?? { present: [], absent: [] };
    (s.presence === 'reported' ? g.present : g.absent).push(s.term);
    bySystem.set(s.system, g);
  }
  for (const [system, g] of bySystem) {
    const text = [g.present.length ? `Endorses ${listOf(g.present)}.` : '', g.absent.length ? `Denies ${listOf(g.absent)}.` : ''].filter(Boolean).join(' ');
    push('ros', text, { label: system, fact: rosFact(system as BodySystem, g.present, g.absent) }, 5 + g.present.length + g.absent.length);
  }

  for (const h of f.history) {
    if (h.kind === 'medical') {
      if (h.presence !== 'denied') push('pmh', stop(cap(h.term)), {}, 4);
    }
    else if (h.kind === 'surgical') push('surgical', stop(cap(`${h.term}${h.when ? `, ${h.when}` : ''}`)), {}, 4);
    else if (h.kind === 'social') push('social', stop(cap(h.term)), {}, 4);
    else push('family', stop(h.presence === 'denied' ? `No family history of ${h.term}` : (h.relative ? `${cap(h.relative)}: ${h.term}` : `Family history of ${h.term}`)), {}, 4);
  }
  for (const s of f.symptoms.filter((x) => x.subject === 'family' && x.presence === 'reported')) push('family', stop(`Family member with ${s.term}`), {}, 2);
  for (const m of f.medications.filter((x) => x.status === 'current')) {
    // A drug's name needs no translation: without a dose the fact writes the name alone.
    const fact: Fact = { type: 'medication', drug: m.name, generic: m.generic ?? m.name.toLowerCase(), dose: m.dose ?? '', ...(m.frequency ? { frequency: m.frequency } : {}) };
    push('medications', stop([m.name, m.dose, m.frequency].filter(Boolean).join(' ')), { fact }, m.dose ? 6 : 4);
  }
  for (const a of f.allergies) push('allergies', a.substance === 'none known' ? 'No known drug allergies.' : stop(cap(`${a.substance}${a.reaction ? ` (${a.reaction})` : ''}`)), {}, 5);

  const today = f.vitals.filter((v) => v.source === 'today');
  if (today.length) {
    push('vitals', stop(today.map((v) => `${VITAL_NAME[v.kind]}: ${v.value}`).join('; ')), { fact: { type: 'vitals', values: today.map((v) => ({ vital: v.kind, value: v.value })), complete: true } }, 8);
  }
  for (const e of examLines(f.exam)) push('exam', e.text, { label: e.label }, 6);
  for (const r of f.results) {
    const said = r.finding ?? (r.value ? r.value : undefined);
    const interp = r.interpretation && !(said && said.includes(r.interpretation)) ? r.interpretation : undefined;
    const text = stop(cap([said, interp && !said ? interp : interp ? `(${interp})` : ''].filter(Boolean).join(' ') || 'reviewed'));
    push('results', text, { label: cap(r.test) }, 6);
  }

  const problems: string[] = [];
  const planItem = (item: PlanItem, problem: number | undefined): void => {
    const line = planLine(item);
    if (!line) return;
    const act = ACT[item.kind];
    const kind = act === 'advice' || act === 'followup' ? 'instructions' : 'plan';
    push(kind, line.text, { act, ...(problem !== undefined ? { problem } : {}), ...(line.fact ? { fact: line.fact } : {}) }, 8);
  };
  // The visit's summary goes to a new problem when one was named; otherwise to the first the clinician took up
  // (a yearly visit's "first problem, your hypertension"), not to a later one whose status was never said.
  const primary = f.problems.find((p) => p.certainty !== 'ruled-out' && p.status === 'new') ?? f.problems.find((p) => p.certainty !== 'ruled-out');
  const active = f.problems.filter((p) => p.certainty !== 'ruled-out');
  for (const p of f.problems) {
    if (p.certainty === 'ruled-out') continue;
    const i = problems.push(problemTitle(p)) - 1;
    // The problem the visit is about is argued from the visit's own findings: what was reported, examined and measured.
    // The assessment opens with who the patient is and why they came, as clinicians write it.
    if (p === primary && opening && narrative) push('assessment', opening, { act: 'reasoning', problem: i }, 7);
    if (p === primary && narrative) for (const line of supportFor(f, subj, p.name, active.filter((o) => o !== p).map((o) => o.name))) push('assessment', line, { act: 'reasoning', problem: i }, 6);
    for (const r of p.reasoning) push('assessment', r, { act: 'reasoning', problem: i }, 6);
    for (const item of p.plan) planItem(item, i);
  }
  // No problem named: the assessment is the complaint the visit was for, argued from its findings,
  // rather than "Not discussed" above a plan.
  if (!problems.length && cc) {
    const i = problems.push(cap(cc)) - 1;
    if (opening && narrative) push('assessment', opening, { act: 'reasoning', problem: i }, 7);
    if (narrative) for (const line of supportFor(f, subj)) push('assessment', line, { act: 'reasoning', problem: i }, 6);
  }
  const ruledOut = f.problems.filter((p) => p.certainty === 'ruled-out');
  if (ruledOut.length) push('assessment', stop(`${cap(listOf(ruledOut.map((p) => p.name)))} ruled out`), { act: 'reasoning' }, 6);
  for (const item of f.plan) planItem(item, undefined);
  if (f.agreement) push('instructions', '', { fact: { type: 'agreement' }, act: 'advice' }, 3);
  return { content, problems };
}

/**
 * The visit's evidence for its main problem, from the facts: symptoms reported, abnormal findings, results. A finding
 * of a body system that another problem of the visit owns argues that one, not this ("comedones of the face" is no
 * evidence for chest pain when acne is also assessed; a murmur none for a lumbar strain beside heart failure).
 */
function supportFor(f: EncounterFacts, subj: string, problem?: string, others: readonly string[] = []): string[] {
  const out: string[] = [];
  const system = problem !== undefined ? systemOfName(problem) : undefined;
  const owned = new Set(others.map(systemOfName).filter((x): x is BodySystem => x !== undefined && x !== system));
  const ours = (s: string | undefined): boolean => s !== undefined && (s === system || (system !== undefined && RELATED_SYSTEMS[system]?.includes(s) === true));
  const elsewhere = (s: string | undefined): boolean => s !== undefined && !ours(s) && [...owned].some((o) => o === s || RELATED_SYSTEMS[o]?.includes(s) === true);
  const reported = f.symptoms.filter((s) => s.subject === 'patient' && s.presence === 'reported' && !elsewhere(s.system ?? (s.location ? systemOfName(s.location) : undefined))).slice(0, 4);
  if (reported.length) out.push(stop(`${subj} reports ${listOf(reported.map((s) => symptomPhrase({ ...s, modifiers: [] })))}`));
  const abnormal = f.exam.filter((e) => e.presence === 'reported' && !elsewhere(e.system) && !/\b(?:normal|clear|regular|intact|soft|nontender|full range)\b/i.test(e.finding)).slice(0, 4);
  if (abnormal.length) out.push(stop(`Exam shows ${listOf(abnormal.map((e) => `${shownFinding(e.finding)}${e.laterality && !/\b(?:left|right|bilateral|both)/.test(e.finding) ? ` (${e.laterality})` : ''}`))}`));
  for (const r of f.results.slice(0, 2)) {
    const said = r.finding ?? r.value ?? r.interpretation;
    // "Blood sugars were high", "hemoglobin A1c was 7.5": the verb agrees with a plural name.
    if (said) out.push(stop(`${cap(r.test)} ${r.finding ? 'showed' : /(?<![siu])s$/i.test(r.test) ? 'were' : 'was'} ${said}`));
  }
  return out;
}

/** "Face shows few comedones" after "Exam shows" reads "few comedones of the face". */
function shownFinding(finding: string): string {
  const m = /^((?:(?:left|right)\s+)?[a-z]+(?:\s+(?!(?:does|do|did|also|not|still|now|then)\b)[a-z]+)?)\s+(?:shows?|reveals?|demonstrates?|has)\s+(.+)$/i.exec(finding);
  return m ? `${m[2]} of the ${m[1]!.toLowerCase()}` : finding;
}

// Exam systems that bear on a problem of a body system beside its own (edema of the legs on a heart problem).
const RELATED_SYSTEMS: Partial<Record<BodySystem, string[]>> = {
  Cardiovascular: ['Extremities', 'Respiratory', 'Neck'], Respiratory: ['Cardiovascular'], Musculoskeletal: ['Extremities', 'Neurological'],
  HEENT: ['Neck', 'Lymphatic', 'Respiratory'], Endocrine: ['Neck', 'Extremities', 'Genitourinary', 'Neurological'], Neurological: ['Musculoskeletal', 'HEENT'],
  Gastrointestinal: ['Genitourinary'], Genitourinary: ['Gastrointestinal'],
};

const VITAL_NAME: Record<string, string> = {
  bloodPressure: 'Blood pressure', heartRate: 'Heart rate', temperature: 'Temperature', oxygenSaturation: 'Oxygen saturation', respiratoryRate: 'Respiratory rate', weight: 'Weight',
};

function rosFact(system: BodySystem | undefined, present: string[], absent: string[]): RosFact {
  return { type: 'ros', system: system ?? 'Constitutional', present, absent };
}
