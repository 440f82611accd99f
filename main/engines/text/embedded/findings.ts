/**
 * Symptom findings and the chief complaint: symptoms the patient states in their own words
 * ("I've had a cough", "no fever though"), merged with those read from question and answer into
 * one review of systems per body system; the chief complaint from "presents for / here for" or
 * the first symptom the patient names.
 */
import { contextOf } from '../../../services/clinical-language/context.js';
import { symptomsIn, type BodySystem } from '../../../services/clinical-language/lexicon.js';
import { normaliseNumbers } from '../../../services/clinical-language/normalise.js';
import { contentWords } from './classify.js';
import { polishSentence } from './clean.js';
import type { SymptomFinding } from './dialogue.js';
import type { Sentence } from './transcript.js';

/** One body system's review: symptoms present and absent (English lexicon terms). */
export interface RosFact {
  type: 'ros';
  system: BodySystem;
  present: string[];
  absent: string[];
}

/** Symptoms stated outright ("I've had a cough", "denies fever"), with their negation. */
export function statedSymptoms(sentences: Sentence[]): SymptomFinding[] {
  const out: SymptomFinding[] = [];
  sentences.forEach((s, index) => {
    if (s.question || /\ballerg/i.test(s.text)) return;
    // A clinician's sentence counts only as a dictated negative ("denies fever", "negative for").
    if (s.role === 'doctor' && !/\b(denies|negative for|no (history of )?)\b/i.test(s.text)) return;
    if (s.role === 'doctor' && /\b(you|your)\b/i.test(s.text)) return;
    if (/\b(my|his|her) (wife|husband|son|daughter|mother|mom|father|dad|sister|brother|kid|child|friend)\b/i.test(s.text)) return;
    for (const sym of symptomsIn(s.text)) {
      const m = sym.spoken.exec(s.text);
      if (!m) continue;
      const context = contextOf(s.text, m.index, m.index + m[0].length);
      // Speech without punctuation has no clause ends: a negation six or more words back may
      // govern another finding ("I haven't noticed any shortness of breath it's just a dry cough").
      if (context.negated && context.trigger && s.text.slice(context.trigger.end, m.index).split(/\s+/).filter(Boolean).length > 6) continue;
      // Someone else's symptom, or one only to watch for ("call if the fever comes back"), is no finding.
      if (context.family || context.hypothetical) continue;
      // "any fever" without a negation is a question put as a statement ("any fever at all").
      if (!context.negated && /\bany\b[^,.;]*$/i.test(s.text.slice(Math.max(0, m.index - 30), m.index))) continue;
      out.push({ term: sym.term, system: sym.system, present: !context.negated, index });
    }
  });
  return out;
}

/** Findings grouped by body system; the latest statement about a symptom wins (patients correct themselves). */
export function reviewOfSystems(findings: SymptomFinding[]): { fact: RosFact; index: number; count: number }[] {
  const byTerm = new Map<string, SymptomFinding>();
  for (const f of [...findings].sort((a, b) => a.index - b.index)) byTerm.set(f.term, f);
  const bySystem = new Map<BodySystem, SymptomFinding[]>();
  for (const f of byTerm.values()) bySystem.set(f.system, [...(bySystem.get(f.system) ?? []), f]);
  return [...bySystem].map(([system, list]) => ({
    fact: { type: 'ros', system, present: list.filter((f) => f.present).map((f) => f.term), absent: list.filter((f) => !f.present).map((f) => f.term) },
    index: Math.min(...list.map((f) => f.index)),
    count: list.length,
  }));
}

const CC_PATTERNS = [
  /\b(?:presents?|presenting|here|in|coming in|came in|referred|seen|seeing (?:him|her|you)|following up|follow up|visit)\s+(?:today\s+|here\s+|to\s+(?:the\s+)?clinic\s+|to\s+see\s+me\s+)?(?:for|with|because of|regarding|about)\s+((?:an?\s+|the\s+|his\s+|her\s+|your\s+|my\s+|some\s+)?[^,.;?]{3,60}?)(?=[,.;?]|\s+(?:who|which|that|and\s+(?:she|he|i|we))\b|$)/i,
];

