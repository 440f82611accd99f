/**
 * A medication order in a clinician's clause: which drug, what is done with it (start, continue,
 * change, stop...) and the dose it is ordered at. "Increase the lisinopril from 10 mg to 20 mg"
 * orders 20 mg; "switch you from Wixela to Alvesco 80 mcg" orders Alvesco and names what it
 * replaces; a drug the lexicon does not know is still read when the clinician orders it with a
 * dose ("start Xarelto 20 mg"), because a dose after an order word names a drug.
 * Conditions on an order ("if it doesn't improve we'll ...") are read in plan-condition.ts.
 */
import type { PhraseMatcher } from '../clinical-language/phrase-match.js';
import { readDoses } from '../clinical-language/doses.js';
import { capitalise, doseAfter, doseBefore, MASS, routeOf, scheduleAfter } from './medications.js';
import type { MedicationAction, PlanItem } from './types.js';

export const ACTIONS: [RegExp, MedicationAction][] = [
  [/\b(?:increase|up|double|raise|bump(?:ing)? up|go up on)\b/i, 'increase'], [/\b(?:decrease|reduce|lower|cut back|taper|wean|go down on|half|step (?:you )?down)\b/i, 'decrease'],
  [/\b(?:stop|discontinue|hold|come off|get you off|take you off)\b/i, 'stop'], [/\b(?:switch|change you|transition)\b/i, 'change'],
  [/\b(?:refill|renew)\b/i, 'refill'], [/\b(?:continue|keep (?:you|him|her|taking|on|the|your)|stay on|remain on|resume)\b/i, 'continue'],
  // Not "the kenalog should start working": a drug that starts to act is no order to start it.
  [/\b(?:start(?! (?:working|to work|helping|to help|kicking in|to kick in))|begin(?! (?:working|to work|to help))|initiate|put (?:you|him|her) on|try|add|prescribe|suggest|(?:want|need|like) (?:you|him|her) to (?:take|use)|have (?:you|him|her) (?:take|use|start|try)|(?:let's|we(?:'ll| will)) (?:do|go with|use)|^(?:and |then |so )?(?:do|use) the (?=\S+ (?:\d|one|two|three|four)\b)|^(?:and |then |so )?(?:use|take|apply)\b(?! (?:a|your) (?:deep )?breaths?)|giv(?:e|ing) (?:you|him|her)|get (?:you|him|her) (?:some|a prescription for|started on)|(?:you|he|she) (?:can|could|may) (?:use|take|try)|send (?:in )?(?:a )?(?:prescription|script)|(?:send|sending|call|calling) (?:in|over)|e-?prescrib(?:e|ing)|write (?:you )?(?:a )?(?:prescription|script)|writ(?:e|ing) (?:you|him|her)(?: up)? for|recommend)\b/i, 'start'],
];

// Words that stand before a dose without being a drug's name ("to 20 mg", "about 500 mg").
const NOT_A_DRUG = new Set('dose doses take taking about around under over below above less more than from to maybe like with only just daily total each extra another additional tablets tablet pills pill of the your his her some that this it its one two and or at up down on him you me us them give given'.split(' '));

type Hit = { value: string; start: number; end: number; name: string };

/** Drugs the lexicon finds, and words the clinician gives a dose to that it does not know. */
function drugsIn(t: string, drugs: PhraseMatcher<string>): Hit[] {
  const hits: Hit[] = drugs.find(t).map((h) => ({ ...h, name: t.slice(h.start, h.end) }));
  if (!ACTIONS.some(([re]) => re.test(t)) && !/\border\b/i.test(t)) return hits;
  for (const d of readDoses(t)) {
    if (d.uncertain || !MASS.has(d.unit.kind)) continue;
    const m = /\b([a-z][a-z-]{3,})\s*$/i.exec(t.slice(0, d.start));
    if (!m || NOT_A_DRUG.has(m[1]!.toLowerCase())) continue;
    const start = d.start - m[0].length + (m[0].length - m[0].trimStart().length);
    const end = start + m[1]!.length;
    if (hits.some((h) => h.start <= start && h.end >= end)) continue;
    hits.push({ value: m[1]!.toLowerCase(), start, end, name: m[1]! });
  }
  return hits.sort((a, b) => a.start - b.start);
}

