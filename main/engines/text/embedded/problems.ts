/**
 * The problems of an assessment and plan, as the clinician walks through them: "for your first
 * problem, your congestive heart failure, ..." / "lastly, for your high blood pressure, ..." /
 * "I think you have an acute lumbar strain". Each later sentence of the plan belongs to the
 * problem named last. The problem's name is the clinician's words, or the condition lexicon's
 * name when the words are one of its synonyms ("high blood pressure" -> Hypertension).
 */
import { CONDITIONS, findingPhrases, symptomsIn } from '../../../services/clinical-language/lexicon.js';
import { createPhraseMatcher } from '../../../services/clinical-language/phrase-match.js';
import { stripTalk } from './register.js';

const conditions = createPhraseMatcher(findingPhrases(CONDITIONS));

// "for your X,", "regarding your X,", "as far as your X goes,", "your first problem, X,".
const CUE =
  /^(?:(?:now|next|lastly|finally|first|second|third|and|so|also|then|moving on)\s*,?\s+)*(?:for|regarding|in regards? to|with regards? to|as far as|as for|in terms of|with respect to|moving on to|onto|on to|about|from an?)\s+(?:the\s+|your\s+|his\s+|her\s+)?(?:(?:first|second|third|fourth|next|last|final|other|main)\s+(?:problem|issue|concern|thing|diagnosis)\s*(?:is\s+|,\s*)?)?(?:the\s+|your\s+|his\s+|her\s+)?([^,.;]{3,60}?)\s*(?:\s+(?:standpoint|perspective|point of view))?(?=,|\.|;|$|\s+(?:i|we|it|you|that|this|there|goes|is|are|has|have|seems|looks|sounds)\b)/i;
const ORDINAL_ONLY = /^(?:(?:now|next|lastly|finally|so|and)\s*,?\s+)*(?:for\s+)?(?:the\s+|your\s+)?(?:first|second|third|fourth|next|last|final|other)\s+(?:problem|issue|concern|diagnosis)\b/i;
// A diagnosis said outright: "you have an acute lumbar strain", "this is consistent with gout".
const DIAGNOSIS =
  /\b(?:you have|you've got|you probably have|you likely have|you may have|this is|it's|it is|this looks like|this sounds like|consistent with|diagnosed with|diagnosis (?:is|of)|suffering from|dealing with)\s+(?:an?\s+|some\s+|the\s+)?((?:[\p{L}'-]+\s+){0,4}?(?:[\p{L}'-]+(?:itis|osis|emia|pathy|algia|oma|ism|ectomy|plasty)|strain|sprain|fracture|tear|infection|disease|disorder|syndrome|injury|pain|cancer|deficiency|failure|insufficiency|reflux|hypertension|diabetes|stenosis|effusion|arrhythmia|fibrillation|flare|exacerbation|concussion|nodule|mass|cyst|ulcer|hernia|stones?|migraine|anemia|asthma|copd|gout|eczema|psoriasis|acne|obesity|depression|anxiety|insomnia|apnea|bronchitis|pneumonia|sinusitis|cellulitis|dermatitis|rhinitis|tendinitis|tendonitis|bursitis|arthritis|neuropathy|radiculopathy|sciatica|vertigo))\b/iu;
const NOT_A_PROBLEM = /^(?:that|this|it|now|today|the plan|plan|my plan|my assessment|assessment|(?:my )?(?:impression|assessment) and plan|your|your medications?|medications?|the results?|results?|things|everything|you|him|her|me|us|sure|example|instance|the next|the most part|a while|a bit|the time being|now though)$/i;
const VERBISH = /\b(?:is|are|was|were|have|has|had|do|does|did|will|would|can|could|should|going|want|think|feel|know|see|get|got|take|looks?|sounds?)\b/i;

