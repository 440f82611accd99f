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

const HEDGE = /\b(?:maybe|i think so|not sure|i'm not sure|i don't know|possibly|kind of|sort of|a little bit|here and there|i guess)\b/i;
const UNSURE_ANSWER = /^\W*(?:maybe|i'm not sure|not sure|i don't know|i guess|possibly|kind of|sort of|i think so)\b/i;
const RELATIVE = /\b(?:my|his|her|your) (?:wife|husband|son|daughter|mother|mom|father|dad|sister|brother|kids?|child|children|friend|grandmother|grandfather|aunt|uncle|cousin|partner|family)\b/i;
const RESTATE = /\b(?:so )?you(?:'ve| have)? (?:also |still )?(?:been )?(?:have|had|having|get|getting|got|experienc\w+|notic\w+|feel\w*)\b/i;
const DICTATED_NEGATIVE = /\b(?:denies|negative for|no (?:complaints of|history of)?|without)\b/i;
const SYSTEM_OF = new Map(SYMPTOMS.map((s) => [s.term, s.system]));

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
      out.push({ term, system: SYSTEM_OF.get(term) ?? 'Musculoskeletal', start: pain.start, end: pain.end, location: pain.site, ...(pain.laterality ? { laterality: pain.laterality } : {}) });
    }
  }
  return out;
}

function attributes(text: string, hit: Hit): Pick<Symptom, 'onset' | 'duration' | 'severity' | 'laterality' | 'location' | 'modifiers'> {
  const out: Pick<Symptom, 'onset' | 'duration' | 'severity' | 'laterality' | 'location' | 'modifiers'> = { modifiers: modifiers(text) };
  const d = duration(text);
  const o = onset(text);
  const s = severity(text);
  const side = hit.laterality ?? laterality(text, hit.start, hit.end);
  if (d) out.duration = d;
  if (o) out.onset = o;
  if (s) out.severity = s;
  if (side) out.laterality = side;
  if (hit.location) out.location = hit.location;
  return out;
}

/** Every symptom of the encounter, one per term and subject: the last statement sets its presence. */
export function readSymptoms(said: Said[]): { symptoms: Symptom[]; used: Set<number> } {
  const found: (Symptom & { order: number })[] = [];
  const used = new Set<number>();
  const add = (s: Said, hit: Hit, presence: Presence, subject: Subject, extra: Said[] = [], text = s.text): void => {
    found.push({ term: hit.term, ...(hit.system ? { system: hit.system } : {}), presence, subject, ...attributes(text, hit), evidence: evidenceOf(...extra, s), order: s.i });
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
      if (!reply || hits.length === 0) continue;
      const own = new Set(hitsIn(reply.text).map((h) => h.term));
      const polarity = answerPolarity(reply.text);
      const presence: Presence | undefined = UNSURE_ANSWER.test(reply.text) ? 'uncertain' : polarity === 'negative' ? 'denied' : polarity === 'positive' ? 'reported' : undefined;
      // "Any fever, chills, cough?" "Yes": which one is not said; only a single symptom is taken as confirmed.
      if (!presence || (presence !== 'denied' && hits.length > 1)) continue;
      for (const h of hits) if (!own.has(h.term)) add(s, h, presence, 'patient', [], `${s.text} ${reply.text}`), used.add(reply.i);
      continue;
    }
    if (s.speaker === 'clinician') {
      // A summary put to the patient and confirmed, or a dictated negative.
      const reply = s.reply ?? (said[s.i + 1]?.speaker === 'patient' ? s.i + 1 : undefined);
      const confirmed = reply !== undefined && RESTATE.test(s.text) && answerPolarity(said[reply]!.text) === 'positive';
      for (const h of hits) {
        const ctx = contextOf(s.text, h.start, h.end);
        if (ctx.hypothetical || ctx.family) continue;
        if (confirmed && !ctx.negated) add(s, h, ctx.uncertain ? 'uncertain' : 'reported', 'patient', [], s.text);
        else if (DICTATED_NEGATIVE.test(s.text) && ctx.negated && !/\b(?:you|your)\b/i.test(s.text)) add(s, h, 'denied', 'patient');
      }
      continue;
    }
    for (const h of hits) {
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
  return { symptoms: supersede(found), used };
}

/** One symptom per term and subject; the latest statement's presence wins, attributes add up. */
function supersede(found: (Symptom & { order: number })[]): Symptom[] {
  const byKey = new Map<string, Symptom & { order: number }>();
  for (const f of found.sort((a, b) => a.order - b.order)) {
    const key = `${f.term}|${f.subject}|${f.laterality ?? ''}`;
    const prev = byKey.get(key);
    if (!prev) {
      byKey.set(key, { ...f });
      continue;
    }
    prev.presence = f.presence;
    prev.evidence.push(...f.evidence);
    prev.modifiers = [...new Set([...prev.modifiers, ...f.modifiers])];
    for (const k of ['onset', 'duration', 'severity', 'location'] as const) if (!prev[k] && f[k]) prev[k] = f[k];
  }
  // A side-less mention is the same symptom as the one with a side.
  const out = [...byKey.values()];
  return out
    .filter((s) => s.laterality || !out.some((o) => o !== s && o.term === s.term && o.subject === s.subject && o.laterality))
    .sort((a, b) => a.order - b.order)
    .map(({ order: _order, ...s }) => s);
}
