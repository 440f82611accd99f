/**
 * From transcript to note content: parse, classify, rewrite into clinical third person, group
 * findings by body system, and pick the chief complaint. Rendering (headings, order, limits,
 * markdown) is separate, so every note type shares one reading of the encounter.
 */
import type { NoteLanguage } from '../../../../shared/languages.js';
import { parseTurns, toSentences, type Sentence } from './transcript.js';
import { classifySentences, contentWords, type SymptomFinding } from './classify.js';
import { detectGender, rewriteClinicianSentence, rewritePatientSentence, type Gender } from './rewrite.js';
import { polishSentence } from './clean.js';
import { normaliseNumbers } from '../../../services/clinical-language/normalise.js';
import type { SectionKind } from './sections.js';
import { EXAM_REGIONS, symptomsIn } from '../../../services/clinical-language/lexicon.js';
import { phrase, symptomName, systemName } from './i18n.js';
import { contextOf } from '../../../services/clinical-language/context.js';

export interface ContentItem {
  text: string;
  /** Higher is more informative; used when a section must be shortened. */
  weight: number;
  /** Order in the transcript, so shortened sections keep the conversation's order. */
  index: number;
  /** A body-system or topic label ("Respiratory") for list rendering. */
  label?: string;
}

export type NoteContent = Record<SectionKind, ContentItem[]>;

const KINDS: SectionKind[] = ['chief_complaint', 'hpi', 'ros', 'pmh', 'surgical', 'medications', 'allergies', 'social', 'family', 'vitals', 'exam', 'results', 'assessment', 'plan', 'instructions'];

/** An empty content table. */
export function emptyContent(): NoteContent {
  return Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as NoteContent;
}

const LEAD_IN = /^(so|and|but|well|okay|ok|alright|all right|now|yeah|yes|right|um|uh|oh|also|then|anyway|basically|actually|and then|so yeah|great|good|perfect)\b[\s,]*/i;

function trimLeadIns(text: string): string {
  let t = text;
  for (let i = 0; i < 3; i++) {
    const next = t.replace(LEAD_IN, '');
    if (next === t || contentWords(next).length < 2) break;
    t = next;
  }
  return t;
}

/** True when the text reads as English (most transcripts); other languages are not rewritten. */
export function looksEnglish(text: string): boolean {
  const sample = text.slice(0, 4000).toLowerCase();
  const words = sample.match(/\p{L}+/gu) ?? [];
  if (words.length === 0) return false;
  const en = words.filter((w) => /^(the|and|you|i|to|a|of|is|it|that|have|for|my|your|with|in|this|on|do|was|what|are|be|not|any|so)$/.test(w)).length;
  return en / words.length > 0.12;
}

const INTRO = /\b(\d+|[a-z]+(-| )?[a-z]*)[- ]years?[- ]old\b|\bpresents?\b|\bpresenting\b|\bhere (today )?for\b|\breferred\b/i;

/** Build the note content from a transcript. */
export function composeContent(transcript: string, language: NoteLanguage): { content: NoteContent; gender: Gender; english: boolean } {
  const turns = parseTurns(transcript);
  // Numbers as digits before classification, so "one twenty over eighty" reads as a vital sign.
  const sentences = toSentences(turns).map((s) => ({ ...s, text: normaliseNumbers(s.text) }));
  const english = looksEnglish(transcript);
  const doctorText = sentences.filter((s) => s.role !== 'patient').map((s) => s.text).join(' ');
  const gender = english ? detectGender(doctorText) : 'unknown';
  const content = emptyContent();
  const { items, findings } = classifySentences(sentences);
  const seen: string[][] = [];
  for (const item of items) {
    const text = english ? rewrite(item.sentence, gender) : polishSentence(item.sentence.text);
    const words = contentWords(text);
    if (words.length < 2 || isDuplicate(words, seen)) continue;
    seen.push(words);
    let kind = item.kind;
    if (item.sentence.role !== 'patient' && INTRO.test(item.sentence.text) && /\b(old|presents?|here for|referred)\b/i.test(item.sentence.text) && item.sentence.position < 0.25) kind = 'hpi';
    const entry: ContentItem = { text, weight: item.weight + (kind === 'hpi' && INTRO.test(text) ? 20 : 0), index: item.index };
    if (kind === 'exam') {
      const system = EXAM_REGIONS.find((e) => e.re.test(text));
      if (system && language === 'en') entry.label = system.label;
    }
    content[kind].push(entry);
  }
  if (english) findings.push(...statedSymptoms(sentences));
  content.ros = rosItems(findings, language);
  const cc = chiefComplaint(sentences, english);
  if (cc) content.chief_complaint.push({ text: cc, weight: 100, index: 0 });
  return { content, gender, english };
}

