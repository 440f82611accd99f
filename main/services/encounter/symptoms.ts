/**
 * Symptoms as the dialogue gives them: a patient's own statement ("I've had a cough for a
 * week"), a question read with its answer ("any fever?" "no"), a clinician's summary the patient
 * confirms ("so you also have shortness of breath with exertion" "correct"), or a dictated
 * negative ("denies chest pain"). Negation, hedges, family and hypothetical scope come from the
 * core's ConText; the latest statement about a symptom supersedes earlier ones.
 */
import { answerPolarity, contextOf } from '../clinical-language/context.js';
import { symptomsIn, SYMPTOMS, type BodySystem } from '../clinical-language/lexicon.js';
import { duration, laterality, modifiers, onset, painSite, severity } from './attributes.js';
import { evidenceOf, type Said } from './said.js';
import type { Presence, Subject, Symptom } from './types.js';

// "Kind of" and "sort of" hedge only as adverbs: "this kind of pressure" names a kind.
const HEDGE = /\b(?:maybe|i think so|not sure|i'm not sure|i don't know|possibly|(?<!\b(?:this|that|what|a|the|some|any|every|which|same|other)\s)(?:kind|sort) of|a little bit|here and there|i guess)\b/i;
const UNSURE_ANSWER = /^\W*(?:maybe|i'm not sure|not sure|i don't know|i guess|possibly|kind of|sort of|i think so)\b/i;
const RELATIVE = /\b(?:my|his|her|your) (?:wife|husband|son|daughter|mother|mom|father|dad|sister|brother|kids?|child|children|friend|grandmother|grandfather|aunt|uncle|cousin|partner|family)\b/i;
const RESTATE = /\b(?:so )?you(?:'ve| have)? (?:also |still )?(?:been )?(?:have|had|having|get|getting|got|experienc\w+|notic\w+|feel\w*)\b/i;
// The clinician saying what the patient already reported ("you endorsed some nasal congestion on the review of systems sheet").
const RELAYED = /\byou (?:also )?(?:endorsed|reported|mentioned|said you (?:had|have|were having)|told (?:me|the nurse) (?:about|you had)|complained of|are complaining of)\b/i;
// A dictated report: "Patient presents with a 3 day history of sore throat", "She reports ...".
const DICTATED_REPORT = /\b(?:presents? with|presenting with|reports?|complains? of|complaining of|endorses|history of|with a (?:\d+|several|few)[- ]\w+ history of)\b/i;
// "How about any fevers?" asks yes or no; "how does it feel?" does not.
const OPEN_QUESTION = /^\W*(?:what(?! about)|what's|how(?! about)|how's|when|where|why|which|who|tell me|describe)\b/i;
// "No chest pain right now?" "Nothing right now": absent at the moment, which does not undo a reported history.
const NOW = /\b(?:right now|at the moment|currently|at present|at this time|today)\b/i;
const TIMING_ASKED = /\b(?:how long|when did (?:it|this|that|the \w+) (?:start|begin|happen)|when did you (?:first )?notice|how long ago|since when)\b/i;
const CONFIRM = /^\W*(?:correct|that's right|that is right|exactly|right|it is|it does|i am|i was)\b/i;
const DICTATED_NEGATIVE = /\b(?:denies|negative for|no (?:complaints of|history of)?|without)\b/i;
const SYSTEM_OF = new Map(SYMPTOMS.map((s) => [s.term, s.system]));
// A pain at a site the lexicon has no term for belongs to the site's system ("throat pain" is no musculoskeletal pain).
const SITE_SYSTEM: Readonly<Record<string, BodySystem>> = { throat: 'HEENT', ear: 'HEENT', eye: 'HEENT', tooth: 'HEENT', jaw: 'HEENT', flank: 'Genitourinary', groin: 'Genitourinary' };

interface Hit {
  term: string;
  system?: BodySystem;
  start: number;
  end: number;
  location?: string;
  laterality?: Symptom['laterality'];
}

/** Symptoms a sentence names: lexicon symptoms and pains at a body site. */
function hitsIn(text: string): Hit[] {
  const out: Hit[] = [];
  for (const sym of symptomsIn(text)) {
    const m = sym.spoken.exec(text);
    if (m) out.push({ term: sym.term, system: sym.system, start: m.index, end: m.index + m[0].length });
  }
  const pain = painSite(text);
  if (pain && !out.some((h) => h.term.endsWith('pain') && h.start < pain.end && pain.start < h.end && h.term !== 'joint pain')) {
    const term = pain.site === 'abdomen' ? 'abdominal pain' : pain.site === 'chest' ? 'chest pain' : pain.site === 'head' ? 'headache' : `${pain.site} pain`;
    if (!out.some((h) => h.term === term)) {
      out.push({ term, system: SYSTEM_OF.get(term) ?? SITE_SYSTEM[pain.site] ?? 'Musculoskeletal', start: pain.start, end: pain.end, location: pain.site, ...(pain.laterality ? { laterality: pain.laterality } : {}) });
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

function attributes(text: string, hit: Hit): Pick<Symptom, 'onset' | 'duration' | 'severity' | 'laterality' | 'location' | 'modifiers'> {
  const out: Pick<Symptom, 'onset' | 'duration' | 'severity' | 'laterality' | 'location' | 'modifiers'> = { modifiers: modifiers(text) };
  const d = duration(text, hit);
  const o = onset(text, hit);
  const s = severity(text);
  const side = hit.laterality ?? (/\b(?:knee|shoulder|hip|ankle|wrist|elbow|hand|foot|leg|arm|neck|back|flank|eye|ear|jaw)\b/.test(hit.term) ? laterality(text, hit.start, hit.end) : undefined);
  if (d) out.duration = d;
  if (o) out.onset = o;
  if (s) out.severity = s;
  if (side) out.laterality = side;
  if (hit.location) out.location = hit.location;
  return out;
}

/** Every symptom of the encounter, one per term and subject: the last statement sets its presence. */
export function readSymptoms(said: Said[]): { symptoms: Symptom[]; used: Set<number>; timing: { text: string; evidence: Symptom['evidence'] }[] } {
  const found: (Symptom & { order: number; now?: boolean })[] = [];
  const timing: { text: string; evidence: Symptom['evidence'] }[] = [];
  const used = new Set<number>();
  const add = (s: Said, hit: Hit, presence: Presence, subject: Subject, extra: Said[] = [], text = s.text): void => {
    const now = presence === 'denied' && NOW.test(`${text} ${extra.map((e) => e.text).join(' ')}`);
    found.push({ term: hit.term, ...(hit.system ? { system: hit.system } : {}), presence, subject, ...attributes(text, hit), evidence: evidenceOf(...extra, s), order: s.i, ...(now ? { now } : {}) });
    used.add(s.i);
    for (const e of extra) used.add(e.i);
  };
  for (const s of said) {
    if (s.talk || s.phase === 'plan') continue;
    if (/\ballerg/i.test(s.text)) continue;
    const hits = hitsIn(s.text);
    if (s.speaker === 'clinician' && s.question) {
      // A question is read with its answer.
      const reply = s.reply !== undefined ? said[s.reply] : undefined;
      // "How long has that been going on?" "About 5 weeks": the answer dates the symptom spoken of last.
      if (reply && TIMING_ASKED.test(s.text) && hits.length === 0) {
        const last = [...found].reverse().find((f) => f.presence === 'reported' && f.subject === 'patient');
        const d = duration(`for ${reply.text.replace(/^\W*(?:about|around|maybe|probably|like|roughly|approximately|almost)\s+/i, '')}`.replace(/^for (?:for|since)\b/i, 'for'));
        const o = onset(reply.text);
        const about = /\b(?:about|around|approximately|roughly|maybe|almost)\b/i.test(reply.text) ? 'about ' : '';
        if (last && (o || d)) {
          if (o && !last.onset) last.onset = `${about}${o}`;
          else if (d && !last.duration) last.duration = `${about}${d}`;
          last.evidence.push(...evidenceOf(s, reply));
          used.add(s.i).add(reply.i);
        } else if (!last && (o || d)) timing.push({ text: o ? `${about}${o}` : `${about}${d}`, evidence: evidenceOf(s, reply) }), used.add(reply.i);
        continue;
      }
      if (!reply || hits.length === 0) continue;
      // "What's going on with your chest pain?" "I don't know, every time I walk...": an open question has no yes or no; the reply says what it says.
      if (OPEN_QUESTION.test(s.text)) continue;
      const own = new Set(hitsIn(reply.text).map((h) => h.term));
      const polarity = answerPolarity(reply.spoken);
      const presence: Presence | undefined = UNSURE_ANSWER.test(reply.spoken) ? 'uncertain' : polarity === 'negative' ? 'denied' : polarity === 'positive' ? 'reported' : undefined;
      // "Any fever, chills, cough?" "Yes": which one is not said; only a single symptom is taken as confirmed.
      if (!presence || (presence !== 'denied' && hits.length > 1)) continue;
      // "Any fever, chills or body aches?" "No fever.": the answer covers what it names, not the whole list.
      if (presence === 'denied' && hits.length > 1 && hits.some((h) => own.has(h.term))) continue;
      for (const h of hits) if (!own.has(h.term)) add(s, h, presence, 'patient', [], `${s.text} ${reply.text}`), used.add(reply.i);
      continue;
    }
    if (s.speaker === 'clinician') {
      // A summary put to the patient and confirmed, or a dictated negative.
      const reply = s.reply ?? (said[s.i + 1]?.speaker === 'patient' ? s.i + 1 : undefined);
      const answer = reply !== undefined ? said[reply]!.spoken : '';
      const confirmed = reply !== undefined && RESTATE.test(s.text) && (answerPolarity(answer) === 'positive' || CONFIRM.test(answer));
      const dictated = !/\b(?:you|your)\b/i.test(s.text) && DICTATED_REPORT.test(s.text);
      for (const h of hits) {
        const ctx = contextOf(s.text, h.start, h.end);
        if (ctx.hypothetical || ctx.family) continue;
        if ((confirmed || RELAYED.test(s.text) || dictated) && !ctx.negated) add(s, h, ctx.uncertain ? 'uncertain' : 'reported', 'patient', [], s.text);
        else if (DICTATED_NEGATIVE.test(s.text) && ctx.negated && !/\b(?:you|your)\b/i.test(s.text)) add(s, h, 'denied', 'patient');
      }
      continue;
    }
    // "Do you think that could be causing my chest pain?": the patient's question about themself states nothing.
    if (s.question && /\b(?:i|i'm|i've|me|my)\b/i.test(s.text) && /\b(?:caus\w*|because|related|due to|from (?:the|my)|mean|worr\w*|could (?:it|that|this) be)\b/i.test(s.text)) continue;
    for (const h of hits) {
      // "It's sore like an old bruise": a likeness names no symptom.
      if (/\b(?:like|as if|similar to|feels like)\s+(?:an?\s+|the\s+)?(?:\w+\s+)?$/i.test(s.text.slice(Math.max(0, h.start - 30), h.start)) && !/\bfeel(?:s|ing)? like (?:i|i'm)\b/i.test(s.text)) continue;
      // "I'm trying to lose weight" is a goal, not a symptom.
      if (h.term === 'weight loss' && /\b(?:trying to|want(?:ed)? to|need to|going to|hoping to|been able to|goal)\b[^.]{0,15}\blos/i.test(s.text)) continue;
      const ctx = contextOf(s.text, h.start, h.end);
      // A statement of one to watch for ("call if the fever comes back") is no finding.
      if (ctx.hypothetical) continue;
      // Speech without punctuation has no clause ends: a negation far back governs another clause.
      if (ctx.negated && ctx.trigger && s.text.slice(ctx.trigger.end, h.start).split(/\s+/).filter(Boolean).length > 6) continue;
      if (!ctx.negated && /\bany\b[^,.;]*$/i.test(s.text.slice(Math.max(0, h.start - 30), h.start))) continue;
      const family = ctx.family || RELATIVE.test(s.text.slice(0, h.start));
      const presence: Presence = ctx.negated ? 'denied' : ctx.uncertain || HEDGE.test(s.text.slice(Math.max(0, h.start - 40), h.end + 20)) && /\b(?:maybe|not sure|i guess|possibly|i think so)\b/i.test(s.text) ? 'uncertain' : 'reported';
      add(s, h, presence, family ? 'family' : 'patient');
    }
  }
  const symptoms = supersede(found);
  sideFromEncounter(symptoms, said);
  return { symptoms, used, timing };
}

/** Paired body sites: a pain there has a side. */
const PAIRED_SITE = /^(?:knee|shoulder|hip|ankle|wrist|elbow|hand|foot|leg|arm|eye|ear|heel|finger|thumb|toe|calf|thigh|flank)$/;

/**
 * A pain whose own sentence gives no side takes the side the encounter gives its site elsewhere
 * ("my knee hurts" ... "on exam of your right knee"), only when one side of that site is named.
 */
function sideFromEncounter(symptoms: Symptom[], said: readonly Said[]): void {
  for (const s of symptoms) {
    const site = s.location ?? /^(\w+) pain$/.exec(s.term)?.[1];
    if (s.laterality || s.subject !== 'patient' || !site || !PAIRED_SITE.test(site)) continue;
    const named = new RegExp(String.raw`\b(left|right|both|bilateral)\s+(?:[\p{L}-]+\s+){0,2}?${site}s?\b`, 'giu');
    const sides = new Set<string>();
    for (const x of said) for (const m of x.text.matchAll(named)) sides.add(m[1]!.toLowerCase());
    if (sides.size !== 1) continue;
    const side = [...sides][0]!;
    s.laterality = side === 'left' ? 'left' : side === 'right' ? 'right' : 'bilateral';
  }
}

/** One symptom per term and subject; the latest statement's presence wins, attributes add up. */
function supersede(found: (Symptom & { order: number; now?: boolean })[]): Symptom[] {
  const byKey = new Map<string, Symptom & { order: number; now?: boolean }>();
  for (const f of found.sort((a, b) => a.order - b.order)) {
    const key = `${f.term}|${f.subject}|${f.laterality ?? ''}`;
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, { ...f });
      continue;
    }
    // Reported, then "not right now": the symptom stays reported, noted as absent at present.
    if (f.now && prev.presence === 'reported') prev.modifiers = [...prev.modifiers, 'with none at present'];
    else prev.presence = f.presence;
    prev.evidence.push(...f.evidence);
    prev.modifiers = [...new Set([...prev.modifiers, ...f.modifiers])];
    for (const k of ['onset', 'duration', 'severity', 'location'] as const) if (!prev[k] && f[k]) prev[k] = f[k];
  }
  // A side-less mention is the same symptom as the one with a side.
  const out = [...byKey.values()];
  return out
    .filter((s) => s.laterality || !out.some((o) => o !== s && o.term === s.term && o.subject === s.subject && o.laterality))
    .sort((a, b) => a.order - b.order)
    .map(({ order: _order, now: _now, ...s }) => s);
}
