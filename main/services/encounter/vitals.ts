/**
 * Vital signs with where they were measured: today's in the clinic, apart from values the
 * patient brings from home or that another setting measured ("in the emergency room your
 * blood pressure was 180/100"). Only today's belong under today's vital signs.
 */
import type { VitalKey } from '../clinical-language/phrases/types.js';
import { evidenceOf, type Said } from './said.js';
import type { Vital, VitalSource } from './types.js';

const VITALS: [VitalKey, RegExp][] = [
  ['bloodPressure', /\b(?:blood pressures?|bp)\b\D{0,40}?(\d{2,3}\/\d{2,3})/i],
  ['heartRate', /\b(?:heart rate|pulse)\b(?! ox)\D{0,30}?(\d{2,3})\b(?!\s*%)/i],
  ['temperature', /\b(?:temp(?:erature)?|fever of)\b\D{0,20}?(\d{2,3}(?:\.\d)?)\b/i],
  ['oxygenSaturation', /\b(?:oxygen saturation|o2 sat\w*|pulse ox\w*|saturation|sat|oxygen(?:ation)?|sats)\b\D{0,25}?(\d{2,3})(?:%| percent)/i],
  ['respiratoryRate', /\brespiratory rate\b\D{0,20}?(\d{1,2})\b/i],
  ['weight', /\bweigh(?:t|s|ed)\b\D{0,20}?(\d{2,3}(?:\.\d)?\s*(?:pounds|lbs?|kg|kilograms))/i],
];
const HOME = /\b(?:at home|home (?:readings?|monitor|cuff)|your (?:cuff|machine|monitor)|i(?:'ve| have)? (?:been )?(?:checking|taking|measuring)|when i check)\b/i;
const ELSEWHERE_EMERGENCY = /\b(?:er|emergency (?:room|department)|ed|urgent care|ambulance|paramedics|ems|hospital)\b/i;
const ELSEWHERE = /\b(?:pharmacy|outside|other (?:doctor|clinic|office)|last (?:time|visit|week|month)|previous(?:ly)?|before|back in|they (?:said|told|measured)|was running|has been running|been running)\b/i;
const TODAY = /\b(?:today|here|in the office|this morning|right now|vitals|vital signs|on exam)\b/i;

// "I see here", "it says here": the clinician reading the chart, not a measurement taken here.
const CHART = /\b(?:i (?:do )?see|i can see|it says|it shows|i have|i've got|i'm looking|looking) (?:right )?here\b/gi;

function sourceOf(s: Said, previous: Said | undefined): VitalSource {
  const text = s.text.replace(CHART, ' ');
  if (TODAY.test(text) && !ELSEWHERE_EMERGENCY.test(text) && !HOME.test(text)) return 'today';
  if (ELSEWHERE_EMERGENCY.test(text)) return 'emergency';
  if (HOME.test(text) || (s.speaker === 'patient' && /\b(?:my|i)\b/i.test(text))) return 'home';
  if (ELSEWHERE.test(text)) return 'elsewhere';
  // "You were admitted to the hospital. I see that your blood pressure was 200/90": a past reading right after another setting is that setting's.
  if (previous && ELSEWHERE_EMERGENCY.test(previous.text) && /\b(?:was|were|had been)\b/i.test(text)) return 'emergency';
  // A value said in the exam by the clinician is today's, and so is one the clinician reads out in the present ("your blood pressure is 120/80").
  if (s.phase === 'exam' && s.speaker === 'clinician') return 'today';
  if (s.speaker === 'clinician' && /\b(?:is|are|looks?|'s|reads?)\b/i.test(text) && !/\b(?:was|were|had been|has been)\b/i.test(text)) return 'today';
  if (previous && ELSEWHERE_EMERGENCY.test(previous.text)) return 'emergency';
  return s.speaker === 'clinician' && s.phase !== 'history' ? 'today' : 'elsewhere';
}

/** Every vital sign said with a value. */
export function readVitals(said: Said[]): { vitals: Vital[]; used: Set<number> } {
  const out: Vital[] = [];
  const used = new Set<number>();
  for (const s of said) {
    // Narration ("I'm going to do a quick exam") often runs on into the readings themselves: only small talk and commands carry none.
    if ((s.talk && s.talk !== 'narration') || s.unclearNumber || (s.question && s.speaker === 'clinician')) continue;
    for (const [kind, re] of VITALS) {
      const m = re.exec(s.text);
      // "I'll check your pulse for 30 seconds": a count of time, not a reading.
      if (!m || /^\s*(?:seconds?|minutes?|secs?|mins?)\b/i.test(s.text.slice(m.index + m[0].length))) continue;
      let value = m[1]!;
      if (kind === 'oxygenSaturation') value = `${value}%`;
      const source = sourceOf(s, said[s.i - 1]);
      if (out.some((v) => v.kind === kind && v.value === value && v.source === source)) continue;
      out.push({ kind, value, source, evidence: evidenceOf(s) });
      used.add(s.i);
    }
    // "They checked my blood pressure." / "And it was 200/90.": a reading said next to its name is that
    // vital, measured where the sentences around it say (the emergency room, home), else where this one says.
    const bare = /\b(\d{2,3})\/(\d{2,3})\b/.exec(s.text);
    if (bare && !VITALS[0]![1].test(s.text) && Number(bare[1]) >= 70 && Number(bare[1]) <= 260 && Number(bare[2]) >= 30 && Number(bare[2]) < Number(bare[1])) {
      const near = said.slice(Math.max(0, s.i - 2), s.i).filter((p) => !p.talk);
      if (near.some((p) => /\b(?:blood pressures?|bp|readings?)\b/i.test(p.text))) {
        const context: Said = { ...s, text: `${near.map((p) => p.text).join(' ')} ${s.text}` };
        const source = TODAY.test(s.text) ? sourceOf(s, said[s.i - 1]) : ELSEWHERE_EMERGENCY.test(context.text) ? 'emergency' : HOME.test(context.text) ? 'home' : sourceOf(context, said[s.i - 1]);
        const value = `${bare[1]}/${bare[2]}`;
        if (!out.some((v) => v.kind === 'bloodPressure' && v.value === value && v.source === source)) {
          out.push({ kind: 'bloodPressure', value, source, evidence: evidenceOf(...near.filter((p) => /\b(?:blood pressures?|bp|readings?)\b/i.test(p.text)).slice(-1), s) });
          used.add(s.i);
        }
      }
    }
  }
  return { vitals: out, used };
}