function rewrite(s: Sentence, gender: Gender): string {
  const text = trimLeadIns(s.text);
  if (s.role === 'patient') return rewritePatientSentence(text, gender);
  if (s.role === 'doctor') return rewriteClinicianSentence(text, gender);
  return polishSentence(normaliseNumbers(text));
}

function isDuplicate(words: string[], seen: string[][]): boolean {
  const set = new Set(words);
  return seen.some((other) => {
    let shared = 0;
    for (const w of other) if (set.has(w)) shared++;
    return shared / Math.min(set.size, other.length) > 0.8 && Math.abs(set.size - other.length) < 4;
  });
}

// Symptoms the patient states in their own words ("I've had a cough", "no fever though").
function statedSymptoms(sentences: Sentence[]): SymptomFinding[] {
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
      // Someone else's symptom, or one only to watch for ("call if the fever comes back"), is no finding.
      if (context.family || context.hypothetical) continue;
      // "any fever" without a negation is a question put as a statement ("any fever at all").
      if (!context.negated && /\bany\b[^,.;]*$/i.test(s.text.slice(Math.max(0, m.index - 30), m.index))) continue;
      out.push({ term: sym.term, system: sym.system, present: !context.negated, index });
    }
  });
  return out;
}

function rosItems(findings: SymptomFinding[], language: NoteLanguage): ContentItem[] {
  // The latest statement about a symptom wins (patients correct themselves).
  const byTerm = new Map<string, SymptomFinding>();
  for (const f of [...findings].sort((a, b) => a.index - b.index)) byTerm.set(f.term, f);
  const bySystem = new Map<string, SymptomFinding[]>();
  for (const f of byTerm.values()) bySystem.set(f.system, [...(bySystem.get(f.system) ?? []), f]);
  const items: ContentItem[] = [];
  for (const [system, list] of bySystem) {
    const sp = language === 'zh' ? '' : ' ';
    const join = (terms: string[]): string =>
      terms.length <= 1 ? terms.join('') : `${terms.slice(0, -1).join(language === 'zh' ? '、' : ', ')}${sp}${phrase(language, 'and')}${sp}${terms[terms.length - 1]}`;
    const pos = list.filter((f) => f.present).map((f) => symptomName(language, f.term));
    const neg = list.filter((f) => !f.present).map((f) => symptomName(language, f.term));
    const parts: string[] = [];
    const end = language === 'zh' ? '。' : '.';
    if (pos.length) parts.push(`${phrase(language, 'reports')}${sp}${join(pos)}${end}`);
    if (neg.length) parts.push(`${phrase(language, 'denies')}${sp}${join(neg)}${end}`);
    items.push({
      text: parts.join(' '),
      label: systemName(language, list[0]!.system),
      weight: 5 + list.length,
      index: Math.min(...list.map((f) => f.index)),
    });
  }
  return items;
}

const CC_PATTERNS = [
  /\b(?:presents?|presenting|here|in|coming in|came in|referred|seen|seeing (?:him|her|you)|following up|follow up|visit)\s+(?:today\s+|here\s+|to\s+(?:the\s+)?clinic\s+|to\s+see\s+me\s+)?(?:for|with|because of|regarding|about)\s+((?:an?\s+|the\s+|his\s+|her\s+|your\s+|my\s+|some\s+)?[^,.;?]{3,60}?)(?=[,.;?]|\s+(?:who|which|that|and\s+(?:she|he|i|we))\b|$)/i,
];

function chiefComplaint(sentences: Sentence[], english: boolean): string | undefined {
  if (!english) return undefined;
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
