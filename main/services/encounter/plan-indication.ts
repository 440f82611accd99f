/**
 * Which problem an order belongs to, by what the drug or test is for. A clinician who moves from the
 * elbow to the diabetes without saying so ("...and the metformin, let's go up to 1000 mg") still
 * orders the metformin for the diabetes: an order for one condition said under another problem is
 * filed under its own condition's problem when the visit has one, or when the condition was said
 * (not denied, not a relative's). Drugs with many uses (prednisone, ibuprofen, gabapentin) are not
 * listed and stay where they were said. Indications are general pharmacology.
 */
import { contextOf } from '../clinical-language/context.js';
import { problemTerm } from './problems.js';
import { evidenceOf, type Said } from './said.js';
import type { PlanItem, Problem } from './types.js';

interface Indication {
  /** Drug generic names and test names ordered for the condition. */
  orders: RegExp;
  /** Problem names an order of these may stand under (the condition, its complications, what else the drug treats). */
  fits: RegExp;
  /** The condition said in the visit, which opens its problem. Absent: tests, never a reason to open one. */
  said?: RegExp;
  tests?: boolean;
}

const INDICATIONS: Indication[] = [
  {
    orders: /^(?:metformin|insulin(?: \w+)?|glipizide|glyburide|glimepiride|sitagliptin|linagliptin|pioglitazone|empagliflozin|dapagliflozin|canagliflozin|semaglutide|liraglutide|dulaglutide|tirzepatide)$/,
    fits: /diabet|glyc|glucose|sugar|a1c|insulin|obes|weight|kidney|renal|neuropath|ulcer|heart failure|cardiomyopathy|polycystic|pcos/i,
    said: /\b(?:(?:your|my|his|her)\s+|(?:have|has|had|with|of)\s+)(?:type (?:1|2|one|two) )?diabetes(?: mellitus)?\b/i,
  },
  {
    orders: /^(?:lisinopril|losartan|valsartan|olmesartan|irbesartan|benazepril|enalapril|ramipril|quinapril|amlodipine|nifedipine|hydrochlorothiazide|chlorthalidone|hydralazine|clonidine|losartan-hydrochlorothiazide|lisinopril-hydrochlorothiazide|amlodipine-benazepril)$/,
    fits: /hypertens|blood pressure|heart|cardi|coronary|angina|kidney|renal|protein|diabet|edema|swelling|stroke|aneurysm|raynaud|migraine|valv|aort/i,
    said: /\b(?:(?:your|my|his|her)\s+|(?:have|has|had|with|of)\s+)(?:hypertension|high blood pressure)\b/i,
  },
  {
    orders: /^(?:atorvastatin|simvastatin|rosuvastatin|pravastatin|ezetimibe|fenofibrate|gemfibrozil)$/,
    fits: /cholesterol|lipid|triglycer|coronary|heart|cardi|angina|infarct|stroke|vascular|arter|diabet|atheroscl/i,
    said: /\b(?:(?:your|my|his|her)\s+|(?:have|has|had|with|of)\s+)(?:hyperlipidemia|dyslipidemia|high cholesterol)\b/i,
  },
  { orders: /^(?:levothyroxine|liothyronine|methimazole)$/, fits: /thyroid|goiter|graves|hashimoto/i, said: /\b(?:(?:your|my|his|her)\s+|(?:have|has|had|with|of)\s+)(?:hypothyroidism|hyperthyroidism)\b/i },
  { orders: /^(?:colchicine|allopurinol|febuxostat)$/, fits: /gout|uric|crystal|pseudogout|pericardit/i, said: /\b(?:(?:your|my|his|her)\s+|(?:have|has|had|with|of)\s+)gout\b/i },
  {
    orders: /^(?:warfarin|apixaban|rivaroxaban|dabigatran|enoxaparin)$/,
    fits: /fibrillation|flutter|afib|thromb|embol|dvt|clot|valv|stroke|anticoag/i,
    said: /\b(?:(?:your|my|his|her)\s+|(?:have|has|had|with|of)\s+)(?:atrial fibrillation|a-?fib|deep vein thrombosis|pulmonary embolism)\b/i,
  },
  { orders: /^hemoglobin a1c$/, fits: /diabet|glyc|glucose|sugar|a1c|obes|weight|annual|physical|wellness|exam|prediabet|fatigue|tired|thirst|urinat|polyuria|neuropath|ulcer|wound|infection/i, tests: true },
  { orders: /^lipid panel$/, fits: /cholesterol|lipid|triglycer|coronary|heart|cardi|hypertens|blood pressure|diabet|annual|physical|wellness|exam|stroke|vascular|chest pain|angina|claudication|kidney/i, tests: true },
  { orders: /^thyroid panel$/, fits: /thyroid|fatigue|tired|weight|palpitation|anxiety|depress|hair|annual|physical|wellness|exam|goiter|fibrillation|arrhythmi|tachycard|heart|insomnia|tremor|cold|heat|constipation|menstru|period/i, tests: true },
];

