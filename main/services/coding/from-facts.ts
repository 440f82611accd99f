/**
 * Coding straight from the conversation: the encounter understanding (EncounterFacts) decides
 * what the patient has (the problems the clinician confirms, current, the patient's own, with
 * their side); the coder only names them in the table. The problems are written out as a short
 * assessment ("1. right knee pain." followed by the problem's reasoning), coded as any assessment
 * is, and every code's evidence is the problem's own spans in the transcript.
 */
import type { EncounterFacts, Problem, Symptom } from '../encounter/types.js';

export interface FactsAssessment {
  /** The assessment written from the facts: one heading per codable problem, its reasoning under it. */
  text: string;
  /** Where each problem's lines sit in `text`, and the problem they come from. */
  lines: { start: number; end: number; problem: Problem }[];
  /** Problems left uncoded and why (probable, ruled out, resolved). */
  setAside: { problem: Problem; why: 'uncertain' | 'negated' | 'past' }[];
}

/**
 * The problems a coder codes: confirmed, not resolved; a probable diagnosis is never coded (the
 * symptom it would explain is). When the facts name no problem, the reason for the visit stands for it.
 */
export function assessmentFromFacts(facts: EncounterFacts, transcript = ''): FactsAssessment {
  // With no problem read from the plan, the reason for the visit is the problem the visit addresses.
  const rfv = facts.reasonForVisit;
  const visit = rfv?.term && rfv.evidence.length ? [{ name: rfv.term, status: 'unknown' as const, certainty: 'confirmed' as const, reasoning: [], plan: [], evidence: rfv.evidence }] : [];
  // A routine examination names the visit itself and is listed first, beside the problems it addressed.
  // A routine examination that found something the clinician acted on is one "with abnormal findings" (Z00.01).
  // A known condition managed at the visit is not a finding of the examination; an abnormal exam or result is.
  const found = facts.results.some((r) => r.interpretation !== undefined && ['high', 'low', 'abnormal', 'positive', 'worse'].includes(r.interpretation)) || facts.exam.some((e) => e.presence === 'reported' && !/\b(?:normal|clear|regular|intact|soft|nontender|full range|unremarkable)\b/i.test(e.finding));
  const routine = visit.map((v) => (found ? { ...v, name: `${v.name} with abnormal findings` } : v));
  const problems = !facts.problems.length ? visit : ROUTINE_EXAM.test(rfv?.term ?? '') ? [...routine, ...facts.problems] : facts.problems;
  return writeAssessment(withSymptomsOfDoubted(facts, problems.map((p) => confirmedByHistory(p, facts))).map((p) => withDiabetesTherapy(withGlucoseState(withDiabetesType(p, facts), facts, transcript), facts)));
}

const MODIFIERS = /\b(?:acute|chronic|congestive|acute on chronic|exacerbation|flare(?:-up)?|of|the|an?|worsening|mild|moderate|severe)\b/gi;
const core = (name: string): string => name.toLowerCase().replace(MODIFIERS, ' ').replace(/\s+/g, ' ').trim();
/**
 * "I think you are in a heart failure exacerbation" in a patient whose history has congestive heart
 * failure: the condition is established, only its course is judged, so it is coded.
 */
function confirmedByHistory(p: Problem, facts: EncounterFacts): Problem {
  if (p.certainty !== 'probable') return p;
  const name = core(p.name);
  const known = name.length > 3 && facts.history.some((h) => h.kind === 'medical' && h.presence !== 'denied' && core(h.term) === name);
  return known ? { ...p, certainty: 'confirmed', status: 'chronic' } : p;
}

const TYPED_DIABETES = /\btype [12] diabetes mellitus\b/i;
/**
 * Hyperglycemia in a patient whose diabetes the visit names is the diabetes "with hyperglycemia"
 * (R73's Excludes1 sends diabetes to E08-E13): the problem takes the type the history or another
 * problem gives.
 */
function withDiabetesType(p: Problem, facts: EncounterFacts): Problem {
  if (p.certainty !== 'confirmed' || !/^(?:hyperglycemia|high blood sugars?|elevated blood sugars?)$/i.test(p.name)) return p;
  const known = [...facts.problems.map((q) => q.name), ...facts.history.filter((h) => h.kind === 'medical' && h.presence !== 'denied').map((h) => h.term)].find((n) => TYPED_DIABETES.test(n));
  return known ? { ...p, name: `${TYPED_DIABETES.exec(known)![0]} with hyperglycemia` } : p;
}

/**
 * The drugs a diabetes problem is treated with, as the problem's line says them ("On insulin."), so
 * the table's "use additional code" for long-term insulin or oral hypoglycemics is followed.
 */
function withDiabetesTherapy(p: Problem, facts: EncounterFacts): Problem {
  if (p.certainty !== 'confirmed' || !/\bdiabet/i.test(p.name)) return p;
  const planned = p.plan.filter((i) => i.kind === 'medication' && i.action !== 'stop' && i.medication).map((i) => i.medication!.generic ?? i.medication!.name);
  const taken = facts.medications.filter((m) => m.status === 'current').map((m) => m.generic ?? m.name);
  const drugs = [...new Set([...planned, ...taken].map((d) => d.toLowerCase()))].filter((d) => ANTIDIABETIC.test(d));
  return drugs.length ? { ...p, reasoning: [...p.reasoning, `On ${drugs.join(', ')}.`] } : p;
}
const ANTIDIABETIC = /\b(?:insulin|lantus|glargine|humalog|lispro|novolog|aspart|levemir|detemir|tresiba|degludec|metformin|glipizide|glyburide|glimepiride|pioglitazone|sitagliptin|januvia|linagliptin|empagliflozin|jardiance|dapagliflozin|farxiga|canagliflozin|semaglutide|ozempic|rybelsus|dulaglutide|trulicity|liraglutide|victoza)\b/i;

