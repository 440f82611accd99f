/**
 * Utterance classification: each transcript sentence is routed to the note section it
 * documents, or recognised as small talk. Rules over clinical cue words, speaker role and
 * position in the encounter, plus how informative the sentence is (learned word salience).
 */
import type { Sentence } from './transcript.js';
import type { SectionKind } from './sections.js';
import { symptomsIn } from '../../../services/clinical-language/lexicon.js';
import { isDrugWord } from '../../../services/clinical-language/medications.js';
import { SALIENCE } from './generated/salience.js';

const SMALL_TALK =
  /^(hi|hello|hey|good (morning|afternoon|evening)|how are you|nice to (see|meet)|thank(s| you)|you're welcome|bye|goodbye|take care|have a (good|great|nice)|okay|ok|all right|alright|sure|yes|yeah|yep|no|nope|right|great|good|perfect|sounds good|wonderful|awesome|mm|uh|um|i see|got it|exactly|absolutely|of course|definitely|correct|fine)\b[\s,.!?]*$/i;
const META = /\b(dragon|dax|hey computer|show me|pull up|go ahead and (open|pull)|finalize the note|end of (the )?(note|recording)|i'm going to document|let me document|the nurse told you)\b/i;
const STOP = new Set(
  'a an the and or but so if then of to in on at for with by from as is are was were be been being am i me my you your he she it we they them his her its our their this that these those there here what which who whom how when where why do does did doing done have has had having not no yes yeah okay ok all right just really very like um uh well also too get got go going gone come came can could will would should may might must shall let lets kind sort thing things stuff lot bit little some any one about up out over more much now still even back know think see say said tell told mean way good great sure right oh'.split(' '),
);

const RULES: { kind: SectionKind; re: RegExp; roles: ('doctor' | 'patient' | 'any')[]; weight: number }[] = [
  { kind: 'allergies', re: /\ballerg(y|ies|ic)\b/i, roles: ['any'], weight: 3 },
  { kind: 'vitals', re: /\b(blood pressure|heart rate|pulse ox|oxygen saturation|o2 sat|respiratory rate|temperature (is|was|of)|vital signs|vitals)\b.*\d|\d.*\b(blood pressure|heart rate|oxygen|temperature)\b/i, roles: ['doctor'], weight: 3 },
  { kind: 'results', re: /\b(x-?rays?|mri|ct scan|cat scan|ct|ultrasound|echocardiogram|echo|ekg|ecg|electrocardiogram|labs?|lab work|blood work|bloodwork|a1c|hemoglobin|hematocrit|cholesterol|ldl|creatinine|gfr|biopsy|culture|urinalysis|pathology|imaging|mammogram|stress test|pft|results?|came back|showed|shows|revealed|reveals|demonstrat\w+|levels?)\b/i, roles: ['doctor'], weight: 2 },
  { kind: 'exam', re: /\b(on (physical )?exam(ination)?|exam|examin\w+|auscultat\w+|palpat\w+|tender(ness)?|non-?tender|murmurs?|gallops?|rubs?|rales|crackles|rhonchi|wheez\w+|clear to|range of motion|reflexes|pulses|edema|effusion|erythema|crepitus|swelling|bruising|strength|sensation|your (heart|lungs?|abdomen|belly|neck|knee|shoulder|back|skin|eyes|ears|throat)|i (do not|don't|do|can) (hear|feel|see|appreciate|notice)|appreciate|looks? (good|normal|fine|clear)|sounds? (clear|good|normal)|capillary refill|intact|supple|soft)\b/i, roles: ['doctor'], weight: 2 },
  { kind: 'family', re: /\b(family history|runs? in (the|my|your|our) family|in (the|your|my) family|(my|your|his|her) (mother|mom|father|dad|sisters?|brothers?|siblings?|grandmother|grandfather|grandma|grandpa|grandparents|aunts?|uncles?|cousins?|parents)\b[^.?!]{0,40}\b(had|has|have|died|passed|history|cancer|disease|diabetes|pressure|stroke|heart attack))\b/i, roles: ['any'], weight: 2 },
  { kind: 'social', re: /\b(smok\w*|cigarettes?|tobacco|vap(e|ing)|alcohol|drink(s|ing)?|beers?|wine|marijuana|recreational|drugs? use|work(s|ing)? (as|at|in)|my job|retired|married|divorced|live (with|alone)|lives (with|alone)|exercis\w+|hobb(y|ies)|gym|running|walking|diet|caffeine|coffee|kids|children|grandkids)\b/i, roles: ['any'], weight: 1.5 },
  { kind: 'surgical', re: /\b(surgery|surgeries|operation|operated|\w+ectomy|\w+otomy|\w+plasty|replacement|repair|removed|appendix|gallbladder|c-section)\b/i, roles: ['any'], weight: 1.5 },
  { kind: 'pmh', re: /\b(history of|diagnosed with|past medical|medical history|i have (diabetes|hypertension|asthma|copd|high blood pressure)|(type (1|2|one|two)) diabetes|diabetes|hypertension|high blood pressure|high cholesterol|asthma|copd|heart failure|heart disease|depression|anxiety|arthritis|cancer|stroke|heart attack|kidney disease|thyroid|sleep apnea|reflux|gerd|migraines?|seizures?|hepatitis|hiv|illness(es)?|medical (problems|conditions|issues))\b/i, roles: ['any'], weight: 1 },
  { kind: 'medications', re: /\b(i('m| am) (taking|on)|i take|i've been taking|you('re| are) (taking|on)|medications?|meds|prescri\w+|pills?|tablets?|inhaler|\d+ ?(mg|milligrams?|mcg|units)|once a day|twice a day|daily|supplements?)\b/i, roles: ['any'], weight: 1.5 },
  { kind: 'assessment', re: /\b(diagnos\w+|impression|assessment|consistent with|suggestive of|likely|suspect|i (think|believe|feel) (that )?(you|this|it|that|she|he)|it (looks|sounds|seems) like|you have (a|an)|this is (a|an|likely|probably)|sprain|strain|fracture|tear|infection|syndrome|disease|disorder|\w+itis|well controlled|stable|uncontrolled|worsening)\b/i, roles: ['doctor'], weight: 2 },
  { kind: 'instructions', re: /\b(call (us|me|the office)|if (you|it|things|that|your|the) .*\b(worse|worsen|persist|doesn't|does not|continue|change|develop)|go to the (er|emergency)|any (other )?questions|questions or concerns|reach out|message me|patient portal)\b/i, roles: ['doctor'], weight: 1.5 },
  { kind: 'plan', re: /\b(i'm going to|i am going to|we're going to|we are going to|we'll|we will|i'll|i will|i want (you )?to|i'd like (you )?to|i would like (you )?to|let's|prescrib\w+|order(ed|ing)?|refer\w*|follow[- ]?up|come back|see you (back|again|in)|schedule|continue|increase|decrease|start(ed)? (you|on)|stop(ping)? (the|your)|recommend\w*|physical therapy|injection|treatment|plan|need to|make sure|monitor|repeat|change (your|the)|adjust|keep (taking|an eye))\b/i, roles: ['doctor'], weight: 2 },
];

// Global-flag copies for counting matches, compiled once.
const GLOBAL_RULES = new Map(RULES.map((r) => [r.kind, new RegExp(r.re.source, 'gi')]));

/** Content words of a sentence (lower-case, stop words removed). */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'-]*/gu) ?? []).filter((w) => !STOP.has(w) && w.length > 1);
}

// Tuned on ACI-Bench valid (never on the test splits): below this a sentence is small talk.
export const MIN_WEIGHT = 1.0;
const UNSEEN_SALIENCE = 0.45;
const LENGTH_PENALTY = 0.1;

/**
 * How much of a sentence clinicians would carry into a note: summed word salience (learned
 * from ACI-Bench train, see scripts/train-notes-lexicon.ts) minus a per-word cost, so chatty
 * long sentences lose to dense clinical ones.
 */
export function informativeness(text: string): number {
  const all = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  let w = 0;
  for (const t of new Set(contentWords(text))) w += SALIENCE[t] ?? (/^\d/.test(t) ? 0.8 : UNSEEN_SALIENCE);
  w -= LENGTH_PENALTY * all.length;
  w += symptomsIn(text).length * 0.5;
  w += contentWords(text).filter((x) => isDrugWord(x)).length;
  return w;
}

/** True for small talk and device commands ("okay.", "hey Dragon, show me the x-ray."). */
export function isSmallTalk(text: string): boolean {
  return SMALL_TALK.test(text) || META.test(text);
}

/** The section a transcript sentence documents, by clinical cues, speaker and place in the visit. */
export function kindOf(s: Sentence): SectionKind | undefined {
  const role = s.role === 'unknown' ? 'any' : s.role;
  let best: SectionKind | undefined;
  let bestScore = 0;
  for (const rule of RULES) {
    if (!rule.roles.includes('any') && !rule.roles.includes(role as 'doctor' | 'patient') && role !== 'any') continue;
    const matches = s.text.match(GLOBAL_RULES.get(rule.kind)!);
    if (!matches) continue;
    let score = rule.weight * Math.min(2, matches.length);
    // The encounter's usual order: history first, then exam, then assessment and plan.
    if ((rule.kind === 'plan' || rule.kind === 'assessment' || rule.kind === 'instructions') && s.position > 0.55) score += 1;
    if ((rule.kind === 'exam' || rule.kind === 'results') && s.position > 0.35) score += 1;
    // A clinician talking about medicines is usually changing them (plan), a patient listing them.
    if (rule.kind === 'medications' && s.role === 'doctor' && s.position > 0.5) score -= 1.5;
    if (score > bestScore) {
      bestScore = score;
      best = rule.kind;
    }
  }
  // A drug named with nothing else to place the sentence ("Oxycontin and Vicodin.") is the medication list.
  if (!best && (s.role !== 'doctor' || s.position <= 0.5) && contentWords(s.text).some((w) => isDrugWord(w))) return 'medications';
  if (best) return best;
  if (s.role === 'patient' || s.role === 'unknown' || s.role === 'other') return 'hpi';
  // A clinician's statement with no cue: history early on, assessment/plan late in the visit.
  if (s.position < 0.5) return 'hpi';
  return /\b(you|your|we|i)\b/i.test(s.text) ? 'plan' : 'assessment';
}
