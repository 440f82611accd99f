/**
 * The note in its language: headings and fixed words (clinical-language/section-labels.ts),
 * structured facts written from the clinical phrase tables (clinical-language/phrases/), and
 * the visible marker around text the tables cannot render, which stays in the transcript's
 * language. See docs/notes.md, "Languages".
 */
import type { NoteLanguage } from '../../../../shared/languages.js';
import { noteLabels, type NoteLabels } from '../../../services/clinical-language/section-labels.js';
import { clinicalPhrases, fillTemplate, termIn, type PlanLabels } from '../../../services/clinical-language/phrases/tables.js';
import type { Fact, OrderFact } from './facts.js';

type WriterPhrase = 'denies' | 'reports' | 'agreement' | 'and' | keyof PlanLabels;

/** A heading, label or fixed phrase in the note's language. */
export function phrase(language: NoteLanguage, key: keyof NoteLabels | WriterPhrase): string {
  const p = clinicalPhrases(language);
  if (key === 'denies' || key === 'reports' || key === 'agreement' || key === 'and') return p[key];
  if (key in p.labels) return p.labels[key as keyof PlanLabels];
  return noteLabels(language)[key as keyof NoteLabels];
}

/** A list in the note's language: "a, b and c". */
function list(language: NoteLanguage, items: string[]): string {
  const p = clinicalPhrases(language);
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(p.comma)}${p.space}${p.and}${p.space}${items[items.length - 1]}`;
}

function frequencyIn(language: NoteLanguage, plain: string | undefined): string | undefined {
  if (!plain) return undefined;
  const table = clinicalPhrases(language).frequencies;
  const hours = /^every (\d+) hours$/.exec(plain);
  if (hours) return table['every {n} hours']?.replace('{n}', hours[1]!);
  return table[plain] ?? plain;
}

function orderText(fact: OrderFact, language: NoteLanguage): string | undefined {
  const p = clinicalPhrases(language);
  switch (fact.type) {
    case 'drug': {
      const frequency = frequencyIn(language, fact.frequency);
      const medication = fillTemplate(p.medication, { drug: fact.drug, dose: fact.dose, frequency });
      // "Increase X to {dose}" needs a dose; without one the plain start/continue form is written.
      const template = (fact.action === 'increase' || fact.action === 'decrease') && !fact.dose ? p.actions.continue : p.actions[fact.action];
      return fillTemplate(template, { medication, drug: fact.drug, dose: fact.dose, frequency });
    }
    case 'test': {
      const test = termIn(language, 'tests', fact.test);
      return test ? fillTemplate(p.order, { test }) : undefined;
    }
    case 'referral': {
      const to = termIn(language, 'specialties', fact.to);
      return to ? fillTemplate(p.refer, { to }) : undefined;
    }
    case 'followup': {
      if (fact.prn) return p.followUpAsNeeded;
      const time = fact.amount ? termIn(language, 'amounts', fact.amount) : fact.unit ? p.time[fact.unit][fact.n === '1' ? 0 : 1].replace('{n}', fact.n ?? '') : undefined;
      return time ? fillTemplate(p.followUp, { time }) : undefined;
    }
  }
}

/** A structured fact in the note's language, or undefined when the tables cannot write it. */
export function renderFact(fact: Fact, language: NoteLanguage): string | undefined {
  const p = clinicalPhrases(language);
  switch (fact.type) {
    case 'agreement':
      return p.agreement;
    case 'ros': {
      const names = (terms: string[]): string[] | undefined => {
        const out = terms.map((t) => termIn(language, 'symptoms', t));
        return out.every((x): x is string => x !== undefined) ? out : undefined;
      };
      const present = names(fact.present);
      const absent = names(fact.absent);
      if (!present || !absent) return undefined;
      const parts: string[] = [];
      if (present.length) parts.push(`${p.reports}${p.space}${list(language, present)}${p.stop}`);
      if (absent.length) parts.push(`${p.denies}${p.space}${list(language, absent)}${p.stop}`);
      return parts.join(p.space || '');
    }
    case 'medication':
      return `${fillTemplate(p.medication, { drug: fact.drug, dose: fact.dose, frequency: frequencyIn(language, fact.frequency) })}${p.stop}`;
    case 'vitals':
      return `${fact.values.map((v) => `${p.vitals[v.vital]}: ${v.value}`).join(language === 'zh' ? '；' : '; ')}${p.stop}`;
    default:
      return orderText(fact, language);
  }
}

/** A line label (body system, "Neck", "Vitals", a test's name) in the note's language, when known. */
export function translateLabel(label: string, language: NoteLanguage): string | undefined {
  const systems = clinicalPhrases(language).systems as Record<string, string>;
  if (label in systems) return systems[label];
  return termIn(language, 'tests', label);
}

/** A problem name or chief complaint written with the tables, or undefined. */
export function translateTerm(term: string, language: NoteLanguage): string | undefined {
  const key = term.replace(/[.。]$/, '').trim().toLowerCase();
  const found = termIn(language, 'conditions', key) ?? termIn(language, 'symptoms', key);
  if (!found) return undefined;
  return language === 'en' ? term.replace(/[.。]$/, '') : found.charAt(0).toUpperCase() + found.slice(1);
}

const EXAM_SKIP = new Set('a an the some of with and are is there his her their to in on noted present'.split(' '));

/**
 * An exam finding said only in table words ("No murmurs.", "1+ pitting edema bilaterally"),
 * written phrase by phrase; undefined when any other word is in it.
 */
export function translateFinding(text: string, language: NoteLanguage): string | undefined {
  const table = clinicalPhrases(language).exam;
  const words = text.toLowerCase().replace(/[.。]$/, '').split(/[\s,]+/).filter(Boolean);
  const out: string[] = [];
  let pending = '';
  for (let i = 0; i < words.length; ) {
    let matched = 0;
    for (let n = Math.min(6, words.length - i); n >= 1 && !matched; n--) {
      const key = words.slice(i, i + n).join(' ');
      if (table[key]) {
        out.push(`${pending}${table[key]}`);
        pending = '';
        matched = n;
      }
    }
    if (matched) {
      i += matched;
      continue;
    }
    const w = words[i]!;
    if (/^\d+(?:\/\d+|\+)?$/.test(w)) pending = `${pending}${w} `;
    else if (!EXAM_SKIP.has(w)) return undefined;
    i++;
  }
  if (out.length === 0 || pending) return undefined;
  const p = clinicalPhrases(language);
  const joined = out.join(p.comma);
  return `${joined.charAt(0).toUpperCase()}${joined.slice(1)}${p.stop}`;
}

/** Text left in the transcript's language, inside the visible marker of the note's language. */
export function untranslated(text: string, language: NoteLanguage, source: string): string {
  return `[${source}, ${clinicalPhrases(language).untranslated}: ${text}]`;
}