/** The dose a drug is ordered at: for a change, the one said after "to" ("from 10 mg to 20 mg"). */
function orderedDose(t: string, start: number, end: number, action: MedicationAction): { text: string; end: number } | undefined {
  if (action === 'increase' || action === 'decrease' || action === 'change') {
    const to = readDoses(t).find((d) => !d.uncertain && MASS.has(d.unit.kind) && d.start >= end && /\bto\s+$/i.test(t.slice(Math.max(end, d.start - 6), d.start)) && t.slice(end, d.start).split(/\s+/).filter(Boolean).length <= 10);
    if (to) return { text: to.text, end: to.end };
  }
  // "600 milligrams of ibuprofen" first; a bare dose before the drug only when none follows it.
  // A dose after the drug that is the next drug's ("the lisinopril and 25 mg of hydrochlorothiazide") is not this one's.
  const after = doseAfter(t, end);
  const ownAfter = after && !/^\s*of\b/i.test(t.slice(after.end)) ? after : undefined;
  return doseBefore(t, start, end) ?? ownAfter ?? doseBefore(t, start, end, true);
}

/**
 * The order word said of a drug: the nearest before it ("continue metformin and stop the Januvia" continues
 * metformin), else the first said after it ("the lisinopril, let's increase it").
 */
function actionBefore(t: string, at: number): MedicationAction | undefined {
  let best: { index: number; action: MedicationAction } | undefined;
  for (const [re, action] of ACTIONS) {
    for (const m of t.matchAll(new RegExp(re.source, 'gi'))) {
      if (m.index >= at) break;
      if (!best || m.index > best.index) best = { index: m.index, action };
    }
  }
  return best?.action ?? ACTIONS.find(([re]) => re.test(t.slice(at)))?.[1];
}

/** The medication orders a clause gives, in order: one order word may give several drugs ("start X and Y"). */
const HOPED = /\b(?:hopefully|eventually|someday|down the road|in the long run|hope to|hoping to|at some point)\b/i;

