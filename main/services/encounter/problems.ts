/**
 * Problems of the assessment as the clinician walks through them ("for your first problem, your
 * congestive heart failure, ...", "I think you have an acute lumbar strain"), each with its
 * certainty (ConText: "possible", "rule out", "it's not a fracture") and status ("chronic",
 * "new", "resolved"). A correction said later ("actually, not a sprain, it's a fracture")
 * supersedes what was said first: the first becomes ruled out.
 */
import { CONDITIONS, findingPhrases, symptomsIn } from '../clinical-language/lexicon.js';
import { createPhraseMatcher } from '../clinical-language/phrase-match.js';
import { assertFinding } from './assertion.js';
import { laterality } from './attributes.js';
import { stripTalk } from './talk.js';
import type { Certainty, ProblemStatus } from './types.js';

const conditions = createPhraseMatcher(findingPhrases(CONDITIONS));

const CUE =
  /^(?:(?:now|next|lastly|finally|first|second|third|and|so|also|then|moving on|okay)\s*,?\s+)*(?:for|regarding|in regards? to|with regards? to|as far as|as for|in terms of|with respect to|moving on to|onto|on to|from an?)\s+(?:the\s+|your\s+|his\s+|her\s+)?(?:(?:first|second|third|fourth|next|last|final|other|main)\s+(?:problem|issue|concern|thing|diagnosis)\s*(?:is\s+|,\s*|of\s+)?|(?:problem|issue|concern|diagnosis)\s+of\s+)?(?:the\s+|your\s+|his\s+|her\s+|this\s+|that\s+)?([^,.;]{3,60}?)\s*(?:\s+(?:standpoint|perspective|point of view))?(?=,|\.|;|$|\s+(?:i|we|it|you|that|this|there|goes|is|are|has|have|seems|looks|sounds|let's|let me|please)\b)/i;
/** Cues both diagnosis readings share: "what I see is", "what we're dealing with is", "is due to", "she does have". */
const SEEN_CUE = String.raw`what you (?:have|'ve got|got) is|what (?:i|we)(?:'m| am|'re| are)?(?: can)? (?:see|seeing|found|finding|noticed?|noticing|have here)(?: [^,.;?]{0,40}?)? is|what (?:i think )?(?:we're|we are|you're|you are) dealing with(?: here)? is`;
const CAUSE_CUE = String.raw`(?:is|are) (?:most likely |likely |probably )?(?:due to|caused by|secondary to)`;
const HAS_CUE = String.raw`[\p{L}']+ (?:does|do|did) have`;
/** What a clinician says before naming the diagnosis ("what I see is", "you have", "consistent with"). */
const DIAGNOSIS_CUE = String.raw`(?:${SEEN_CUE}|(?:my |the |your )?(?:diagnosis|impression)(?: here| today)? (?:would be|will be|is going to be)|(?:x-?rays?|mri|ct(?: scan)?|scan|ultrasound|imaging|radiographs?|films?) (?:shows?|showed|reveals?|revealed|demonstrates?|demonstrated)|${CAUSE_CUE}|you have|you've got|you(?:'re| are) (?:in|having)|you probably have|you likely have|you may have|you might have|this is|it's|it is|this looks like|this sounds like|looks like|sounds like|consistent with|diagnosed with|diagnosis (?:is|of)|(?:assessment|impression) is(?: that)?(?: (?:you|he|she) (?:have|has))?|suffering from|dealing with|${HAS_CUE}|concerned (?:about|for)|suspect|(?:it's|it is|this is|that's|that is|is|was)\s+not|(?:i'm|i am|we're|we are) not (?:seeing|finding|noticing)|(?:i|we) (?:don't|do not|didn't|did not) (?:see|find|notice))`;
const DIAGNOSIS = new RegExp(String.raw`\b${DIAGNOSIS_CUE}\s+(?:(?:what(?:'s| is| we| they)|something|a condition|an? \w+) call(?:ed)?\s+)?(?:an?\s+|some\s+|the\s+|a case of\s+)?((?:[\p{L}'-]+\s+){0,4}?(?:[\p{L}'-]+(?:itis|osis|iasis|emia|pathy|algia|oma|ism)|strain|sprain|fracture|tear|infection|disease|disorder|syndrome|injury|cancer|deficiency|failure|insufficiency|reflux|hypertension|diabetes|stenosis|effusion|arrhythmia|fibrillation|flare|exacerbation|concussion|nodule|mass|cyst|ulcer|hernia|stones?|migraine|anemia|asthma|copd|gout|eczema|psoriasis|acne|obesity|depression|anxiety|insomnia|apnea|bronchitis|pneumonia|sinusitis|cellulitis|dermatitis|rhinitis|tendinitis|tendonitis|bursitis|arthritis|neuropathy|radiculopathy|sciatica|vertigo|contusion|dislocation|angina|herniation|bulge|thrombosis|embolism|aneurysm|polyps?|hemorrhage))\b`, 'iu');
/** The cue alone, for a condition of the lexicon said within a few words after it ("she does have a tick, eye tics"). */
const CUE_THEN = new RegExp(String.raw`\b(?:${SEEN_CUE}|(?:my |the |your )?(?:diagnosis|impression)(?: here| today)? (?:is|would be|will be|is going to be)|${CAUSE_CUE}|${HAS_CUE}|(?:x-?rays?|mri|ct(?: scan)?|scan|ultrasound|imaging|echo(?:cardiogram)?|biopsy) (?:shows?|showed|reveals?|revealed|demonstrates?|demonstrated|confirms?|confirmed)|you (?:probably |likely |may |might )?have|you've got|diagnosed with|consistent with|suffering from)\s+`, 'giu');
/** Words that may stand between a cue and the condition it names: no verb ("you have to have this fracture healed"). */
const BETWEEN_CUE_AND_NAME = /^(?:[\p{L}'-]+,?\s+){0,5}$/iu;
const DIAGNOSIS_ALL = new RegExp(DIAGNOSIS.source, 'giu');
const ORDINAL_PROBLEM = /\b(?:first|second|third|fourth|fifth|primary|secondary|next|last|final|other)\s+(?:diagnosis|problem|issue)\s+(?:is|was|would be|will be|(?:is )?(?:going to|gon na|gonna) be)\b(?:\s+like\b)?/i;
const NOT_A_PROBLEM = /^(?:(?:a |an |very |pretty |really )*(?:common|typical|usual|minor|simple) (?:injury|problem|condition|thing|issue|finding)|(?:this|the|a|your|his|her) (?:diagnosis|prognosis)|diagnosis|prognosis|that|this|it|now|today|the plan|plan|my plan|my assessment|assessment|(?:my )?(?:impression|assessment) and plan|your|your medications?|medications?|the results?|results?|things|everything|you|him|her|me|us|sure|example|instance|the next|the most part|a while|a bit|the time being|now though|the rest|the future|now on|sure|that reason|me|right now|this time|work|home|school|some reason)$/i;
const VERBISH = /\b(?:is|are|was|were|have|has|had|do|does|did|will|would|can|could|should|going|want|think|feel|know|see|get|got|take|looks?|sounds?|need|let|make)\b/i;
const DIAGNOSTIC_WORD = /(?:itis|osis|iasis|emia|pathy|algia|oma|ism)\b|\b(?:strain|sprain|fracture|tear|infection|disease|disorder|syndrome|injury|pain|cancer|deficiency|failure|insufficiency|reflux|stenosis|effusion|arrhythmia|fibrillation|nodule|mass|cyst|ulcer|hernia|stones?|migraine|asthma|copd|gout|obesity|depression|anxiety|insomnia|apnea|neuropathy|sciatica|vertigo|diabetes|hypertension|cholesterol|blood pressure|blood sugars?|weight|smoking|murmur|rash|cough|lesion|exam|visit|physical|contusion|dislocation|lobectomy|surgery|bruise|laceration|burn|wound|bite|allergies|hyperlipidemia|dyslipidemia|palpitations|dizziness|syncope|headaches?|numbness|swelling|herniation|bulge|thrombosis|embolism|aneurysm|polyps?|hemorrhage|exacerbation|flare(?:-up)?|relapse|recurrence)\b/i;
const PROBABLE = /\b(?:likely|probably|possibl[ey]|maybe|perhaps|kind of|sort of|a touch of|not sure|i wonder|suspect|may|might|could be|concern(?:ed)? (?:about|for)|sounds like|looks like|suspicious|rule out|r\/o|questionable|suggests?|whether|to see if|in case|if)\b/i;
const CHRONIC = /\b(?:chronic|history of|long-?standing|for (?:many )?years|known|stable|well[- ]controlled|uncontrolled|continues|still)\b/i;
const NEW = /\b(?:new|newly|acute|recent(?:ly)?|just (?:started|developed)|first time)\b/i;
/** A dictated assessment's label: "Assessment:", "Impression:", "Diagnoses:". */
const ASSESSMENT_LABEL = /^(?:(?:primary|secondary|principal|main|working|final|first|second|third)\s+)?(?:assessment|impression|diagnos[ie]s|problems?)(?:\s+and\s+plan)?(?:\s*:|\s+(?:is|are|would be|will be)\b)\s*/i;
/** A state judged right after a condition's name: "is well controlled", "has been stable", "remains uncontrolled". */
const STATE_AFTER = /^\s+(?:is|are|has been|have been|remains?|seems?|looks?|appears?)\s+(?:(?:very|quite|fairly|pretty|relatively|still|now|not|well|under|poorly|much|a little|a bit)\s+){0,2}(?:stable|controlled|well[- ]controlled|uncontrolled|under(?: good)? control|improv(?:ed|ing)|worse(?:ning)?|better|elevated|resolv(?:ed|ing)|flaring|active)\b/i;
const RESOLVED = /\b(?:resolved|gone away|went away|no longer|cleared up|better now|healed)\b/i;

/** The problem's name as a clinical term: the lexicon's when the words are a synonym ("high blood pressure" -> hypertension). */
export function problemTerm(name: string): string {
  let n = name.trim();
  // "consistent with medial epicondylitis", "not seeing any fracture": the name is what follows.
  n = n.replace(/^(?:(?:what(?:'s| is| we| they)? )?call(?:ed)?|(?:a |your |his |her )?(?:history of|known)|consistent with|compatible with|suggestive of|(?:seeing|noticing|finding|showing|seen|noticed|found)(?:\s+(?:any|an?|the))?)\s+/i, '');
  for (let i = 0; i < 3; i++) n = n.replace(/^(?:(?:for|of|regarding|with|about|is|in terms of|as far as)\s+)?(?:your|his|her|the|a|an|any|this|that|my|some)\s+/i, '').replace(/^(?:for|of|regarding|with|about|is)\s+/i, '');
  // "Most likely ovarian cancer", "maybe a some arthritis", "more of a muscular sprain": the hedge is the problem's
  // certainty (read from the sentence), not part of its name.
  for (let i = 0; i < 3; i++) {
    n = n.replace(/^(?:(?:most|more|very|quite)\s+)?(?:likely|probabl[ey]|possibl[ey]|maybe|perhaps|suspected|presumed)\s+(?=\S)/i, '')
      .replace(/^(?:like|more of|kind of|sort of|(?:a\s+)?(?:little\s+)?bit of|a touch of|(?:a\s+)?lots? of|(?:some\s+)?degree of|some|a|an)\s+(?=\S)/i, '');
  }
  n = n.replace(/\s+(?:of|for|with|to|in|on)$/i, '');
  n = n.replace(/\s+(?:and\s+)?your\b.*$/i, '');
  // "Acute nephrolithiasis or kidney stone": the clinician's gloss after "or" is not part of the name.
  n = n.replace(/^(.{4,}?)\s+or\s+.*$/i, (m, first: string) => (isProblemName(first) ? first : m));
  n = n.replace(/\s+(?:then|now|though|today|here|there|goes|wise|again|too|as well|also|standpoint|perspective|issue|issues|problem|problems)$/i, '').trim();
  const whole = conditions.find(n).find((h) => h.start === 0 && h.end === n.length);
  if (whole) n = whole.value.term;
  return n.toLowerCase();
}

export function isProblemName(name: string): boolean {
  return conditions.find(name).length > 0 || symptomsIn(name).length > 0 || DIAGNOSTIC_WORD.test(name);
}

/**
 * The condition a visit's reason names ("our yearly follow-up for asthma" -> asthma, "high blood
 * pressure check" -> hypertension), when it names one the lexicon knows.
 */
export function conditionOfReason(reason: string): { name: string; followUp: boolean } | undefined {
  const hit = conditions.find(reason)[0];
  if (!hit) return undefined;
  return { name: problemTerm(reason.slice(hit.start, hit.end)), followUp: /\b(?:follow[- ]?up|check[- ]?up|check|recheck|management|yearly|annual|routine)\b/i.test(reason) };
}

/** A complaint rather than a diagnosis ("back pain", "headache"): a symptom the condition lexicon does not hold. */
export function isSymptomOnly(name: string): boolean {
  return symptomsIn(name).length > 0 && conditions.find(name).length === 0;
}

/** "Right knee pain", "ankle injury": a complaint named by where it hurts, which a confirmed diagnosis said next names. */
export function isComplaintByPlace(name: string): boolean {
  return /^(?:(?:left|right|bilateral|lower|upper|chronic|acute)\s+)*(?:[a-z]+\s+){0,2}(?:pain|ache|swelling|injury|discomfort)$/i.test(name.trim()) && conditions.find(name).length === 0;
}

/** True when a clinician's statement (not a question) judges a named condition's state: an assessment said outside the plan. */
export function judgesCondition(sentence: string): boolean {
  const t = stripTalk(sentence);
  if (/\?\s*$/.test(t)) return false;
  return conditions.find(t).some((hit) => STATE_AFTER.test(t.slice(hit.end)));
}

/** "diabetes keep the eye appointment": a topic said without a pause ends with its last clinical word. */
function trimToTerm(raw: string): string {
  let end = 0;
  for (const h of conditions.find(raw)) end = Math.max(end, h.end);
  for (const sym of symptomsIn(raw)) {
    const m = sym.spoken.exec(raw);
    if (m) end = Math.max(end, m.index + m[0].length);
  }
  for (const m of raw.matchAll(new RegExp(DIAGNOSTIC_WORD.source, 'gi'))) end = Math.max(end, m.index + m[0].length);
  return end > 0 ? raw.slice(0, end) : raw;
}

export interface ProblemMention {
  name: string;
  certainty: Certainty;
  status: ProblemStatus;
  laterality?: 'left' | 'right' | 'bilateral';
  /** What the sentence says beyond naming the problem. */
  rest: string;
  /** True when the sentence opens the problem as a topic ("for your diabetes, ..."). */
  opens: boolean;
  /** A correction's withdrawn name ("not a sprain, it's a fracture" -> "sprain"). */
  withdrawn?: string;
}

const CORRECTION = /\b(?:(?:it's|it is|this is|that's|that is)\s+)?not\s+(?:an?\s+|the\s+)?([\p{L}' -]{3,40}?),?\s+(?:it's|it is|but|rather|this is|but rather|but it's|instead it's)\s+(?:an?\s+|the\s+)?([\p{L}' -]{3,40}?)(?=[,.;]|$)/iu;

// "Most likely ovarian cancer", "possible gout": a hedge said as part of the name (which problemTerm takes off).
const HEDGED_NAME = /^(?:(?:most|more|very|quite)\s+)?(?:likely|probabl[ey]|possibl[ey]|maybe|perhaps|suspected|presumed)\b/i;

function judged(sentence: string, name: string, at: number): Pick<ProblemMention, 'certainty' | 'status'> {
  // The one reading of what is said of a finding (assertion.ts), as the coder reads a written note.
  const said = assertFinding(sentence, Math.max(0, at), Math.max(0, at) + name.length, { spoken: true });
  const lead = sentence.slice(Math.max(0, at - 60), Math.max(0, at));
  // "As for the problem of chronic pain, I'm not sure that's what this is yet": doubt said right after the name.
  const doubtAfter = /^[^.;]{0,40}?\b(?:not sure|unsure|not certain|not convinced|don't know (?:if|whether))\b/i.test(sentence.slice(Math.max(0, at) + name.length));
  const certainty: Certainty = said.status === 'denied' || said.status === 'ruled-out' || /\bnot (?:an?\s+)?$/i.test(lead) ? 'ruled-out' : said.status === 'uncertain' || PROBABLE.test(lead) || HEDGED_NAME.test(name.trim()) || doubtAfter ? 'probable' : 'confirmed';
  const status: ProblemStatus = RESOLVED.test(sentence) ? 'resolved' : NEW.test(sentence) ? 'new' : CHRONIC.test(sentence) ? 'chronic' : 'unknown';
  return { certainty, status };
}

/** The first place a condition is named as the diagnosis, trying each cue in turn (cues may overlap). */
function diagnosisSaid(t: string): { raw: string; at: number; cue: string } | undefined {
  DIAGNOSIS_ALL.lastIndex = 0;
  for (let m = DIAGNOSIS_ALL.exec(t); m; m = DIAGNOSIS_ALL.exec(t)) {
    if (!VERBISH.test(m[1]!) && !NOT_A_PROBLEM.test(m[1]!)) return { raw: m[1]!, at: m.index + m[0].length - m[1]!.length, cue: m[0] };
    DIAGNOSIS_ALL.lastIndex = m.index + 1;
  }
  // A condition of the lexicon whose name has no diagnostic ending ("she does have a tick, eye tics"),
  // said within five words after the cue.
  CUE_THEN.lastIndex = 0;
  for (let m = CUE_THEN.exec(t); m; m = CUE_THEN.exec(t)) {
    const after = m.index + m[0].length;
    const hit = conditions.find(t.slice(after, after + 60))[0];
    const between = t.slice(after, after + (hit?.start ?? 0));
    if (hit && BETWEEN_CUE_AND_NAME.test(between) && !VERBISH.test(between) && !/[.;?]/.test(between)) {
      // "Mild rosacea": a severity said just before the name is part of it.
      const severity = /\b(?:mild|moderate|severe)(?: to (?:moderate|severe))?\s+$/i.exec(t.slice(after, after + hit.start));
      const from = after + hit.start - (severity?.[0].length ?? 0);
      return { raw: t.slice(from, after + hit.end), at: from, cue: m[0] };
    }
    CUE_THEN.lastIndex = m.index + 1;
  }
  return undefined;
}

/**
 * Conditions of the whole body or of an unpaired organ, which have no side: a "right" near one is
 * talk ("all right, your coronary artery disease") or another structure, never the condition's side.
 */
const UNSIDED = /\b(?:hypertension|diabetes|hyperlipidemia|dyslipidemia|cholesterol|coronary artery disease|heart failure|atrial fibrillation|copd|asthma|depression|anxiety|obesity|hypothyroidism|hyperthyroidism|anemia|reflux|gerd|insomnia|(?:chronic )?kidney disease|sleep apnea|adhd|bipolar|schizophrenia|dementia|hiv|hepatitis|lupus|fibromyalgia|osteoporosis|hypokalemia|hyperkalemia|prediabetes|cardiomyopathy|arrhythmia)\b/i;

/** Acuity and severity said just before a condition, and a flare said just after, belong to its name ("acute heart failure", "COPD exacerbation"). */
const QUALIFIER_BEFORE = /\b(?:(?:acute on chronic|acute|chronic|severe|mild|moderate|recurrent|decompensated|advanced|early|end-stage|diastolic|systolic)\s+)+$/i;
const QUALIFIER_AFTER = /^\s+(?:exacerbation|flare(?:-up)?)\b/i;
function qualifiedSpan(t: string, start: number, end: number): { start: number; end: number } {
  const before = QUALIFIER_BEFORE.exec(t.slice(0, start));
  const after = QUALIFIER_AFTER.exec(t.slice(end));
  return { start: before ? before.index : start, end: end + (after ? after[0].length : 0) };
}

const DIAGNOSIS_ENDING = /(?:itis|osis|iasis|emia|pathy|oma|ism)$|\b(?:strain|sprain|fracture|tear|infection|disease|disorder|syndrome|failure|insufficiency|stenosis|ulcer|hernia)$/i;
const NUMBERED_TOPIC = /\bfor (?:your|the|his|her) (?:first|second|third|fourth|next|last|final|other) (?:problem|issue|concern)\b/i;

const ASSESSED_HAVE = /\b(?:assessment|impression)\b[^.?]*?\b(?:so |and )?(?:you|he|she) (?:do |does |still )?(?:have|has) (?:that |this |the |some |a |an )?([^,.;?]{3,40}?)(?=$|[,.;]|\s+(?:and|but|which|that)\b)/i;

/** True when a sentence said as narration ("let's talk about my assessment ...") still names the problem assessed. */
export function namesAssessedProblem(sentence: string): boolean {
  const t = stripTalk(sentence);
  const m = ASSESSED_HAVE.exec(t);
  // "Let's talk about my assessment, I believe what you have is something called neck strain".
  return (m !== null && isProblemName(m[1]!)) || (/\b(?:assessment|impression)\b/i.test(t) && diagnosisSaid(t) !== undefined);
}

/** The problem a clinician's sentence opens or states, if any. */
export function problemIn(sentence: string): ProblemMention | undefined {
  const found = problemSaid(sentence);
  if (found?.laterality && UNSIDED.test(found.name) && !/\b(?:left|right|bilateral)\b/i.test(found.name)) delete found.laterality;
  return found;
}

function problemSaid(sentence: string): ProblemMention | undefined {
  // "In t-, for your second problem": a false start's remnant before the topic cue is no part of it.
  const t = stripTalk(sentence).replace(/^(?!(?:you|he|she|we|it|me|him|her|us|they)\b)[a-z]{1,3},?\s+(?=(?:for|regarding|in terms of|as far as|as for)\s+(?:your|the|his|her)\s)/i, '');
  // "Actually, it's not a sprain, it's a fracture": the second name is the diagnosis, the first withdrawn.
  const fix = CORRECTION.exec(t);
  if (fix && isProblemName(fix[2]!) && isProblemName(fix[1]!)) {
    const side = laterality(t);
    return { name: problemTerm(fix[2]!), certainty: 'confirmed', status: 'unknown', ...(side ? { laterality: side } : {}), rest: '', opens: false, withdrawn: problemTerm(fix[1]!) };
  }
  // "Your third diagnosis is like we are crossing into acute heart failure", "her second problem is her
  // hypertension": a numbered problem opens with the condition said after it.
  const ordinal = ORDINAL_PROBLEM.exec(t);
  const named = ordinal ? conditions.find(t.slice(ordinal.index + ordinal[0].length))[0] : undefined;
  if (ordinal && named && named.start <= 60) {
    const from = ordinal.index + ordinal[0].length;
    const span = qualifiedSpan(t, from + named.start, from + named.end);
    const raw = t.slice(span.start, span.end);
    const side = laterality(t, from + named.start, from + named.end);
    return { name: problemTerm(raw), ...judged(t, raw, span.start), ...(side ? { laterality: side } : {}), rest: t.slice(span.end).replace(/^[\s,;]+/, ''), opens: true };
  }
  // "Let's talk about my assessment and plan for you, so you do have that left shoulder pain": a complaint the
  // assessment names is its problem, though no diagnosis is said with it.
  const assessed = ASSESSED_HAVE.exec(t);
  if (assessed && isProblemName(assessed[1]!) && !VERBISH.test(assessed[1]!) && !NOT_A_PROBLEM.test(assessed[1]!)) {
    const raw = trimToTerm(assessed[1]!.trim());
    const side = laterality(raw);
    const at = assessed.index + assessed[0].length - assessed[1]!.length;
    return { name: problemTerm(raw), ...judged(t, raw, at), ...(side ? { laterality: side } : {}), rest: t.slice(at + raw.length).replace(/^[\s,;]+/, ''), opens: true };
  }
  // "Let me tell you about my plan, so for your first problem, your foot ulcer": a numbered topic said
  // inside a run-on sentence opens the problem as if it began the sentence.
  const numbered = CUE.exec(t) ? undefined : NUMBERED_TOPIC.exec(t);
  const offset = numbered?.index ?? 0;
  const cue = CUE.exec(t.slice(offset));
  if (cue) {
    // "For the first diagnosis, the first problem of the lung cancer": a restated heading names what follows it.
    const raw = cue[1]!.trim().replace(/^(?:(?:the|your|his|her)\s+)?(?:(?:first|second|third|fourth|next|last|other|main)\s+)?(?:problem|issue|diagnosis|concern)\s+(?:of|is)\s+/i, '');
    if (!NOT_A_PROBLEM.test(raw) && !VERBISH.test(raw) && raw.split(/\s+/).length <= 6 && !/\b(?:problem|issue|concern|diagnosis|thing)\b/i.test(raw) && isProblemName(raw)) {
      const name = problemTerm(trimToTerm(raw));
      const at = offset + cue.index;
      const side = laterality(raw) ?? laterality(t, at, at + cue[0].length);
      return { name, ...judged(t, raw, t.toLowerCase().indexOf(raw.toLowerCase(), offset)), ...(side ? { laterality: side } : {}), rest: t.slice(at + cue[0].length).replace(/^[\s,;]+/, ''), opens: true };
    }
  }
  // A dictated assessment ("Assessment: type 2 diabetes with CKD stage 3a.") or a problem heading said
  // alone ("Left knee osteoarthritis."): the condition it names is the problem.
  const body = t.replace(ASSESSMENT_LABEL, '');
  const first = conditions.find(body)[0];
  const words = (x: string): number => x.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
  // "Update PE abdomen": a short abbreviation inside a longer dictated line names no problem by itself;
  // "Chronic CHF." does, its other words being what is said of it.
  const qualifiedOnly = (x: string): boolean => /^\s*(?:(?:left|right|bilateral|chronic|acute|stable|uncontrolled|controlled|mild|moderate|severe|known|recurrent|new)\s+)*$/i.test(x);
  if (first && (body !== t || first.end - first.start > 3 || (qualifiedOnly(body.slice(0, first.start)) && /^\W*$/.test(body.slice(first.end))))) {
    const head = body.slice(0, first.start);
    const covered = words(body.slice(first.start, first.end)) + (/^\s*(?:left|right|bilateral)?\s*[\p{L}]*\s*$/iu.test(head) ? words(head) : 0);
    if (body !== t || covered / Math.max(1, words(body)) >= 0.6) {
      const raw = body.slice(first.start, first.end);
      const side = laterality(body);
      // The clinician's own words name it when they are short: "Left knee osteoarthritis", "type 2
      // diabetes with diabetic chronic kidney disease, CKD stage 3a" keep their site and stage.
      const said = body.replace(/[.;:]\s*$/, '').trim();
      // "Your chronic kidney disease is stable": what follows a verb is said of the condition, not its name.
      const stated = /\b(?:is|are|was|were|has|have|had|looks?|seems?|remains?|stays?|appears?)\b/i.test(body.slice(first.end));
      const span = qualifiedSpan(body, first.start, first.end);
      const name = words(said) <= 12 && !stated ? problemTerm(said) : problemTerm(body.slice(span.start, span.end));
      // A labelled line ("Secondary diagnosis is ...") opens a problem of its own.
      return { name, ...judged(body, raw, first.start), ...(side ? { laterality: side } : {}), rest: body.slice(first.end).replace(/^[\s,;]+/, ''), opens: body !== t };
    }
  }
  // "... for problem number 2. The radiation pneumonitis.": a heading said alone, a diagnosis by its ending.
  const heading = /^(?:(?:and|so|now)\s+)?(?:the|your|his|her)\s+([\p{L}' -]{3,40}?)[.;:]?$/iu.exec(t.trim());
  if (heading && words(heading[1]!) <= 4 && DIAGNOSIS_ENDING.test(heading[1]!) && !VERBISH.test(heading[1]!) && !/\b(?:no|not|any|shows?|showed|reveals?|revealed|came|x-?rays?|mri|ct|scan|ultrasound|film|imaging)\b/i.test(heading[1]!)) {
    const side = laterality(heading[1]!);
    return { name: problemTerm(heading[1]!), certainty: 'confirmed', status: 'unknown', ...(side ? { laterality: side } : {}), rest: '', opens: true };
  }
  // "Primary diagnosis is hematuria": what a dictated label names is the problem, known to the lexicon or not.
  if (body !== t && !first && words(body) <= 8 && isProblemName(body)) {
    const said = body.replace(/[.;:]\s*$/, '').trim();
    const side = laterality(said);
    return { name: problemTerm(said), ...judged(body, said, 0), ...(side ? { laterality: side } : {}), rest: '', opens: true };
  }
  // "Your type 2 diabetes is well controlled", "his hypertension remains stable": a known condition
  // whose state the clinician judges is a problem of the assessment.
  for (const hit of conditions.find(t)) {
    const after = t.slice(hit.end);
    if (!STATE_AFTER.test(after)) continue;
    const span = qualifiedSpan(t, hit.start, hit.end);
    const raw = t.slice(span.start, span.end);
    const side = laterality(t, hit.start, hit.end);
    return { name: problemTerm(raw), ...judged(t, raw, span.start), ...(side ? { laterality: side } : {}), rest: after.replace(/^[\s,;]+/, ''), opens: false };
  }
  // The first reading that names a condition: "my impression is that you probably have a contusion"
  // opens at "impression is", whose words run into a verb, and names it at "you probably have".
  const dx = diagnosisSaid(t);
  if (dx) {
    // "The x-ray shows no fracture": the negation said inside the name rules the condition out.
    const denied = /^(?:no|not|any|never)\s+/i.exec(dx.raw);
    const raw = dx.raw.slice(denied?.[0].length ?? 0);
    const at = dx.at + (denied?.[0].length ?? 0);
    const side = laterality(t, at, at + raw.length);
    const judgedAs = judged(t, raw, at);
    if (/\bnot\b|n't\b/i.test(dx.cue) || denied) judgedAs.certainty = 'ruled-out';
    return { name: problemTerm(raw.replace(/^(?:left|right)\s+/i, '')), ...judgedAs, ...(side ? { laterality: side } : {}), rest: t, opens: false };
  }
  return undefined;
}
