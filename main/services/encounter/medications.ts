/**
 * The medications the patient is on, and allergies. A drug named with a dose before the
 * assessment and plan ("I take metformin 500 mg twice a day", "we have you on lisinopril 20 mg")
 * is a current medication; one the patient stopped is kept as stopped; adherence is read from
 * the patient's words about it ("sometimes I forget"). Changes the clinician orders are plan
 * items (plan.ts), not the current list.
 */
import { createPhraseMatcher, type PhraseMatcher } from '../clinical-language/phrase-match.js';
import { DRUG_PHRASES } from '../clinical-language/medications.js';
import { readDoses } from '../clinical-language/doses.js';
import { readFrequencies } from '../clinical-language/units.js';
import { answerPolarity, contextOf } from '../clinical-language/context.js';
import { INJECTED_IN, isDoneProcedure } from './procedures.js';
import { evidenceOf, type Said } from './said.js';
import type { Adherence, Allergy, Medication } from './types.js';

const lexicon = createPhraseMatcher(DRUG_PHRASES);

/** The lexicon plus the caller's medication list (names it spells its own way). */
// A caller's list compiles into a matcher once (compiling the lexicon's alternation costs about a second).
const byList = new Map<string, PhraseMatcher<string>>();

export function drugMatcher(listed: readonly string[]): PhraseMatcher<string> {
  if (listed.length === 0) return lexicon;
  const key = listed.join('\u0000').toLowerCase();
  const cached = byList.get(key);
  if (cached) return cached;
  if (byList.size > 32) byList.delete(byList.keys().next().value!);
  const matcher = createPhraseMatcher([...DRUG_PHRASES, ...listed.map((n) => ({ value: n.toLowerCase(), phrases: [n] }))]);
  byList.set(key, matcher);
  return matcher;
}