/** Services named for the condition they serve, and the problems they belong to. */
const SERVICE_FOR: [RegExp, RegExp][] = [
  [/^diabetic\b/, /diabet|glyc|sugar|a1c/i], [/^cardiac\b/, /heart|cardi|coronary|infarct|angina/i], [/^pulmonary\b/, /copd|pulmon|lung|asthma|emphysema|bronch/i],
];

const keyOf = (item: PlanItem): string | undefined =>
  item.kind === 'medication' ? (item.medication?.generic ?? item.medication?.name)?.toLowerCase() : item.kind === 'test' ? item.target?.toLowerCase() : undefined;

/** The first time the visit affirms a condition (said of the patient, not denied). */
function affirmed(said: readonly Said[], re: RegExp): { s: Said; name: string } | undefined {
  for (const s of said) {
    if (s.talk || s.question) continue;
    const m = re.exec(s.text);
    if (!m) continue;
    const ctx = contextOf(s.text, m.index, m.index + m[0].length);
    // "Pre-diabetes", "gestational diabetes", "pulmonary hypertension", "screen you for diabetes" name no such condition.
    if (ctx.negated || ctx.family || ctx.hypothetical || ctx.uncertain || /\b(?:pre-?|gestational|pulmonary|portal|intracranial|white coat|screen\w*|risk|runs? in)\b/i.test(s.text.slice(Math.max(0, m.index - 25), m.index + m[0].length + 12))) continue;
    return { s, name: problemTerm(m[0]) };
  }
  return undefined;
}

/**
 * The problem an order said under `current` belongs to, when that is another: an open problem its
 * condition names, or (for a drug) a new one for the condition the visit affirmed. Undefined: it stays.
 */
export function indicatedProblem(item: PlanItem, current: Problem | undefined, problems: readonly Problem[], said: readonly Said[]): { problem: Problem; opened: boolean } | undefined {
  // "Refer you to diabetic counseling" said under hypertension: a service named for a condition is that condition's.
  const namedFor = item.kind === 'referral' && current && !item.condition ? SERVICE_FOR.find(([service]) => service.test(item.target ?? ''))?.[1] : undefined;
  if (namedFor && current && !namedFor.test(current.name)) {
    const own = problems.find((p) => p !== current && p.certainty !== 'ruled-out' && namedFor.test(p.name));
    if (own) return { problem: own, opened: false };
  }
  const key = keyOf(item);
  if (!key || !current || item.condition) return undefined;
  // "For your anal fissure, use nifedipine ointment": an order said in the sentence that names its problem stays there.
  if (item.evidence.some((e) => current.evidence.some((c) => c.start === e.start))) return undefined;
  const indication = INDICATIONS.find((i) => i.orders.test(key));
  if (!indication || indication.fits.test(current.name)) return undefined;
  const open = problems.find((p) => p !== current && p.certainty !== 'ruled-out' && indication.fits.test(p.name));
  if (open) return { problem: open, opened: false };
  if (indication.tests || !indication.said) return undefined;
  const condition = affirmed(said, indication.said);
  if (!condition) return undefined;
  return { problem: { name: condition.name, status: 'chronic', certainty: 'confirmed', reasoning: [], plan: [], evidence: evidenceOf(condition.s) }, opened: true };
}
