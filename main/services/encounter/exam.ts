/**
 * The physical exam from the clinician's spoken findings: each clause of an exam sentence
 * becomes a finding by body system and region with its side ("on exam of your right knee, I do
 * see some ecchymosis medially, there's no effusion" -> Musculoskeletal / knee / right:
 * "ecchymosis medially"; "no effusion"). Manoeuvres announced ("I'm going to press here", "does
 * this hurt?") are narration, not findings; a clause that cannot be read as a finding is
 * unplaced, never copied in as speech.
 */
import { contextOf } from '../clinical-language/context.js';
import { laterality } from './attributes.js';
import { passesRegister } from './register.js';
import { EXAM_OPENER, OTHER_EXAM, evidenceOf, type Said } from './said.js';
import { isNarration, stripTalk } from './talk.js';
import { readExamAnswers, withoutRestated } from './exam-answers.js';
import type { ExamFinding, ExamSystem, Unplaced } from './types.js';

const REGIONS: [RegExp, ExamSystem][] = [
  [/\b(well[- ]nourished|well[- ]developed|(?:no|mild|moderate|acute) (?:acute )?distress|fussy|ill[- ]appearing|well[- ]appearing)\b/i, 'General'],
  [/\b(heart|cardiac|cardiovascular|murmurs?|rhythm|gallops?|rubs?|carotids?)\b/i, 'Cardiovascular'],
  [/\b(lungs?|breath sounds|chest wall|wheez\w*|rales|crackles|rhonchi|auscultation bilaterally|respiratory)\b/i, 'Respiratory'],
  [/\b(abdomen|abdominal|belly|bowel sounds|liver|spleen|rebound|guarding)\b/i, 'Gastrointestinal'],
  [/\b(neck|thyroid|jvd|jugular|lymph nodes?|lymphadenopathy|cervical)\b/i, 'Neck'],
  [/\b(neuro\w*|reflex\w*|sensation|cranial nerves?|gait|strength|alert|oriented|hypotonia|hypertonia|(?:muscle|motor) tone|tone (?:is|was) (?:normal|increased|decreased)|motor (?:strength|function|exam|deficits?)|sensory|focal deficits?|speech)\b/i, 'Neurological'],
  [/\b((?:flat|appropriate|normal|blunted|full|restricted|bright) affect|affect (?:is|was) (?:appropriate|normal|flat|blunted|full)|mood|judgment|insight|thought process)\b/i, 'Psychiatric'],
  [/\b(genitalia|testes|testicles?|scrotum|scrotal|penis|vulva|vaginal|cervix|prostate|costovertebral|cva)\b/i, 'Genitourinary'],
  [/\b(skin|rash|lesions?|wounds?|incisions?|erythema|laceration|abrasion|ecchymosis|bruis\w*|nev(?:i|us)|moles?|papules?|pustules?|comedones|macules?|plaques?|vesicles?|nodules?|scal(?:e|es|y|ing)|acne|ulcers?|cysts?)\b/i, 'Skin'],
  [/\b(eyes?|ears?|nose|throat|pupils|tympanic|oropharynx|mouth|sinus(?:es)?|head|tonsils?|tonsillar|nasal|pharynx|pharyngeal|exudate|vision|visual|acuity|eye movements|extraocular|conjunctiva\w*|sclera\w*|hemianopia)\b/i, 'HEENT'],
  [/\b(knee|shoulder|hip|ankle|wrist|elbow|hand|foot|feet|finger|toe|back|spine|lumbar|thoracic|leg|arm|calf|thigh|joint|range of motion|extremit\w*|edema|effusion|muscle|radius|ulna|tibia|fibula|femur|humerus|clavicle|patella|malleol\w*|olecranon|metacarp\w*|metatars\w*|phalan\w*|tendons?|ligaments?|bursa|tuberosity|epicondyl\w*|achilles|heel)\b/i, 'Musculoskeletal'],
];
const REGION_WORD = /\b(knee|shoulder|hip|ankle|wrist|elbow|hand|foot|finger|toe|back|lower back|spine|leg|arm|calf|thigh|neck|abdomen|lungs|heart|chest|head|ear|eye|throat|skin)s?\b/i;
const FINDING_WORD =
  /\b(tender\w*|swell\w*|swollen|edema|erythema|ecchymosis|bruis\w*|murmurs?|rhythm|clear|wheez\w*|crackles|rales|rhonchi|effusion|range of motion|strength|reflex\w*|sensation|pulses?|soft|distended|distention|nontender|normal|intact|lesions?|rash|mass|palpable|laxity|pain|crepitus|deformity|warm\w*|scar|incisions?|abrasion|laceration|drainage|stable|positive|negative|gallops?|rubs?|lymphadenopathy|jvd|bowel sounds|healing|redness|discharge|exudate|erythematous|enlarged|effusions?|hematoma|murmur|injected|bulging|dry|moist|unremarkable|abnormal|decreased|increased|limited|full|spasm|atrophy|nev(?:i|us)|papules?|pustules?|comedones|macules?|plaques?|vesicles?|nodules?|ptosis|asymmetr\w*|fluctuance|wounds?|ulcers?|ulcerat\w*|necro\w*|odor|exposure|induration|granulation|eschar|callus|blisters?|ridges?|pitting|alert|oriented|equal|reactive|deficits?|hemianopia|hypotonia|hypertonia|well[- ]nourished|well[- ]developed|distress|appearing|fussy|fluent|appropriate|intact|pale|pallor|jaundice|icter\w*|cyanosis|clubbing|\d+\/\d+|\d\+)\b/i;