const CHANGE = /\b(?:increase|decrease|reduce|lower|raise|bump|start|switch|change|add|begin|initiate|prescribe|titrate|wean|taper)\w*\b/i;
const NEVER_ASKED = /\b(?:did (?:they|he|she|anyone|we|you) (?:put you on|give you|start you on|prescribe)|have you (?:ever )?(?:tried|taken|used|been on|been put on)|did you (?:try|take|use)|were you (?:ever )?(?:on|put on|given))\b/i;
const STOPPED = /\b(?:stopped|quit|no longer tak\w+|not taking|came off|discontinued|ran out)\b/i;
// A speaker correcting what was just said ("no actually", "sorry, I mean", "I'm wrong").
const SELF_CORRECTION = /\b(?:no,? actually|actually,? no|sorry,? (?:i mean|it's|it is)|i mean|correction|i'm wrong|i was wrong|let me correct)\b/i;

/** The patient admits missing doses ("sometimes I miss a dose or two", "I forget"). */
export const MISSED_DOSES = /(?<!\b(?:never|rarely|not|don't|do not|didn't|haven't|won't|can't)\s+(?:\w+\s+)?)\b(?:forget|forgot|miss(?:ed|ing)? (?:a |some )?doses?|miss(?:ed|ing)? (?:them|it|those|these|my (?:meds|medications?|medicines?|pills|doses))|skip(?:ped|ping)?|not (?:always|really) (?:taking|consistent)|sometimes i (?:forget|don't))\b/i;
const TAKING = /\b(?:taking (?:it|them) (?:every ?day|daily|regularly|as prescribed)|every day|staying on top of|consistent with|compliant|haven't missed|never miss|pretty regular)\b/i;
const ROUTES: [RegExp, string][] = [[/\bunder (?:the|your|his|her) tongue\b|\bsublingual\w*/i, 'sublingual'], [/\binhal\w*|\bpuffs?\b|\binhaler\b/i, 'inhaled'], [/\bcream\b|\bointment\b|\btopical\w*|\bgel\b/i, 'topical'], [/\binject\w*|\bshots?\b|\bsubcutaneous\w*/i, 'subcutaneous'], [/\bby mouth\b|\boral\w*|\bpills?\b|\btablets?\b/i, 'oral']];
/** A reply that opens with the dose: "yes, 500 mg twice a day", "I take 20 milligrams", "it's 10 mg". */
const REPLY_DOSE = /^\W*(?:(?:yes|yeah|yep|yup|uh-huh|mm-hmm|i do|i am|still|correct|right)\b[\s,.]*)*(?:(?:i take|i'm on|i am on|it's|it is|about|around|just)\s+)?\d+(?:\.\d+)?\s*(?:mg|milligrams?|mcg|micrograms?|units?)\b(?!\s*(?:per|\/))/i;
const ON_IT = /\b(?:have you on|you(?:'re| are) on|i(?:'m| am) on|i take|i(?:'m| am) taking|you(?:'re| are) taking|the dose is|it(?:'s| is))\b/i;
/** Units a drug's dose is measured in. */
export const MASS = new Set(['mass', 'dose', 'volume']);
// Words that say the patient takes a drug, just before or after its name ("I take", "you're on", "using", "twice a day").
const TAKES_BEFORE = /\b(?:take|takes|taking|on|using|use|uses|prescribed|refill|refills|dose|doses)\s+(?:[\w,'-]+\s+){0,4}$/i;
const TAKES_AFTER = /^\W*(?:\w+\s+){0,3}?(?:daily|every|twice|once|a day|at night|at bedtime|as needed|in the morning|regularly|for (?:my|your|his|her))\b/i;
// "I took some Tylenol, I took some ibuprofen": what the patient tried for this complaint.
const TRIED = /\b(?:i|he|she|you)(?:'ve| have| has)?\s+(?:tried|took|used|been using|been taking)\s+(?:[\w,'-]+\s+){0,3}$/i;
// "The Wixela that you're not taking", "the inhaler you aren't taking every day": a relative clause on the drug.
const NAMES_WHICH = /^\s*(?:that|which)?\s*(?:you(?:'re| are)|she(?:'s| is)|he(?:'s| is)|i(?:'m| am)|we(?:'re| are))\s*(?:not|n't)\s+taking\b(?!\s+(?:it\s+)?(?:anymore|any more|at all))/i;
// "They stopped that", "I ran out of it": a stop said of the drug named just before.
const STOPPED_IT = /\b(?:stopped|discontinued|took (?:me|him|her|you) off|not taking (?:it|that|them)|no longer tak\w+|quit|came off|ran out)\b/i;

/**
 * How the patient takes a drug, from the patient's own words: a clinician's question is not an answer
 * ("have you been taking the Zyrtec every day?" is adherence only when the reply says yes), and a
 * missed dose the patient admits outweighs any "as prescribed".
 */
function adherenceSaid(s: Said, reply: Said | undefined, stopped: boolean): Adherence | undefined {
  // A statement is read as said ("you're taking that every day as well"); a question only through its answer.
  const patient = s.question ? (reply?.speaker === 'patient' ? reply : undefined) : s;
  const yes = s.question && patient !== undefined && answerPolarity(patient.spoken) === 'positive';
  if ((patient && MISSED_DOSES.test(patient.text)) || (yes && MISSED_DOSES.test(s.text))) return 'missing doses';
  if (stopped) return 'not taking';
  if ((patient && TAKING.test(patient.text) && !/\bnot\b|n't\b/i.test(patient.text)) || (yes && TAKING.test(s.text))) return 'taking as prescribed';
  return undefined;
}

export const capitalise = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

// The clinician asking how often a drug is taken: "how often do you take it?", "is that once a day or twice a day?".
// Only a question about taking the drug ("how often do you take it?"), not about a symptom ("how often do you get the headaches?").
const SCHEDULE_ASKED = /\bhow (?:often|many times)(?: a day)? (?:do|did|are|should) you (?:take|use|taking|using)\b|\b(?:once|twice|three times) (?:a|per) day\b[^?]*\bor\b|\bis that (?:once|twice|daily|every|in the morning|at night)\b|\bwhat time of day do you take\b/i;
const TABLETS_AFTER = /^\s*,?\s*(2|3|4|two|three|four)\s+(tablets?|pills?|capsules?)\b/i;
const PROPOSED = /\b(?:want to|going to|gonna|'ll|will|would like to|'d like to|let's|plan to|thinking (?:of|about))\s+(?:\w+\s+){0,2}?(?:put (?:you|him|her) on|start|switch|try|prescribe|give (?:you|him|her)|add|change)\b|\bthe thing about\b/i;
const COUNT_WORDS: Record<string, string> = { one: '1', two: '2', three: '3', four: '4' };

/** A drug's dose said within eight words after its name. */
export function doseAfter(text: string, end: number): { text: string; end: number } | undefined {
  // Counted doses ("2 puffs", "1 tablet") are doses too, said as counts.
  const counted = /^\D{0,30}?\b(\d+(?:\.\d+)?|one|two|three|four)\s+(puffs?|tablets?|tabs?|pills?|capsules?|drops?|sprays?)\b/i.exec(text.slice(end));
  const d = readDoses(text).find((x) => !x.uncertain && MASS.has(x.unit.kind) && x.start >= end && text.slice(end, x.start).split(/\s+/).filter(Boolean).length <= 8);
  if (!d || (counted && end + counted.index + counted[0].length < d.start)) {
    return counted ? { text: `${COUNT_WORDS[counted[1]!.toLowerCase()] ?? counted[1]} ${counted[2]!.toLowerCase().replace(/^tab(s?)$/, 'tablet$1')}`, end: end + counted.index + counted[0].length } : undefined;
  }
  const low = /(\d+(?:\.\d+)?)-$/.exec(text.slice(Math.max(0, d.start - 12), d.start));
  return { text: low ? `${low[1]}-${d.text}` : d.text, end: d.end };
}

export function frequencyAfter(text: string, end: number): string | undefined {
  // "every 4 hours as needed": a schedule and "as needed" said together are one frequency.
  // The number reader writes "three times a day" as "3 times a day"; the frequency reader knows the words.
  text = text.replace(/\b([1-4]) times (a|per) (day|week)\b/gi, (_m, n: string, a: string, u: string) => `${['', 'once', 'twice', 'three times', 'four times'][Number(n)]} ${a} ${u}`);
  // Not across a sentence's end: "start ibuprofen 600 mg. You don't have to take it every day" gives no schedule.
  const found = readFrequencies(text).filter((f) => f.start >= end && text.slice(end, f.start).split(/\s+/).filter(Boolean).length <= 8 && !/[.;?!](?:\s|$)/.test(text.slice(end, f.start)));
  // The second only when said with the first ("every 4 hours as needed"), never the next drug's ("... and lisinopril 10 mg once a day").
  const together = found.slice(0, 2).filter((f, k) => k === 0 || (!/\d/.test(text.slice(found[0]!.end, f.start)) && text.slice(found[0]!.end, f.start).split(/\s+/).filter(Boolean).length <= 2));
  return found.length ? [...new Set(together.map((f) => f.plain))].join(' ') || undefined : undefined;
}

/** "600 milligrams of ibuprofen": the dose said right before the drug (its end given as the drug's, where its schedule is read from). */
export function doseBefore(text: string, start: number, end: number, bare = false): { text: string; end: number } | undefined {
  // Only "N mg of X": a dose standing bare before a drug may be the previous drug's ("metformin 500 mg lisinopril 10 mg").
  const before = readDoses(text).find((d) => !d.uncertain && MASS.has(d.unit.kind) && d.end <= start && (bare ? /^\s*(?:of\s+)?(?:the\s+)?$/i : /^\s*of\s+(?:the\s+|my\s+|your\s+|his\s+|her\s+)?$/i).test(text.slice(d.end, start)));
  return before ? { text: before.text, end } : undefined;
}

const TIMING = /^\s*(?:\S+\s+){0,3}?\b(in the morning|in the evening|every morning|every evening|every night|with (?:meals|breakfast|dinner|food))\b/i;
/** "... and (keep|continue|take) the 500 mg at night": a second dose of the same drug at another time of day. */
const SPLIT_DOSE = /\band\s+(?:(?:keep|continue|take|stay on|leave)\s+)?(?:the\s+|your\s+)?\d+(?:\.\d+)?\s*(?:mg|milligrams?|mcg|micrograms?|units?)\b/i;

/**
 * The schedule said after a drug's dose, read up to another dose said: "1000 mg in the morning and keep the 500 mg at
 * night" gives the morning to the 1000 mg, and the evening dose is kept beside it as part of the one day's schedule.
 * `upTo` ends where the next drug is named.
 */
export function scheduleAfter(upTo: string, after: number, dosed: boolean): string | undefined {
  const nextDose = readDoses(upTo).find((d) => !d.uncertain && MASS.has(d.unit.kind) && d.start >= after);
  const own = nextDose ? upTo.slice(0, nextDose.start) : upTo;
  const frequency = frequencyAfter(own, after) ?? TIMING.exec(own.slice(after))?.[1]?.toLowerCase();
  // Only "and (keep) the 500 mg at night" right after this dose's time of day, said of no other drug ("400 mg of coq10"),
  // and with no step in time ("after a week"): then both doses are this drug's day.
  const split = nextDose && frequency && dosed ? SPLIT_DOSE.exec(upTo.slice(after, nextDose.end)) : null;
  const tail = nextDose ? upTo.slice(nextDose.end) : '';
  if (split && nextDose && /^\s*(?:\S+\s+){0,3}?(?:in the morning|in the evening|at night|at bedtime|with (?:breakfast|dinner|lunch))\b/i.test(own.slice(after))
    && /^\s*(?:in the morning|in the evening|at night|at bedtime|every (?:morning|evening|night)|with (?:breakfast|dinner|lunch))\b/i.test(tail)
    && !/\b(?:after|then|later|week|weeks|days|month|until|starting)\b/i.test(tail.split(/[.;]/)[0] ?? '')) {
    const when = frequencyAfter(upTo, nextDose.end) ?? TIMING.exec(tail)?.[1]?.toLowerCase();
    if (when) return `${frequency} and ${nextDose.text} ${when}`;
  }
  return frequency;
}

export function routeOf(text: string): string | undefined {
  return ROUTES.find(([re]) => re.test(text))?.[1];
}

/**
 * "Are you still taking the metformin?" "Yes, 500 mg twice a day.": the reply to the question about the drug doses it.
 * Only a reply to whether the drug is taken now, whose dose opens the reply ("yes, 500 mg twice a day"): not "yes, and
 * the water pill 25 mg", a lab value ("150 milligrams per deciliter"), a dose talked of or taken before ("when I was on
 * 1000"). True when the sentence is the drug's ("we have you on 20 mg a day"), whether or not it gave a dose.
 */
function doseFromReply(s: Said, said: readonly Said[], undosed: { at: number }, med: Medication | undefined, used: Set<number>): boolean {
  const asked = said[undosed.at];
  const replyToIt = s.speaker === 'patient' && s.answers === undosed.at && answerPolarity(s.spoken) !== 'negative'
    && asked !== undefined && /\b(?:taking|take|on|using|use)\b/i.test(asked.text) && !/\b(?:ever|tried|before|used to)\b/i.test(asked.text)
    && REPLY_DOSE.test(s.text) && !/\b(?:was|were|used to|went|never|but|before|until|stopped|talked|going up|going down|per|\/)\b/i.test(s.text);
  if (s.i - undosed.at > 2 || !(ON_IT.test(s.text) || replyToIt)) return false;
  const dose = doseAfter(s.text, 0);
  if (dose && med && !med.dose) {
    med.dose = dose.text;
    const frequency = frequencyAfter(s.text, dose.end);
    if (frequency) med.frequency = frequency;
    med.evidence.push(...evidenceOf(s));
    used.add(s.i);
  }
  return true;
}

/**
 * The schedule the patient gives right after the clinician names the drug, when it corrects or answers ("no, it's twice
 * a day now", "actually they increased it to twice a day"); only a reply that names no other drug.
 */
function correctedSchedule(s: Said, next: Said | undefined, matcher: PhraseMatcher<string>): string | undefined {
  if (s.speaker !== 'clinician' || next?.speaker !== 'patient' || next.turn === s.turn || matcher.find(next.text).length > 0) return undefined;
  if (!s.question && !/\b(?:no|actually|now|increased|decreased|changed|it's|it is)\b/i.test(next.text)) return undefined;
  return frequencyAfter(next.text, 0);
}

/**
 * Whether a drug named in a sentence is taken: only what the patient takes is a current medication; a drug named in
 * passing is "mentioned". "I want to put you on Alvesco, it's two puffs twice a day", "the thing about Alvesco is that it
 * would be ...": a drug the clinician proposes is not yet taken, whatever dose is said with it. "What are you doing for
 * the pain?" "Some exercises, ice and Mobic.": a drug named in answer to what is being taken is taken.
 */
function takenAsSaid(s: Said, said: readonly Said[], hit: { start: number; end: number }, ctx: { reply: Said | undefined; dosed: boolean; adherence: Adherence | undefined; listTaken: number | undefined }): { proposed: boolean; takes: boolean } {
  const before = s.text.slice(Math.max(0, hit.start - 40), hit.start);
  const proposed = s.speaker === 'clinician' && (PROPOSED.test(s.text.slice(Math.max(0, hit.start - 60), hit.start)) || /^[^.;]{0,40}\b(?:would|will) be\b/i.test(s.text.slice(hit.end)));
  const answersTaking = s.speaker === 'patient' && s.answers !== undefined && /\bwhat (?:are|have|do) you (?:been )?(?:doing|taking|using|take|use)\b/i.test(said[s.answers]!.text);
  const takes = !proposed && (answersTaking || ctx.dosed || ctx.adherence !== undefined || ON_IT.test(before) || TAKES_BEFORE.test(before)
    || TAKES_AFTER.test(s.text.slice(hit.end)) || (s.question && ctx.reply !== undefined && answerPolarity(ctx.reply.spoken) === 'positive')
    || (ctx.listTaken !== undefined && /^[\s,]*(?:and|or)?\s*(?:(?:the|a|an|some|my|his|her)\s+)?$/i.test(s.text.slice(ctx.listTaken, hit.start))));
  return { proposed, takes };
}

/** The schedule given in reply to the clinician's question about it, written on the drug just dosed; true when read. */
function scheduleFromReply(s: Said, said: readonly Said[], med: Medication, used: Set<number>): boolean {
  const reply = s.reply !== undefined ? said[s.reply] : undefined;
  if (med.frequency || s.speaker !== 'clinician' || !s.question || !SCHEDULE_ASKED.test(s.text) || reply?.speaker !== 'patient') return false;
  const frequency = frequencyAfter(reply.text, 0);
  if (!frequency || answerPolarity(reply.spoken) === 'negative') return false;
  med.frequency = frequency;
  med.evidence.push(...evidenceOf(s, reply));
  used.add(s.i).add(reply.i);
  return true;
}

/** Current and past medications, from before the assessment and plan. */
export function readMedications(said: Said[], listed: readonly string[]): { medications: Medication[]; used: Set<number> } {
  const matcher = drugMatcher(listed);
  const byDrug = new Map<string, Medication>();
  const used = new Set<number>();
  let lastUndosed: { generic: string; at: number } | undefined;
  let pending: { generic: string; name: string; at: number; said: Said } | undefined;
  let lastSeen: number | undefined;
  let lastDosed: { generic: string; at: number } | undefined;
  for (const s of said) {
    if (s.talk || s.phase === 'plan' || s.unclearNumber) continue;
    // What is injected in a procedure of the visit ("now I'm injecting 80 mg of triamcinolone") is no drug the patient takes.
    // Nor one injected on another day ("we injected your knee with 40 mg of kenalog back in March"): it is no daily medicine.
    const hits = /\ballerg/i.test(s.text) || (s.speaker === 'clinician' && isDoneProcedure(s.text)) ? [] : matcher.find(s.text).filter((h) => !INJECTED_IN.test(s.text.slice(Math.max(0, h.start - 50), h.start)));
    // "Are you taking the lisinopril?" "We have you on 20 mg a day": the dose said next is the drug's said last.
    if (hits.length === 0 && pending && s.i - pending.at <= 2 && ON_IT.test(s.text) && doseAfter(s.text, 0)) {
      byDrug.set(pending.generic, { name: pending.name, generic: pending.generic, status: 'current', evidence: evidenceOf(pending.said) });
      lastUndosed = { generic: pending.generic, at: pending.at };
      pending = undefined;
    }
    // "Metformin 500 mg." "Is that once a day or twice a day?" "Twice a day.": the schedule asked of the drug just dosed is its schedule.
    const unscheduled = lastDosed && s.i - lastDosed.at <= 3 ? byDrug.get(lastDosed.generic) : undefined;
    if (hits.length === 0 && unscheduled && scheduleFromReply(s, said, unscheduled, used)) {
      lastDosed = undefined;
      continue;
    }
    if (hits.length === 0 && lastUndosed && doseFromReply(s, said, lastUndosed, byDrug.get(lastUndosed.generic), used)) continue;
    if (hits.length === 0) {
      const last = [...byDrug.values()].pop();
      if (last && lastSeen !== undefined && s.i - lastSeen <= 2 && STOPPED_IT.test(s.text) && /\b(?:it|that|them|those)\b/i.test(s.text)) {
        last.status = 'stopped';
        last.evidence.push(...evidenceOf(s));
        used.add(s.i);
      }
      continue;
    }
    lastSeen = s.i;
    // "I'm taking Farxiga and amlodipine and lisinopril and the hydrochlorothiazide": a list said after "taking" is taken.
    let listTaken: number | undefined;
    for (const hit of hits) {
      const ctx = contextOf(s.text, hit.start, hit.end);
      if (ctx.family || ctx.hypothetical) continue;
      // "No one has put you on prednisone", "I've never been on insulin": the drug itself is denied, so it is
      // only mentioned. A negation about something else said of the drug ("no side effects from the
      // metformin") leaves the drug as it is.
      const between = ctx.negated && ctx.trigger ? s.text.slice(ctx.trigger.end, hit.start) : undefined;
      // Only a denial of being on the drug counts ("put you on", "been on", "prescribed"), never one about taking it ("I haven't missed a dose of my lisinopril").
      if (between !== undefined && between.split(/\s+/).filter(Boolean).length <= 6 && /\b(?:on|put|prescribed|given|started)\b/i.test(between)
        && !/\b(?:side effects?|problems?|issues?|trouble|reactions?|allerg\w*|complaints?|changes?|pain|symptoms?|miss\w*|forget\w*|forgot|skip\w*|dose|doses)\b/i.test(between) && !STOPPED.test(s.text) && !MISSED_DOSES.test(s.text)) {
        if (!byDrug.has(hit.value)) byDrug.set(hit.value, { name: capitalise(s.text.slice(hit.start, hit.end)), generic: hit.value, status: 'mentioned', evidence: evidenceOf(s) });
        used.add(s.i);
        continue;
      }
      // "Are you taking the lisinopril?" with no answer yet: the drug waits for a dose said next ("we have you on 20 mg").
      if (s.question && s.speaker === 'clinician' && s.reply === undefined) {
        pending = { generic: hit.value, name: capitalise(s.text.slice(hit.start, hit.end)), at: s.i, said: s };
        continue;
      }
      const name = capitalise(s.text.slice(hit.start, hit.end));
      // A change said of this drug ("increase the lisinopril to 20 mg") gives a new dose, not the one taken; a change said
      // in another clause ("we increased it, so I've got you on metformin 500 mg twice a day") leaves this one as taken.
      const clause = s.text.slice(0, hit.start).split(/,|;|\b(?:so|and|but)\b/i).pop() ?? '';
      // The drug's own words end where the next drug is named ("1000 mg of tylenol in the morning and 500 mg at night").
      const upTo = s.text.slice(0, hits.find((h) => h.start > hit.end && h.value !== hit.value)?.start ?? s.text.length);
      // "I was on 20 mg of lipitor, but Dr. Jones increased it to 40 mg": a dose changed later in the sentence is no longer taken.
      const changedLater = /\b(?:increased|decreased|raised|lowered|changed|switched|doubled|cut|went up|went down|bumped)\b/i.test(s.text.slice(hit.end));
      const dose = CHANGE.test(clause) || CHANGE.test(s.text.slice(hit.end).split(/,|;|\b(?:so|and|but)\b/i)[0] ?? '') ? undefined : (changedLater ? undefined : doseBefore(upTo, hit.start, hit.end)) ?? doseAfter(s.text, hit.end);
      // "Metformin 500 mg, two tablets twice a day": the tablets taken at once are part of the dose.
      const tablets = dose ? TABLETS_AFTER.exec(upTo.slice(dose.end)) : null;
      if (dose && tablets) Object.assign(dose, { text: `${dose.text}, ${COUNT_WORDS[tablets[1]!.toLowerCase()] ?? tablets[1]} ${tablets[2]!.toLowerCase().replace(/s$/, '')}s`, end: dose.end + tablets[0].length });
      const reply = s.reply !== undefined ? said[s.reply] : undefined;
      // "You're on metformin 500 mg once a day?" "No, it's twice a day now.": the patient's schedule corrects the one asked.
      const replied = correctedSchedule(s, reply ?? said[s.i + 1], matcher);
      const frequency = replied ?? (dose ? scheduleAfter(upTo, dose.end, true) : undefined);
      const prev = byDrug.get(hit.value);
      // "Are you taking the lisinopril?" "No, I stopped it": the answer says whether.
      const talk = `${s.text} ${reply?.speaker === 'patient' ? reply.text : ''}`;
      // "Did the Tylenol help?" "Not really.": a no about how the drug works is no stop; only one about taking it is.
      const denied = s.question && reply !== undefined && !replied && answerPolarity(reply.spoken) === 'negative' && !/\b(?:help\w*|work\w*|effective|side effects?|bother\w*|upset|agree with|do anything)\b/i.test(s.text);
      // "Did they put you on any prednisone?" "Nope.": never taken, neither current nor stopped.
      if (denied && NEVER_ASKED.test(s.text) && !STOPPED.test(talk)) {
        if (!prev) byDrug.set(hit.value, { name, generic: hit.value, status: 'mentioned', evidence: evidenceOf(s, reply) });
        used.add(s.i);
        continue;
      }
      // "That is the Wixela that you're not taking. How many days a week do you use it?": a present "not taking"
      // in a clause that names which drug is meant describes how it is used, not a stop.
      const naming = NAMES_WHICH.test(s.text.slice(hit.end)) && !STOPPED.test(s.text.slice(0, hit.start)) && !STOPPED.test(reply?.speaker === 'patient' ? reply.text : '');
      const stopped = (STOPPED.test(talk) && !naming) || denied;
      const adherence = adherenceSaid(s, reply, stopped);
      const ev = evidenceOf(s, reply?.speaker === 'patient' ? reply : undefined);
      // Only what the patient takes is a current medication; a drug named in passing is "mentioned".
      const { proposed, takes } = takenAsSaid(s, said, hit, { reply, dosed: dose !== undefined, adherence, listTaken });
      listTaken = takes ? hit.end : undefined;
      // A proposal is left for the plan's reading, which orders it.
      if (!proposed) used.add(s.i);
      if (prev) {
        prev.evidence.push(...ev);
        // "Metformin 500 mg once a day, no actually, last visit we increased it, so you're on metformin 500 mg twice a day": the corrected dose wins.
        const earlier = said[s.i - 1]?.speaker === s.speaker && said[s.i - 1]?.turn === s.turn ? said[s.i - 1]!.text : '';
        const corrected = SELF_CORRECTION.test(`${earlier.slice(-60)} ${s.text.slice(0, hit.start)}`.slice(-160));
        if ((corrected || !prev.dose) && dose && !proposed) prev.dose = dose.text;
        if ((corrected || !prev.frequency) && frequency && !proposed) prev.frequency = frequency;
        if (adherence) prev.adherence = adherence;
        if (stopped) prev.status = 'stopped';
        else if (takes && prev.status === 'mentioned') prev.status = 'current';
        continue;
      }
      const route = routeOf(s.text);
      if (!dose) lastUndosed = { generic: hit.value, at: s.i };
      lastDosed = dose && !frequency ? { generic: hit.value, at: s.i } : undefined;
      byDrug.set(hit.value, {
        name, generic: hit.value, ...(dose ? { dose: dose.text } : {}), ...(route ? { route } : {}), ...(frequency ? { frequency } : {}),
        ...(adherence ? { adherence } : {}), status: stopped ? 'stopped' : takes ? 'current' : TRIED.test(s.text.slice(Math.max(0, hit.start - 40), hit.start)) ? 'past' : 'mentioned', evidence: ev,
      });
    }
  }
  return { medications: [...byDrug.values()], used };
}

const NONE = /\b(?:no (?:known )?(?:drug |medication )?allergies|not allergic|nkda|no allergies)\b/i;
const ALLERGIC = /\ballergic to ([a-z][a-z -]{2,40}?)(?=[,.;]|$| (?:and|but|it|which|that|so|i|they)\b)|\ballerg(?:y|ies) to ([a-z][a-z -]{2,40}?)(?=[,.;]|$| (?:and|but|it|which|that|so|i|they)\b)/i;
const REACTION = /\b(rash|hives|swelling|anaphylaxis|itching|throat (?:closes|closing|swelling)|shortness of breath|nausea|vomiting|upset stomach)\b/i;

/** Allergies said, or their absence ("no known drug allergies", "any allergies?" "no"). */
export function readAllergies(said: Said[]): { allergies: Allergy[]; used: Set<number> } {
  const out: Allergy[] = [];
  const used = new Set<number>();
  for (const s of said) {
    if (s.talk || !/\ballerg|\bnkda\b/i.test(s.text)) continue;
    const reply = s.reply !== undefined ? said[s.reply] : undefined;
    if (s.question && s.speaker === 'clinician') {
      if (!reply || !/\b(?:medications?|drugs?|medicine|anything)\b/i.test(s.text)) continue;
      if (answerPolarity(reply.spoken) === 'negative' && !ALLERGIC.test(reply.text)) {
        out.push({ substance: 'none known', evidence: evidenceOf(s, reply) });
        used.add(s.i).add(reply.i);
      }
      continue;
    }
    if (NONE.test(s.text)) {
      out.push({ substance: 'none known', evidence: evidenceOf(s) });
      used.add(s.i);
      continue;
    }
    const m = ALLERGIC.exec(s.text);
    if (!m) continue;
    const at = m.index + m[0].indexOf(m[1] ?? m[2]!);
    if (contextOf(s.text, at, at + (m[1] ?? m[2]!).length).negated) continue;
    const substance = (m[1] ?? m[2]!).replace(/\b(?:the|my|some|a|an)\b\s*/gi, '').trim();
    const reaction = REACTION.exec(s.text.slice(m.index + m[0].length))?.[1];
    out.push({ substance, ...(reaction ? { reaction } : {}), evidence: evidenceOf(s) });
    used.add(s.i);
  }
  // Said twice: one each.
  const seen = new Set<string>();
  return { allergies: out.filter((a) => !seen.has(a.substance) && seen.add(a.substance)), used };
}
