import { CONDITIONS, SYMPTOMS, type FindingEntry } from '../../services/clinical-language/lexicon.js';
import { readAllergies, readMedications, type Allergy, type Medication } from './medications.js';
import { createTermMatcher, type Mention } from './term-matcher.js';
import { findSections, type Section } from './text-analysis.js';
import { readVitals, type Vitals } from './vitals.js';

/** A date found in the text, normalised to ISO, with the words just before it. */
export interface DateMention {
  iso: string;
  start: number;
  /** Up to 40 lower-cased characters before the date (its label). */
  before: string;
}

/** Everything the embedded reader finds in one text, computed once per request. */
export interface ClinicalFacts {
  text: string;
  lower: string;
  sections: Section[];
  age?: number;
  sex?: 'male' | 'female';
  name?: string;
  dates: DateMention[];
  vitals: Vitals;
  medications: Medication[];
  allergies: Allergy[];
  noKnownAllergies: boolean;
  conditions: Mention[];
  symptoms: Mention[];
  /** "Label: value" pairs, label lower-cased. */
  labels: Map<string, string>;
}

/** Findings listed under these sections are not the patient's problems or symptoms. */
const OTHER_LISTS = new Set(['allergies', 'medications', 'family']);
/**
 * A finding is the patient's when it is not listed under another list, not a relative's
 * ("mother had breast cancer") and not merely conditional ("return if fever develops", "rule
 * out PE"). Negated findings stay: they answer "pertinent negatives" fields.
 */
const patientsOwn = (m: Mention): boolean => !OTHER_LISTS.has(m.section ?? '') && !m.context.family && !m.context.hypothetical;
const groups = (entries: readonly FindingEntry[]): string[][] => entries.map((e) => [e.term, ...e.synonyms]);
const conditionMatcher = createTermMatcher(groups(CONDITIONS));
const symptomMatcher = createTermMatcher(groups(SYMPTOMS));

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const MONTH_RE = '(jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)\\.?';

/** Reads the text once: sections, demographics, dates, vitals, medications, allergies, findings. */
export function readFacts(text: string): ClinicalFacts {
  const sections = findSections(text);
  const allergies = readAllergies(text, sections);
  return {
    text,
    lower: text.toLowerCase(),
    sections,
    age: readAge(text),
    sex: readSex(text),
    name: readName(text),
    dates: readDates(text),
    vitals: readVitals(text),
    medications: readMedications(text, sections),
    allergies: allergies.items,
    noKnownAllergies: allergies.none,
    conditions: conditionMatcher.find(text, sections).filter(patientsOwn),
    symptoms: symptomMatcher.find(text, sections).filter(patientsOwn),
    labels: readLabels(text),
  };
}

function readAge(text: string): number | undefined {
  const patterns = [
    /\b(\d{1,3})[-\s]?(?:years?|yrs?|y)[-\s]?(?:old|of age)\b/i,
    /\b(\d{1,3})\s?(?:yo|y\.o\.|y\/o|yof|yom)\b/i,
    /\bage(?:d)?\s*[:=]?\s*(\d{1,3})\b/i,
    /\b(\d{1,3})\s?(?:M|F)\b(?=[\s,.;])/,
  ];
  for (const re of patterns) {
    const m = re.exec(text);
    if (m && Number(m[1]) <= 125) return Number(m[1]);
  }
  return undefined;
}

function readSex(text: string): 'male' | 'female' | undefined {
  const explicit = /\b(?:sex|gender)\s*[:=]\s*(male|female|m|f|man|woman)\b/i.exec(text)
    ?? /\b(?:\d{1,3}[-\s]?(?:years?|yrs?|y)[-\s]?old|\d{1,3}\s?y\/?o)\s+(male|female|man|woman|gentleman|lady|boy|girl|m|f)\b/i.exec(text)
    ?? /\b\d{1,3}\s?(M|F)\b/.exec(text)
    ?? /\b\d{1,3}\s?yo(m|f)\b/i.exec(text)
    ?? /\b(male|female|man|woman|gentleman|lady)\b/i.exec(text);
  if (explicit) return /^(?:m|male|man|gentleman|boy)$/i.test(explicit[1] as string) ? 'male' : 'female';
  const he = (text.match(/\b(?:he|his|him|mr)\b/gi) ?? []).length;
  const she = (text.match(/\b(?:she|her|hers|mrs|ms)\b/gi) ?? []).length;
  if (he > she) return 'male';
  if (she > he) return 'female';
  return undefined;
}

function readName(text: string): string | undefined {
  const m = /\b(?:[Pp]atient(?: [Nn]ame)?|PATIENT(?: NAME)?|[Nn]ame|NAME|[Pp]t|PT)\s*[:=]\s*([A-Z][a-zA-Z'-]+(?:[ \t]+[A-Z](?:[a-zA-Z'-]+|\.))?(?:[ \t]+[A-Z][a-zA-Z'-]+){0,2})/.exec(text)
    ?? /\b(?:Mr|Mrs|Ms|Miss)\.?\s+([A-Z][a-zA-Z'-]+(?:\s+[A-Z][a-zA-Z'-]+)?)/.exec(text);
  return m?.[1]?.trim();
}

function readDates(text: string): DateMention[] {
  const out: DateMention[] = [];
  const push = (y: number, mo: number, d: number, start: number): void => {
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || y < 1900 || y > 2100) return;
    const iso = `${y}-${String(mo).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
    // The label is what precedes the date within its own sentence.
    const window = text.slice(Math.max(0, start - 40), start);
    const cut = Math.max(window.lastIndexOf('. '), window.lastIndexOf(';'), window.lastIndexOf('\n'));
    out.push({ iso, start, before: window.slice(cut + 1).toLowerCase() });
  };
  const year = (y: string): number => (y.length === 2 ? (Number(y) > 30 ? 1900 + Number(y) : 2000 + Number(y)) : Number(y));
  for (const m of text.matchAll(/\b(\d{4})-(\d{1,2})-(\d{1,2})\b/g)) push(Number(m[1]), Number(m[2]), Number(m[3]), m.index);
  for (const m of text.matchAll(/\b(\d{1,2})[/.-](\d{1,2})[/.-](\d{4}|\d{2})\b/g)) {
    const a = Number(m[1]);
    const b = Number(m[2]);
    // US order unless the first number cannot be a month.
    if (a > 12) push(year(m[3] as string), b, a, m.index);
    else push(year(m[3] as string), a, b, m.index);
  }
  const monthFirst = new RegExp(`\\b${MONTH_RE}\\s+(\\d{1,2})(?:st|nd|rd|th)?,?\\s+(\\d{4})\\b`, 'gi');
  for (const m of text.matchAll(monthFirst)) push(Number(m[3]), monthIndex(m[1] as string), Number(m[2]), m.index);
  const dayFirst = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\s+(?:of\\s+)?${MONTH_RE},?\\s+(\\d{4})\\b`, 'gi');
  for (const m of text.matchAll(dayFirst)) push(Number(m[3]), monthIndex(m[2] as string), Number(m[1]), m.index);
  return out.sort((a, b) => a.start - b.start);
}

const monthIndex = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase()) + 1;

function readLabels(text: string): Map<string, string> {
  const labels = new Map<string, string>();
  for (const m of text.matchAll(/(?:^|\n|[.;]\s+)\s*([A-Za-z][A-Za-z0-9 /()#&'-]{0,40}?)\s*:\s*([^\n]+)/g)) {
    const label = (m[1] as string).trim().toLowerCase();
    const value = (m[2] as string).trim();
    if (!labels.has(label)) labels.set(label, value);
  }
  return labels;
}