const ROUTINE_EXAM = /\b(?:annual|yearly|routine|wellness|preventive|physical exam(?:ination)?|physical|check-?up)\b/i;
const DIABETES = /\b(?:diabetes|diabetic|hyperglycemia|dm)\b/i;
const SUGAR_STATE = /\b(?:a1c|glucose|blood sugars?|sugars?|diabetes)\b[^.?!]{0,60}?\b(out of control|uncontrolled|not (?:well |under )?controlled|poorly controlled|elevated|too high|running high|high|above (?:goal|target))\b/i;

/**
 * Diabetes "with hyperglycemia" is the coder's to decide from a line it reads: the clinician's own
 * words on the problem's sentences ("your blood sugar is a little bit out of control"), else an A1c
 * or glucose the facts read as high. Negated states ("not high", "no longer elevated") add nothing.
 */
function withGlucoseState(p: Problem, facts: EncounterFacts, transcript: string): Problem {
  if (p.certainty !== 'confirmed' || !DIABETES.test(p.name)) return p;
  const said = [...p.evidence.map((e) => transcript.slice(e.start, e.end)), ...p.reasoning];
  const stated = said.some((t) => {
    const m = SUGAR_STATE.exec(t);
    return !!m && !/\b(?:not|n't|no longer|never)\b[^.?!]{0,25}$/i.test(t.slice(0, m.index + m[0].length - m[1]!.length));
  });
  const high = facts.results.find((r) => r.interpretation === 'high' && /\b(?:a1c|glucose|blood sugar)\b/i.test(r.test));
  if (!stated && !high) return p;
  return { ...p, reasoning: [...p.reasoning, stated ? 'Blood sugar uncontrolled.' : `${high!.test} elevated.`] };
}

const symptomProblem = (s: Symptom): Problem =>
  ({ name: s.term, status: 'unknown', certainty: 'confirmed', ...(s.laterality ? { laterality: s.laterality } : {}), reasoning: [], plan: [], evidence: s.evidence });

/**
 * Outpatient rule: a diagnosis the clinician only suspects is not coded, the symptom is: after each
 * probable problem, the patient's reported symptoms at its site ("ankle sprain" -> ankle pain).
 */
function withSymptomsOfDoubted(facts: EncounterFacts, problems: readonly Problem[]): Problem[] {
  const reported = facts.symptoms.filter((s) => s.presence === 'reported' && s.subject === 'patient' && s.evidence.length > 0);
  const out: Problem[] = [];
  for (const p of problems) {
    out.push(p);
    if (p.certainty !== 'probable') continue;
    const words = new Set(p.name.toLowerCase().split(/\W+/));
    for (const s of reported) {
      const atSite = s.location ? words.has(s.location) : s.term.split(/\s+/).some((w) => w !== 'pain' && words.has(w));
      if (atSite && !out.some((q) => q.name === s.term) && !problems.some((q) => q.name === s.term)) out.push(symptomProblem(s));
    }
  }
  return out;
}

/**
 * Outpatient rule, the last resort when neither the facts nor the clinician's plan name anything
 * codable: no diagnosis is established, so the symptom that brought the patient is coded. The
 * chief complaint is the first symptom the patient reports of themself, with its side.
 */
export function complaintAssessment(facts: EncounterFacts): FactsAssessment {
  const chief = facts.symptoms
    .filter((s) => s.presence === 'reported' && s.subject === 'patient' && s.evidence.length > 0)
    .sort((a, b) => a.evidence[0]!.start - b.evidence[0]!.start)[0];
  return writeAssessment(chief ? [symptomProblem(chief)] : []);
}

function writeAssessment(problems: readonly Problem[]): FactsAssessment {
  let text = 'ASSESSMENT AND PLAN\n';
  const lines: FactsAssessment['lines'] = [];
  const setAside: FactsAssessment['setAside'] = [];
  let n = 0;
  for (const p of problems) {
    if (p.certainty === 'probable') setAside.push({ problem: p, why: 'uncertain' });
    else if (p.certainty === 'ruled-out') setAside.push({ problem: p, why: 'negated' });
    else if (p.status === 'resolved') setAside.push({ problem: p, why: 'past' });
    if (p.certainty !== 'confirmed' || p.status === 'resolved' || !p.evidence.length) continue;
    const start = text.length;
    const name = p.laterality && !new RegExp(`\\b${p.laterality}\\b`, 'i').test(p.name) ? `${p.laterality} ${p.name}` : p.name;
    text += `${++n}. ${name}.\n`;
    for (const r of p.reasoning) text += `- ${r.replace(/\n/g, ' ')}\n`;
    lines.push({ start, end: text.length, problem: p });
  }
  return { text, lines, setAside };
}

/** The problem whose lines hold a span of the written assessment. */
export function problemAt(a: FactsAssessment, at: number): Problem | undefined {
  return a.lines.find((l) => at >= l.start && at < l.end)?.problem;
}

