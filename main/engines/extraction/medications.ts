import { DRUGS } from '../../services/clinical-language/medications.js';
import { DOSE_RE, FREQUENCY_RE, ROUTES } from './lexicon.js';
import { createTermMatcher } from './term-matcher.js';
import { isNegated } from '../../services/clinical-language/context.js';
import { splitList, type Section } from './text-analysis.js';

export interface Medication {
  name: string;
  dose?: string;
  route?: string;
  frequency?: string;
  /** The whole mention as written ("lisinopril 10 mg PO daily"). */
  text: string;
  start: number;
}

export interface Allergy {
  substance: string;
  reaction?: string;
}

const drugMatcher = createTermMatcher(DRUGS.map((d) => [...d.names]));
const STOP_WORDS = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'on', 'to', 'with', 'for', 'was', 'is', 'has', 'take', 'takes', 'taking', 'on', 'at', 'in', 'mg', 'her', 'his', 'bp', 'hr', 'pain', 'score', 'about', 'approximately', 'weight', 'weighs', 'lost', 'gained', 'temp', 'sat']);

/** Parses dose, route and frequency out of the words that follow a drug name. */
export function parseSig(rest: string): { dose?: string; route?: string; frequency?: string; length: number } {
  const clause = /^[^.;\n]*/.exec(rest)?.[0] ?? '';
  const window = clause.slice(0, 90);
  const out: { dose?: string; route?: string; frequency?: string; length: number } = { length: 0 };
  const dose = DOSE_RE.exec(window);
  if (dose && dose.index < 25) {
    out.dose = `${dose[1]} ${dose[2]}`.replace(/\s+/g, ' ');
    out.length = Math.max(out.length, dose.index + dose[0].length);
  }
  for (const [re, name] of ROUTES) {
    const m = re.exec(window);
    if (m && m.index < 45) {
      out.route = m[0].length <= 4 ? name : m[0];
      out.length = Math.max(out.length, m.index + m[0].length);
      break;
    }
  }
  const freq = FREQUENCY_RE.exec(window);
  if (freq && freq.index < 60) {
    out.frequency = freq[0].trim();
    out.length = Math.max(out.length, freq.index + freq[0].length);
  }
  return out;
}

/**
 * Medications from the medication section (one per list item) and from drug names or
 * "word + dose" mentions elsewhere, leaving out negated ones and those named as allergies.
 */
export function readMedications(text: string, sections: Section[]): Medication[] {
  const found: Medication[] = [];
  const seen = new Set<string>();
  const add = (med: Medication): void => {
    const key = med.name.toLowerCase();
    if (seen.has(key)) return;
    seen.add(key);
    found.push(med);
  };
  const allergySpans = sections.filter((s) => s.name === 'allergies').map((s) => [s.start, s.end] as const);
  const inAllergies = (at: number): boolean =>
    allergySpans.some(([a, b]) => at >= a && at < b) || /allerg(?:ic|y|ies)\s+(?:to\s+)?[\w\s,-]{0,40}$/i.test(text.slice(Math.max(0, at - 60), at));

  for (const section of sections.filter((s) => s.name === 'medications')) {
    if (/^(?:none|no medications|nil|n\/a)\b/i.test(section.body)) continue;
    const bodyStart = text.indexOf(section.body, section.start);
    for (const item of splitList(section.body)) {
      const m = /^([A-Za-z][A-Za-z\-/]*(?:\s+(?!(?:\d|po\b|iv\b|by\b|once\b|twice\b|daily\b|bid\b|tid\b))[A-Za-z][A-Za-z\-/]*){0,2})\s*(.*)$/i.exec(item);
      if (!m) continue;
      const name = (m[1] as string).trim();
      const sig = parseSig(m[2] ?? '');
      add({ name, ...stripLength(sig), text: item, start: bodyStart + Math.max(0, section.body.indexOf(item)) });
    }
  }
  const mentions = drugMatcher.find(text, sections);
  mentions.forEach((mention, i) => {
    if (mention.negated || inAllergies(mention.start)) return;
    // A drug's dose and frequency end where the next drug begins ("X daily and Y 325 mg").
    const sig = parseSig(text.slice(mention.end, mentions[i + 1]?.start ?? text.length));
    add({ name: mention.surface, ...stripLength(sig), text: text.slice(mention.start, mention.end + sig.length).trim(), start: mention.start });
  });
  // Unknown drug names written with a dose ("Xarelto 20 mg", "tirzepatide 5 mg").
  const doseWord = new RegExp(String.raw`\b([A-Za-z][A-Za-z-]{3,})\s+(?=${DOSE_RE.source.slice(2)})`, 'gi');
  for (let m = doseWord.exec(text); m; m = doseWord.exec(text)) {
    const name = m[1] as string;
    const covered = found.some((f) => m !== null && m.index >= f.start && m.index < f.start + f.text.length);
    if (covered || STOP_WORDS.has(name.toLowerCase()) || inAllergies(m.index) || isNegated(text, m.index, m.index + name.length)) continue;
    const sig = parseSig(text.slice(m.index + name.length));
    if (!sig.dose || /^(?:%|puffs?|tablets?|tabs?|caps?)/i.test(sig.dose.split(' ')[1] ?? '')) continue;
    add({ name, ...stripLength(sig), text: text.slice(m.index, m.index + name.length + sig.length).trim(), start: m.index });
  }
  return found.sort((a, b) => a.start - b.start);
}