const LEAD = /^(?:(?:physical )?exam(?:ination)?s? (?:shows?|showed|reveals?|revealed|is notable for|demonstrates?)\s+|exam:\s*)|^(?:on|upon|from) (?:(?:the|your|my|his|her) )?(?:physical |musculoskeletal |neuro(?:logical)? |heart |lung |abdominal |skin |([a-z]+) )?(?:exam(?:ination)?|evaluation|inspection|palpation)(?: of (?:the |your |his |her )?(?:(left|right) )?([a-z ]+?))?(?:,|\s+(?=i |there |you |your |it |he |she ))\s*/i;
const SEE = /^(?:i|we) (?:do |did |can |could )?(?:see|hear|appreciate|notice|feel|note|find|detect|observe|auscultate|palpate)s?\s+(?:that\s+)?(?:there(?:'s| is| are)\s+)?(?:some\s+|a\s+|an\s+|mild\s+(?=\w))?/i;
const NOT_SEE = /^(?:i|we) (?:do not|don't|did not|didn't|can't|cannot|could not|couldn't) (?:see|hear|appreciate|feel|notice|note|find|detect|observe|palpate)\s+(?:any\s+)?/i;
const THERE = /^there(?:'s| is| are| was| were)\s+(?:some\s+|a\s+|an\s+)?/i;
const THERE_NO = /^there(?:'s| is| are| was| were)\s+no\s+/i;
const YOU_HAVE = /^(?:you|he|she) (?:have|has|had|'ve got|got|do have|does have)\s+(?:some\s+|a\s+|an\s+)?/i;
const YOU_NOT = /^(?:you|he|she) (?:do not|don't|does not|doesn't) have\s+(?:any\s+)?/i;
const IT_LOOKS = /^(?:(?:it|that|this) (?:looks|sounds|feels|seems|is|appears)(?: like)?|it's|that's)\s+(?:an?\s+)?/i;

// The risks of a procedure read out for consent.
const CONSENT_RISK = /\b(?:risks?|side effects?|complications?|consent|chance)\b/i;
const RESULT_WORD = /\b(?:x-?rays?|mri|ct|ultrasound|labs?|blood work|ekg|echo\w*|a1c|results?)\b/i;

function systemOf(text: string): ExamSystem | undefined {
  return REGIONS.find(([re]) => re.test(text))?.[1];
}

/** One clause of spoken exam as a finding phrase, or undefined when it states none. */
export function findingPhrase(clause: string): { text: string; negated: boolean } | undefined {
  // "You definitely have", "I do still hear": the adverb stands between the speaker and the finding.
  // "We'll say you have some mild tenderness": the clinician dictating the finding.
  let t = stripTalk(clause).replace(/[.!]+$/, '').trim().replace(/^(?:we'll|we will|i'll|i will|let's|let me) (?:say|note|document|put down|write down)(?: that)?\s+/i, '').replace(/^((?:i|we|you|he|she)(?: do| did| can| could)?)\s+(?:definitely|certainly|also|really|clearly|still|actually|just|do|did)\s+/i, '$1 ');
  let negated = false;
  if (NOT_SEE.test(t)) { t = t.replace(NOT_SEE, ''); negated = true; }
  else if (YOU_NOT.test(t)) { t = t.replace(YOU_NOT, ''); negated = true; }
  else if (THERE_NO.test(t)) { t = t.replace(THERE_NO, ''); negated = true; }
  else t = t.replace(SEE, '').replace(THERE, '').replace(YOU_HAVE, '').replace(IT_LOOKS, '').replace(/^(?:the (?:patient|child|baby|infant)|he|she) (?:is|appears|was|seems)\s+/i, '');
  t = t.replace(/^(?:on )?the (?:heart|lung|abdominal|neck|skin|neuro\w*) exam,?\s*(?:it's |there's |there is )?/i, '').replace(/^(?:the |your )?(?:lungs?|heart|abdomen|belly) (?:has|have|shows?) (?:some |a |an )?/i, '').replace(/\b(\d) out of (\d)\b/g, '$1/$2').replace(/\bnice and\s+/gi, '').replace(/\b(lungs|heart|abdomen) (?:sound|sounds|look|looks|feel|feels|seem|seems)\b/gi, (_m, r: string) => `${r} ${r === 'lungs' ? 'are' : 'is'}`);
  // "Your heart sounds great": a lay word of approval is a normal exam of that organ.
  t = t.replace(/^((?:the |your )?(?:heart|lungs|abdomen|belly|skin)) (?:is|are) (?:great|good|fine|okay|healthy|perfect)$/i, (_m, organ: string) => `${organ} ${/lungs/i.test(organ) ? 'are' : 'is'} normal`);
  // "Some like ecchymosis and edema that just means bruising and swelling along the lateral aspect": the filler and the lay
  // explanation go, the finding and its place stay.
  t = t.replace(/^like\s+|\b(some|a|an|the|any)\s+like\s+/gi, (_m, det?: string) => (det ? `${det} ` : '')).replace(/(?:\s+and)?\s+(?:that|which|it)\s+(?:just\s+|basically\s+|kind of\s+)?means\s+[a-z ]{0,40}?(?=\s+(?:along|on|over|at|in|around|of|near|or)\b|,|$)/gi, '');
  // Disfluent repeats ("monitor that monitor that", "appreciate appreciated") keep their last wording.
  t = t.replace(/\b(\w+(?:\s+\w+)?)\s+\1\b/gi, '$1').replace(/\b(\w{4,})\w*\s+(\1\w*)\b/gi, '$2');
  t = t.replace(/\b(?:your|his|her)\b/gi, 'the').replace(/\b(?:a little bit of|a little bit|a little|kind of|sort of|just|really|pretty|definitely|actually|certainly|nice)\s+/gi, '').replace(/\s+(?:there|here|today|too|as well)$/i, '').trim();
  if (negated) t = `no ${t.replace(/^no\s+/i, '')}`;
  else if (/^no\b/i.test(t)) negated = true;
  if (!t || /\b(?:i|i'm|me|my|we|us|you|you're|let's)\b/i.test(t) || /\?/.test(clause)) return undefined;
  // A finding hoped for, expected or reported by someone else is no finding of this exam: "hopefully the wheezing will be
  // gone", "your ankle will be swollen for a week", "fussy all night according to mom", "for your knee pain, ...".
  if (/\b(?:hopefully|hope|will|would|should|going to|might|may|could|expect\w*|according to|mom|dad|mother|father|all night|last night|yesterday|at home|next (?:week|time)|again)\b/i.test(t) || /^for\b/i.test(t)) return undefined;
  // The risks of a procedure read out for consent ("risks include hypopigmentation, soft tissue atrophy") are no findings,
  // nor is a list of examples ("including", "such as").
  if (CONSENT_RISK.test(clause) || /\b(?:includ\w*|such as)\b/i.test(clause)) return undefined;
  // "Everything else looks good": a summary of the whole exam names no system's finding.
  if (/^(?:everything|all of it|all else|otherwise|the rest)\b/i.test(t)) return undefined;
  const words = t.split(/\s+/);
  // Unpunctuated run-on speech ("no murmur no rub the lungs are clear") is no single finding.
  // A bare "range of motion" or "strength" has lost its qualifier ("good", "full") to the opener trim.
  if (/^(?:range of motion|strength|sensation|pulses?|reflexes)$/i.test(t)) return undefined;
  // "About 122/76, heart rate is appropriate at 82": a vital sign read out is no exam finding (the vitals reader has it).
  if (/\b\d{2,3}\/\d{2,3}\b(?!\s*(?:murmur|systolic|diastolic))|\bbeats per minute\b|\bheart rate\b|\bblood pressure\b|\boxygen\b|\btemperature\b|\brespiratory rate\b/i.test(t)) return undefined;
  // A finding described at length ("1 by 2 inch circular wound on the dorsal aspect of the lateral right foot") has no verb of speech.
  const limit = /\b(?:is|are|was|were|have|has|had|do|does|did|go|goes|went|get|got|feel|feels|said|says|think|want)\b/i.test(t) ? 12 : 16;
  if (words.length > limit || !FINDING_WORD.test(t) || /\b(?:noticed|i|it's|that's|listening|looking|feeling)\b/i.test(t) || (t.match(/\bno\b/gi) ?? []).length > 2) return undefined;
  // Exam findings are written telegraphically, as clinicians chart them ("crackles at bases bilaterally").
  t = t.replace(/\b(?:the|a|an|some|any)\s+/gi, '').replace(/\s+(?:noted|present|seen|there)$/i, '').trim();
  return { text: t.charAt(0).toLowerCase() + t.slice(1), negated };
}

function clausesOf(text: string): string[] {
  // "No focal, motor, or sensory deficit": a list of qualifiers is one finding, not a restatement after "or".
  // Unpunctuated speech: "... coming out of it i don't see any necrosis", "... the fifth joint there is some redness".
  return text.replace(/(\b\w+, \w+),\s+(or|and)\s+(?!(?:the|your|his|her|there|it|i|you|he|she|we|a|an|my|this|that)\b)/gi, '$1 $2 ').replace(/(?<=[a-z])(?<!\b(?:and|but|so|or|that|where|if))\s+(?=(?:i (?:don't|do not|didn't|can't|cannot) (?:see|appreciate|feel|hear|notice|find)|there(?:'s| is| are) (?:some|a|an|no|any))\b)/gi, ', ').split(/;\s+|,?\s+(?:along with|as well as|in addition to)\s+|,\s*(?=or\s)|,\s*(?:so|which|but)\s+|,\s*(?:and\s+|but\s+)?(?=(?:i|there|your|no|he|she|it|you|the|on)\b)|\s+(?:and|but)\s+(?=(?:i|there|your|no|you)\b)/i).map((c) => c.trim()).filter(Boolean);
}

/** Two wordings of one finding share most of the shorter one's words. */
function sharesWords(a: string, b: string): boolean {
  const wa = new Set(a.toLowerCase().split(/\W+/).filter((w) => w.length > 2));
  const wb = b.toLowerCase().split(/\W+/).filter((w) => w.length > 2);
  return wb.filter((w) => wa.has(w)).length >= Math.min(wa.size, wb.length) * 0.6;
}

/** Exam findings from the clinician's sentences of the exam (and exam statements said elsewhere). */
export function readExam(said: Said[]): { exam: ExamFinding[]; unplaced: Unplaced[]; used: Set<number> } {
  const exam: ExamFinding[] = [];
  const unplaced: Unplaced[] = [];
  const used = new Set<number>();
  let region: { word: string; side?: ExamFinding['laterality'] } | undefined;
  // An exam said after the visit turned to the plan ("you're doing a good job... I'm going to
  // listen to your heart and lungs") is still an exam: from its opener, the clinician's sentences
  // are read as exam while each of them states a finding.
  let run = false;
  for (const s of said) {
    if (s.speaker !== 'clinician' || s.talk || s.question) continue;
    // "The ER doctor's exam showed ...": someone else's exam, another day, is no exam of this visit.
    const opens = EXAM_OPENER.test(s.text) && !OTHER_EXAM.test(s.text);
    const examish = s.phase === 'exam' || run || opens;
    if (opens) run = true;
    if (!examish || isNarration(s.text)) continue;
    // Risks read out for consent ("the risks include hypopigmentation, atrophy, tendon rupture"): the whole sentence is
    // skipped, for the clauses after the first ("atrophy") no longer say they are risks.
    if (CONSENT_RISK.test(s.text)) continue;
    // Results read out in the exam ("your x-ray showed...") are results.
    if (RESULT_WORD.test(s.text)) {
      if (s.phase !== 'exam') run = false;
      continue;
    }
    const lead = LEAD.exec(stripTalk(s.text));
    // "On exam of your right knee", "on your foot exam": the region the findings after it are on.
    // LEAD's groups: 1 the part named before "exam", 2 the side and 3 the region named after "exam of".
    const leadRegion = lead?.[3] ?? (lead?.[1] && REGION_WORD.test(lead[1]) ? lead[1] : undefined);
    // "On your foot exam ... the lateral right foot": a part named before "exam" takes the side said with it.
    const partSide = !lead?.[3] && lead?.[1] ? new RegExp(String.raw`\b(left|right)\s+${lead[1]}s?\b`, 'i').exec(s.text)?.[1]?.toLowerCase() as ExamFinding['laterality'] | undefined : undefined;
    const leadSide = (lead?.[2]?.toLowerCase() as ExamFinding['laterality'] | undefined) ?? partSide;
    if (leadRegion) region = { word: leadRegion.trim().split(' ').pop()!, ...(leadSide ? { side: leadSide } : {}) };
    let placed = 0;
    for (const raw of clausesOf(stripTalk(s.text).replace(LEAD, ''))) {
      // "A positive straight leg, or positive straight leg raise on the right": the second wording replaces the first.
      const restated = /^or\s+/i.test(raw);
      const f = findingPhrase(raw.replace(/^or\s+/i, ''));
      if (!f) continue;
      // A number the recogniser could not read with certainty ("two out of six six") writes no finding with a number.
      if (s.unclearNumber && /\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b/i.test(f.text)) continue;
      if (restated && exam.length && exam[exam.length - 1]!.evidence[0]?.start !== undefined && sharesWords(exam[exam.length - 1]!.finding, f.text)) exam.pop();
      const system = systemOf(f.text) ?? (region ? systemOf(region.word) : undefined) ?? systemOf(s.text);
      if (!system) continue;
      const regionWord = REGION_WORD.exec(f.text)?.[1]?.toLowerCase() ?? (region && systemOf(region.word) === system ? region.word : undefined);
      // A side said in another clause of the sentence belongs to that clause's finding.
      const whole = clausesOf(stripTalk(s.text).replace(LEAD, '')).length === 1 || lead?.[2] ? laterality(s.text) : undefined;
      const side = laterality(f.text) ?? (region && regionWord === region.word ? region.side : undefined) ?? whole;
      const at = s.text.toLowerCase().indexOf(f.text.replace(/^no /, '').split(' ')[0]!);
      const negated = f.negated || (at >= 0 && contextOf(s.text, at, at + 1).negated && /^no\b/i.test(f.text));
      const finding: ExamFinding = {
        system, ...(regionWord ? { region: regionWord } : {}), ...(side ? { laterality: side } : {}), finding: f.text, presence: negated ? 'denied' : 'reported', evidence: evidenceOf(s),
      };
      if (passesRegister(s.text) && clausesOf(s.text).length === 1) finding.dictated = s.text;
      exam.push(finding);
      placed++;
    }
    if (placed === 0 && !opens && s.text.split(/\s+/).length >= 3) run = false;
    if (placed > 0) used.add(s.i);
    else if (s.phase === 'exam' && s.text.split(/\s+/).length >= 5) unplaced.push({ text: s.text, section: 'exam', reason: 'no exam finding read', evidence: evidenceOf(s) });
  }
  const asked = readExamAnswers(said);
  exam.push(...withoutRestated(asked.exam, exam));
  for (const i of asked.used) used.add(i);
  return { exam, unplaced, used };
}
