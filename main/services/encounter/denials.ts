/**
 * A denial covers what was asked and answered "no", never what the visit is about. "Any joint
 * pain?" "No, just my elbow." does not make "denies joint pain" in a visit for elbow pain; "denies
 * urinary symptoms" cannot stand beside urinary incontinence. A denial is withdrawn when a symptom
 * the patient reports, or a problem the visit is about (not a quiet chronic one), falls under it:
 * the same words said more specifically ("cough" under "productive cough"), a pain at a joint under
 * "joint pain", anything of the urinary tract under "urinary symptoms".
 */
import type { HistoryItem, Problem, Symptom } from './types.js';

const JOINT = /\b(?:joints?|knees?|hips?|shoulders?|elbows?|wrists?|ankles?|fingers?|thumbs?|toes?|hands?|jaw|arthritis|arthralgia|gout|bursitis|tendinitis|tendonitis|epicondylitis|osteoarthritis|sprain|effusion)\b/i;
const MUSCLE = /\b(?:muscles?|myalgia|cramp\w*|strain|spasms?|body aches?)\b/i;
const URINARY = /\b(?:urin\w*|bladder|incontinen\w*|dysuria|hematuria|frequency|urgency|polyuria|prostat\w*|kidney stones?|nephrolithiasis|pyelonephritis)\b/i;
const VISION = /\b(?:vision|visual|sight|blurr\w*|hemianopia|diplopia|double vision)\b/i;

/** Denied terms that name a class of complaints, with what falls under each. */
const CLASSES: [RegExp, RegExp][] = [
  [/^(?:joint pain|arthralgia|joint swelling)$/, JOINT],
  [/^(?:myalgia|muscle (?:pain|aches?)|body aches?)$/, MUSCLE],
  [/^urinary (?:symptoms|problems|issues|changes)$/, URINARY],
  [/^(?:vision changes|visual changes|vision problems)$/, VISION],
];
const GENERIC = new Set(['pain', 'symptoms', 'changes', 'problems', 'issues', 'the', 'of', 'in', 'any']);

/** True when `said` (a reported complaint, problem or condition) falls under the denied term. */
export function fallsUnder(denied: string, said: string): boolean {
  const d = denied.toLowerCase();
  const s = said.toLowerCase();
  if (d === s) return true;
  for (const [cls, members] of CLASSES) if (cls.test(d) && members.test(s)) return true;
  // The same words said more specifically: "cough" under "productive cough", "back pain" under "low back pain".
  const words = d.split(/\s+/).filter((w) => !GENERIC.has(w));
  const saidWords = new Set(s.split(/[\s,/-]+/));
  return words.length > 0 && words.every((w) => saidWords.has(w) || saidWords.has(`${w}s`)) && (d.split(/\s+/).length === words.length || s.includes(d));
}

/** The symptoms without the denials that what the patient reports contradicts. */
export function withdrawContradicted(symptoms: Symptom[], problems: Problem[], history: readonly HistoryItem[]): Symptom[] {
  const reported = [
    ...symptoms.filter((s) => s.subject === 'patient' && s.presence === 'reported').map((s) => `${s.location ? `${s.location} ` : ''}${s.term}`),
    // A chronic condition may be quiet ("rheumatoid arthritis", "I haven't had any joint pain recently"):
    // only a problem the visit is about, not one of the history, withdraws a denial.
    ...problems.filter((p) => p.certainty !== 'ruled-out' && p.status !== 'chronic' && !history.some((h) => h.kind === 'medical' && h.term === p.name)).map((p) => p.name),
  ];
  return symptoms.filter((s) => s.subject !== 'patient' || s.presence !== 'denied' || !reported.some((r) => fallsUnder(s.term, r)));
}