const REASON_QUESTION = /\bwhat (?:brings|brought) you|\bwhat can (?:i|we) (?:do|help) (?:you )?(?:with|for)|\bhow can (?:i|we) help|\bwhat(?:'s| is) (?:going on|the problem|bothering you|wrong)|\bwhat seems to be|\bwhat are you (?:here|in) (?:for|today)|\breason for (?:your|the|today's) visit|\bwhat happened\b|\bwhat(?:'s| is) brought you|\bwhat (?:made|makes) you come/i;

/** The patient's reply to "what brings you in?" as a complaint in a few words ("A rash on my arms." -> "Rash on arms"). */
function reasonGiven(reply: string): string | undefined {
  let t = reply.replace(/^\W*(?:well|so|um|uh|yeah|yes|hi|hello|oh|okay|i think|basically)\b[\s,]*/gi, '').trim();
  const injured = /^i\s+((?:burned|burnt|cut|broke|hurt|injured|sprained|twisted|fractured|bruised|scraped|banged|hit|jammed|pulled|strained)\s+(?:my\s+)?[\p{L} ]{2,30}?)(?:[,.;!?]|\s+(?:and|but|when|while|at|on|yesterday|today|last)\b|$)/iu.exec(t);
  if (injured) return polishSentence(injured[1]!.replace(/\bmy\s+/i, ''));
  const had = /\b(?:i(?:'ve| have)?\s+(?:been\s+)?(?:having|had|have|got|get|noticed|developed|feel|felt|found|see)|i(?:'m| am) (?:having|here for|here because of)|there(?:'s| is))\s+(.{3,70}?)(?:[,.;!?]|\s+(?:and|but|since|for|that|which|when|because)\s|$)/i.exec(t);
  if (had) t = had[1]!;
  else if (/\b(?:i|it|he|she|we|they|my \w+ (?:is|are|was|has|hurts?))\b/i.test(t.split(/[,.]/)[0] ?? '')) return undefined;
  t = t.split(/[.;!?]/)[0]!.replace(/^(?:a|an|the|some|this|that|my|these|those)\s+/i, '').replace(/\b(?:my|your)\s+/gi, '').trim();
  const words = t.split(/\s+/).filter(Boolean);
  if (words.length === 0 || words.length > 9 || contentWords(t).length === 0) return undefined;
  return polishSentence(normaliseNumbers(t));
}

/** The reason for the visit in a few words, or undefined when the transcript does not say it. */
export function chiefComplaint(sentences: Sentence[]): string | undefined {
  for (let i = 0; i < Math.min(sentences.length, 40); i++) {
    const q = sentences[i]!;
    if (q.role === 'patient' || !REASON_QUESTION.test(q.text)) continue;
    const reply = sentences.find((s, k) => k > i && s.turn === q.turn + 1 && s.role === 'patient');
    const reason = reply ? reasonGiven(reply.text) : undefined;
    if (reason) return reason;
  }
  // Else the first complaint the patient names in their first few sentences ("I have this weird lump in my chest").
  for (const s of sentences.filter((x) => x.role === 'patient').slice(0, 4)) {
    if (symptomsIn(s.text).length === 0 && !/\b(?:pain|lump|burn|burned|rash|swelling|bump|injur|wound|cut|bleeding|broke|sprain|fell)\w*/i.test(s.text)) continue;
    const reason = reasonGiven(s.text);
    if (reason) return reason;
  }
  for (const s of sentences.slice(0, Math.max(12, Math.floor(sentences.length * 0.3)))) {
    if (s.role === 'patient' && !/\b(here|in) for\b/i.test(s.text)) continue;
    for (const re of CC_PATTERNS) {
      const m = re.exec(s.text);
      if (m && contentWords(m[1]!).length >= 1) {
        const phraseText = m[1]!.replace(/^(an?|the|his|her|your|my|some)\s+/i, '').replace(/\b(today|please)\b/gi, '').trim();
        if (phraseText.split(/\s+/).length > 10) continue;
        return polishSentence(normaliseNumbers(phraseText));
      }
    }
  }
  // Otherwise the symptom the patient names first.
  for (const s of sentences.slice(0, Math.floor(sentences.length * 0.4))) {
    if (s.role !== 'patient') continue;
    const sym = symptomsIn(s.text)[0];
    if (sym && !/\b(no|not|never)\b/i.test(s.text)) return polishSentence(sym.term);
  }
  return undefined;
}