const stripLength = (sig: { dose?: string; route?: string; frequency?: string }): Omit<Medication, 'name' | 'text' | 'start'> => {
  const out: Omit<Medication, 'name' | 'text' | 'start'> = {};
  if (sig.dose) out.dose = sig.dose;
  if (sig.route) out.route = sig.route;
  if (sig.frequency) out.frequency = sig.frequency;
  return out;
};

/** Allergies from the allergy section and "allergic to ..." phrases; `none` when the text says NKDA. */
export function readAllergies(text: string, sections: Section[]): { items: Allergy[]; none: boolean } {
  const items: Allergy[] = [];
  let none = /\b(?:nkda|nka|no known (?:drug )?allergies|no (?:drug )?allergies|denies (?:any )?(?:drug )?allergies)\b/i.test(text);
  const add = (raw: string): void => {
    const cleaned = raw.replace(/^(?:to|include|includes|including)\s+/i, '').trim();
    if (!cleaned || /^(?:none|nkda|nka|no known)/i.test(cleaned)) return;
    const m = /^(.+?)\s*(?:\((.+?)\)|[-:–]\s*(.+)|\s+(?:causing|causes|caused|which causes|leading to|results in|resulting in|gives (?:her|him|them)?|with)\s+(.+))?$/i.exec(cleaned);
    const substance = (m?.[1] ?? cleaned).replace(/\s+/g, ' ').trim();
    if (!substance || substance.length > 60 || items.some((i) => i.substance.toLowerCase() === substance.toLowerCase())) return;
    const reaction = (m?.[2] ?? m?.[3] ?? m?.[4])?.trim();
    items.push(reaction ? { substance, reaction } : { substance });
  };
  for (const section of sections.filter((s) => s.name === 'allergies')) {
    if (/^(?:none|nkda|nka|no known|denies|n\/a)/i.test(section.body)) {
      none = true;
      continue;
    }
    splitList(section.body.split(/\n\s*\n/)[0] ?? '').forEach(add);
  }
  const phrase = /\ballerg(?:ic|y|ies)\s+(?:is\s+|are\s+)?(?:to|:)\s+([^.;\n]+)/gi;
  for (let m = phrase.exec(text); m; m = phrase.exec(text)) {
    if (isNegated(text, m.index, m.index + 8)) continue;
    splitList(m[1] as string).forEach(add);
  }
  const suffix = /\b([A-Za-z][A-Za-z-]+(?: [A-Za-z-]+)?)\s+allerg(?:y|ies)\b/gi;
  for (let m = suffix.exec(text); m; m = suffix.exec(text)) {
    const word = m[1] as string;
    if (/^(?:no|known|drug|any|food|seasonal|environmental|has|with|denies|the|of|and|nkda)$/i.test(word.split(' ').pop() ?? '')) continue;
    if (isNegated(text, m.index, m.index + m[0].length)) continue;
    add(word.split(' ').slice(-1)[0] as string);
  }
  return { items, none: none && items.length === 0 };
}