function tidy(name: string): string {
  let n = name.trim();
  // "for your first problem for your migraines", "in terms of your diabetes": the name after the leads.
  for (let i = 0; i < 3; i++) n = n.replace(/^(?:(?:for|of|regarding|with|about|is|in terms of|as far as)\s+)?(?:your|his|her|the|a|an|this|that|my)\s+/i, '').replace(/^(?:for|of|regarding|with|about|is)\s+/i, '');
  // Whatever follows a second "your" is another phrase ("hypertension your third diagnosis").
  n = n.replace(/\s+(?:and\s+)?your\b.*$/i, (m) => (/^\s+and\s+your\s+\w/i.test(m) ? m.replace(/\byour\s+/i, '') : ''));
  n = n.replace(/\s+(?:then|now|though|today|here|there|goes|wise|again|too|as well|also|standpoint|perspective)$/i, '');
  const whole = conditions.find(n).find((h) => h.start === 0 && h.end === n.length);
  if (whole && whole.value.term !== n.toLowerCase() && n.split(/\s+/).length > 1) n = whole.value.term;
  return n.charAt(0).toUpperCase() + n.slice(1);
}

/**
 * The problem a sentence opens, or undefined when it opens none; `rest` is what the sentence
 * says beyond naming it ("..., your heart failure, I think you're retaining fluid" -> "I think
 * you're retaining fluid"), empty when it only names the problem.
 */
export function problemOpened(sentence: string): { name?: string; rest: string } | undefined {
  const found = opened(sentence);
  if (found?.name !== undefined && (found.name.length < 3 || NOT_A_PROBLEM.test(found.name))) delete found.name;
  return found;
}

function opened(sentence: string): { name?: string; rest: string } | undefined {
  const t = stripTalk(sentence);
  const ordinal = ORDINAL_ONLY.exec(t);
  const cue = CUE.exec(t);
  const after = (end: number): string => t.slice(end).replace(/^[\s,;]+/, '');
  if (cue) {
    const raw = cue[1]!.trim();
    if (!NOT_A_PROBLEM.test(raw) && !VERBISH.test(raw) && raw.split(/\s+/).length <= 6 && !/\b(?:problem|issue|concern)\b/i.test(raw)) {
      return { name: tidy(raw), rest: after(cue.index + cue[0].length) };
    }
  }
  if (!ordinal) return undefined;
  const rest = after(ordinal.index + ordinal[0].length);
  const dx = DIAGNOSIS.exec(rest);
  if (!dx) return { rest };
  // "I think you have an acute lumbar strain" only names it; what follows the name is the rest.
  const tail = rest.slice(dx.index + dx[0].length).replace(/^[\s,;]+(?:and\s+)?/, '');
  return { name: tidy(dx[1]!), rest: /^(?:i think|i believe|it sounds like|it looks like|so)?\s*$/i.test(rest.slice(0, dx.index).trim()) ? tail : rest };
}

/** A diagnosis stated outright in the sentence ("I think you have an acute lumbar strain"). */
export function diagnosisIn(sentence: string): string | undefined {
  const dx = DIAGNOSIS.exec(stripTalk(sentence));
  if (!dx || VERBISH.test(dx[1]!)) return undefined;
  return tidy(dx[1]!);
}

const DIAGNOSTIC_WORD = /(?:itis|osis|emia|pathy|algia|oma|ism)\b|\b(?:strain|sprain|fracture|tear|infection|disease|disorder|syndrome|injury|pain|cancer|deficiency|failure|insufficiency|reflux|stenosis|effusion|arrhythmia|fibrillation|nodule|mass|cyst|ulcer|hernia|stones?|migraine|asthma|copd|gout|obesity|depression|anxiety|insomnia|apnea|neuropathy|sciatica|vertigo|diabetes|hypertension|cholesterol|blood pressure|blood sugar|weight|smoking|murmur|rash|cough|lesion)\b/i;

/** True when a name looks like a clinical problem (a condition, a symptom, a diagnosis word). */
export function isProblemName(name: string): boolean {
  return conditions.find(name).length > 0 || symptomsIn(name).length > 0 || DIAGNOSTIC_WORD.test(name);
}

const PLAN_START = /\b(?:my |the )?assessment and (?:my )?plan\b|\b(?:first|1st) (?:problem|issue)\b|\btalk about (?:my|the|our) (?:assessment|plan|impression)\b|\bmy (?:assessment|impression)\b|\bwhat we(?:'re| are) going to do\b|\bfor (?:your|the) (?:first|main) (?:problem|issue|concern)\b/i;

/** True when the clinician announces the assessment and plan ("let's talk about my assessment and plan"). */
export function opensAssessmentAndPlan(sentence: string): boolean {
  return PLAN_START.test(sentence);
}