export function medicationIn(t: string, drugs: PhraseMatcher<string>, negatedAt: (start: number, end: number) => boolean): { item: PlanItem; at: number }[] {
  const hits = drugsIn(t, drugs);
  let hit = hits[0];
  if (!hit) return [];
  // "Order lisinopril 20 mg daily" starts a drug; "order an A1c to see if we need to adjust your metformin" does not.
  const action = actionBefore(t, hit.start) ?? (/\border\s+(?:(?:a|an|some|the)\s+)?$/i.test(t.slice(Math.max(0, hit.start - 20), hit.start)) ? 'start' : undefined);
  if (!action || negatedAt(hit.start, hit.end)) return [];
  // "Hopefully we can eventually get you off that lisinopril": a hope for later is no order today.
  // "Eventually we'll get you off the insulin, but for now start metformin": what follows "but" is read on its own.
  if (HOPED.test(t.slice(Math.max(0, hit.start - 80), hit.start))) {
    const but = /\b(?:but|however)\b/i.exec(t.slice(hit.end));
    if (!but) return [];
    const off = hit.end + but.index;
    return medicationIn(t.slice(off), drugs, (a, b) => negatedAt(a + off, b + off)).map((r) => ({ ...r, at: r.at + off }));
  }
  let replaces: string | undefined;
  // "From X to Y" (a switch or step-down): Y is what is ordered, X what it replaces.
  const next = hits.find((h) => h.start > hit!.end && h.value !== hit!.value);
  if (next && /\bfrom\s+(?:the\s+|your\s+|his\s+|her\s+)?$/i.test(t.slice(Math.max(0, hit.start - 12), hit.start)) && /^\W*(?:\S+\W+){0,5}?to\s+(?:the\s+|some\s+)?$/i.test(t.slice(hit.end, next.start))) {
    replaces = capitalise(hit.name);
    hit = next;
  } else {
    // "From Wixela to Alvesco 80 mcg" where only the ordered drug is known: the word after "from" is what it replaces.
    const from = /\bfrom\s+(?:the\s+|your\s+|his\s+|her\s+)?([a-z][a-z-]{3,})\s+to\s+(?:the\s+|some\s+)?$/i.exec(t.slice(Math.max(0, hit.start - 40), hit.start));
    if (from && /\b(?:switch|change|transition|step|go|move)\w*\b/i.test(t.slice(0, hit.start)) && !NOT_A_DRUG.has(from[1]!.toLowerCase())) replaces = capitalise(from[1]!);
  }
  // "A cortisone injection" is a procedure given with a drug, not a prescription.
  const injection = /^\s+(?:injection|shot)\b/i.exec(t.slice(hit.end));
  if (injection) return [{ item: { kind: 'procedure', target: `${hit.name.toLowerCase()} injection`, evidence: [] }, at: hit.start }];
  const out = [orderOf(t, hits, hit, replaces ? 'change' : action, replaces)];
  // "Benzoyl peroxide with clindamycin gel" is one product, named whole; "metformin 500 mg twice a day and lisinopril
  // 10 mg" orders each drug after the one order word, each with its own dose; "stop the glipizide and start Jardiance"
  // gives the second drug its own order word. A joint with a condition or a negation ends the orders read here.
  for (let i = hits.indexOf(hit) + 1; i < hits.length && !replaces; i++) {
    const h = hits[i]!;
    const last = out[out.length - 1]!;
    const joint = t.slice(last.end, h.start);
    if (h.value === hit.value || negatedAt(h.start, h.end) || joint.split(/\s+/).filter(Boolean).length > 8 || /[.;?]|\b(?:if|when|unless|once|after|before|until|not|n't|from|to)\b/i.test(joint)) break;
    const own = ACTIONS.find(([re]) => re.test(joint))?.[1];
    // "Continue the lisinopril and 25 mg of hydrochlorothiazide daily": the next drug may have its dose said before it.
    if (!own && !/(?:,|\b(?:and|plus|with|as well as|along with))\s*(?:(?:the|some|a|an|your|his|her)\s+)?(?:\d+(?:\.\d+)?\s*(?:mg|milligrams?|mcg|micrograms?|units?|ml)\s+of\s+(?:the\s+)?)?$/i.test(joint)) break;
    if (!own && /^\s*with\s+(?:(?:the|some|a|an)\s+)?$/i.test(joint) && !last.item.medication?.dose) {
      out[out.length - 1] = orderOf(t, hits, h, action, undefined, `${last.item.medication?.name ?? ''} with `, last.at);
      continue;
    }
    out.push(orderOf(t, hits, h, own ?? action));
  }
  return out.map(({ item, at }) => ({ item, at }));
}

/** One drug's order: its dose, schedule and form read up to the next drug named. */
function orderOf(t: string, hits: Hit[], hit: Hit, action: MedicationAction, replaces?: string, prefix = '', at = hit.start): { item: PlanItem & { kind: 'medication' }; at: number; end: number } {
  // The dose and schedule said before the next drug are this drug's ("Alvesco two puffs twice a day and your albuterol if you need it").
  const upTo = t.slice(0, hits.find((h) => h.start > hit.end && h.value !== hit.value)?.start ?? t.length);
  const dose = orderedDose(upTo, hit.start, hit.end, action);
  // The schedule is read up to another dose said: "1000 mg in the morning and keep the 500 mg at night" gives the
  // morning to the 1000 mg, and the evening dose is kept beside it as part of the schedule.
  const frequency = scheduleAfter(upTo, dose?.end ?? hit.end, dose !== undefined);
  const route = routeOf(upTo.slice(hit.start)) ?? routeOf(t);
  const duration = /\bfor (\d+ (?:days?|weeks?))\b/i.exec(t)?.[1];
  const form = /^\s+(inhaler|cream|ointment|gel|lotion|patch|nasal spray|eye drops)\b/i.exec(t.slice(hit.end))?.[0].toLowerCase() ?? '';
  const name = prefix ? `${prefix}${hit.name.toLowerCase()}${form}` : capitalise(hit.name) + form;
  // "Take metformin 1000 mg instead of 500": a dose said against the one it replaces is a change of dose.
  const instead = dose && (action === 'start' || action === 'continue') ? /^[^.;]{0,40}?\binstead of (?:the |your )?(\d+(?:\.\d+)?)/i.exec(upTo.slice(dose.end)) : null;
  const newDose = dose ? Number.parseFloat(dose.text) : Number.NaN;
  const changed: MedicationAction = instead && newDose !== Number(instead[1]) ? (newDose > Number(instead[1]) ? 'increase' : 'decrease') : action;
  const item: PlanItem & { kind: 'medication' } = {
    kind: 'medication', action: changed,
    medication: {
      name, generic: hit.value, ...(dose ? { dose: dose.text } : {}), ...(route ? { route } : {}),
      ...(frequency ? { frequency } : {}), ...(duration ? { duration } : {}), ...(replaces ? { replaces } : {}),
    },
    evidence: [],
  };
  return { item, at, end: Math.max(dose?.end ?? 0, hit.end + form.length) };
}
