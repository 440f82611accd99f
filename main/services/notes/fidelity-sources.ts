/**
 * What the sources of a note state, read once per note: every number (with how sure the
 * reading is), dose, frequency, drug, side of the body and finding of the transcript, the
 * previous note, the context and instructions, and the numbers of the patient header (dates,
 * age from the date of birth). The checker compares the note against this index.
 */
import {
  correctMedicationNames,
  isMedicationVariant,
  readDoses,
  readFrequencies,
  readNumbers,
  type Dose,
  type Frequency,
  type NumberReading,
} from '../clinical-language/index.js';
import { understandEncounter } from '../encounter/understand.js';
import type { EncounterFacts } from '../encounter/types.js';
import { drugMentions, drugOf, findingMentions, looksEnglish, sideMentions, type SideMention } from './fidelity-facts.js';

/** What a note may draw on. Patient data: never log any field of this. */
export interface FidelitySources {
  transcript: string;
  patientInfo?: { name?: string; dateOfBirth?: string };
  /** Encounter date, `YYYY-MM-DD` or `YYYY-MM-DDTHH:mm:ssZ`. */
  date?: string;
  previousNote?: string;
  context?: string;
  instructions?: string[];
  /** The caller's medication list: spells drug names; it is not evidence that a drug was discussed. */
  medicationList?: readonly string[];
  /** Text of the note type (template, headings, labels, placeholders): numbers there are layout, not facts. */
  template?: string;
  /** Today (`YYYY-MM-DD`) for the patient's age when no encounter date is given. */
  today?: string;
  /**
   * The encounter understood (main/services/encounter): problems with their certainty, sides,
   * where each vital sign was measured, the plan. Read from the transcript when not given.
   */
  facts?: EncounterFacts;
}

/** How well the sources state a number: plainly, only through words that could mean two things, or not at all. */
export type Support = { level: 'stated' } | { level: 'uncertain'; reading: NumberReading } | { level: 'none' };

/** A dose of the sources with the drug it belongs to. */
export interface SourceDose extends Dose {
  drug?: string;
  /** The number's reading, for what an unclear dose could mean. */
  reading?: NumberReading;
}
/** A frequency of the sources with the drug it belongs to. */
export interface SourceFrequency extends Frequency {
  drug?: string;
}

/** How often the sources affirm, negate or only mention a finding. */
export interface FindingCounts {
  affirmed: number;
  negated: number;
  neutral: number;
  /** Of the neutral: hedged or only to be ruled out ("possible", "rule out"). */
  uncertain: number;
  /** Of the neutral: the patient's history ("past medical history of hypertension"). */
  historical: number;
}

/** The sources, read. */
export interface SourceIndex {
  english: boolean;
  /** How the sources state a number, anywhere. */
  number(value: number): Support;
  /** How the sources state a number said without a unit (what a unit written in a note may be added to). */
  bareNumber(value: number): Support;
  doses: SourceDose[];
  frequencies: SourceFrequency[];
  /** Drugs the sources name (generic or listed name, lower case). */
  drugs: Set<string>;
  /** Every lower-case word of the sources, for misspelt drug names. */
  words: Set<string>;
  sides: SideMention[];
  /** Per finding term asked about: how often the sources affirm it, negate it, or only mention it (absent: never named). */
  findings(terms: ReadonlySet<string>): Map<string, FindingCounts>;
  /** Dates (`YYYY-MM-DD`) the sources state. */
  dates: Set<string>;
  /** Times (`HH:MM`) the sources state. */
  times: Set<string>;
  medicationList: readonly string[];
  /** The source texts (transcript, previous note, context, instructions), drug names corrected. */
  texts: string[];
  /** The transcript as given: the facts' evidence offsets point into it. */
  transcript: string;
  /** The encounter understood; read on first use (it costs more than every other check together). */
  facts(): EncounterFacts | undefined;
}

const key = (v: number): string => String(Number(v.toFixed(6)));
const US_DATE = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g;
const ISO_DATE = /\b(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::\d{2})?Z?)?\b/g;

function ageOn(dob: string, day: string): number | undefined {
  const [y1, m1, d1] = dob.split('-').map(Number);
  const [y2, m2, d2] = day.slice(0, 10).split('-').map(Number);
  if ([y1, m1, d1, y2, m2, d2].some((n) => n === undefined || Number.isNaN(n))) return undefined;
  const age = y2! - y1! - (m2! < m1! || (m2 === m1 && d2! < d1!) ? 1 : 0);
  return age >= 0 && age < 130 ? age : undefined;
}

/**
 * Reads every source once (see {@link SourceIndex}). `note`, when given, narrows the costly
 * spelling correction of the sources to the listed drugs the note names.
 */
export function indexSources(sources: FidelitySources, note?: string): SourceIndex {
  const meds = sources.medicationList ?? [];
  const named = note === undefined ? meds : meds.filter((m) => note.toLowerCase().includes(m.toLowerCase()));
  const texts = [sources.transcript, sources.previousNote, sources.context, ...(sources.instructions ?? [])]
    .filter((t): t is string => typeof t === 'string' && t.trim() !== '')
    // Misheard drug names ("metforman") are read as the listed drug, as the writers read them.
    .map((t) => correctMedicationNames(t, named));
  const stated = new Set<string>();
  const uncertain = new Map<string, NumberReading>();
  const bare = new Set<string>();
  const bareUncertain = new Map<string, NumberReading>();
  const addStated = (v: number | undefined, unitless = true): void => {
    if (v === undefined || !Number.isFinite(v)) return;
    stated.add(key(v));
    if (unitless) bare.add(key(v));
  };
  const support = (v: number, plain: Set<string>, unclear: Map<string, NumberReading>): Support =>
    plain.has(key(v)) ? { level: 'stated' } : unclear.has(key(v)) ? { level: 'uncertain', reading: unclear.get(key(v))! } : { level: 'none' };
  // Findings are read on demand, for the terms a note names, and remembered.
  const counted = new Map<string, FindingCounts | undefined>();
  const findings = (terms: ReadonlySet<string>): Map<string, FindingCounts> => {
    const fresh = new Set([...terms].filter((t) => !counted.has(t)));
    if (fresh.size > 0) {
      for (const t of fresh) counted.set(t, undefined);
      for (const text of texts) {
        for (const f of findingMentions(text, true, fresh)) {
          const counts = counted.get(f.term) ?? { affirmed: 0, negated: 0, neutral: 0, uncertain: 0, historical: 0 };
          counts[f.polarity]++;
          if (f.hedged) counts.uncertain++;
          if (f.historical) counts.historical++;
          counted.set(f.term, counts);
        }
      }
    }
    return new Map([...terms].flatMap((t) => (counted.get(t) ? [[t, counted.get(t)!] as const] : [])));
  };
  let facts: EncounterFacts | undefined;
  const index: SourceIndex = {
    english: looksEnglish(texts.join('\n')),
    number: (v) => support(v, stated, uncertain),
    bareNumber: (v) => support(v, bare, bareUncertain),
    doses: [], frequencies: [], drugs: new Set(), words: new Set(), sides: [], findings: (terms) => findings(terms), dates: new Set(), times: new Set(),
    medicationList: meds,
    texts,
    transcript: sources.transcript,
    facts: () => (facts ??= sources.facts ?? readFacts(sources)),
  };

  for (const text of texts) {
    const doses = readDoses(text);
    const readings = readNumbers(text);
    for (const r of readings) {
      const unitless = !doses.some((d) => d.start === r.start);
      // An uncertain reading states none of its meanings for sure: the note must not pick one.
      if (r.uncertain) {
        for (const v of [r.value, r.to, r.over, ...(r.alternatives ?? [])]) {
          if (v === undefined) continue;
          uncertain.set(key(v), r);
          if (unitless) bareUncertain.set(key(v), r);
        }
      } else [r.value, r.to, r.over].forEach((v) => addStated(v, unitless));
    }
    // Counts said as words: "a week", "once", "twice", "a couple of days", "half a tablet".
    const lower = text.toLowerCase();
    if (/\b(a|an|once|single)\b/.test(lower)) addStated(1);
    if (/\b(twice|couple)\b/.test(lower)) addStated(2);
    if (/\bhalf\b/.test(lower)) addStated(0.5);
    const drugs = drugMentions(text, meds);
    for (const d of drugs) index.drugs.add(d.drug);
    for (const w of lower.match(/\p{L}[\p{L}'-]*/gu) ?? []) index.words.add(w);
    for (const d of doses) {
      const drug = drugOf(text, drugs, d.start, d.end)?.drug;
      const reading = readings.find((r) => r.start === d.start);
      index.doses.push({ ...d, ...(drug ? { drug } : {}), ...(reading ? { reading } : {}) });
    }
    for (const f of readFrequencies(text)) {
      const drug = drugOf(text, drugs, f.start, f.end)?.drug;
      index.frequencies.push({ ...f, ...(drug ? { drug } : {}) });
    }
    index.sides.push(...sideMentions(text));
    for (const m of text.matchAll(ISO_DATE)) index.dates.add(m[0].slice(0, 10));
    for (const m of text.matchAll(US_DATE)) index.dates.add(`${m[3]}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}`);
  }

  // The header: dates and their parts, times, and the patient's age on the encounter date.
  const header = [sources.date, sources.patientInfo?.dateOfBirth].filter((d): d is string => Boolean(d));
  for (const d of [...header, ...index.dates]) {
    for (const m of d.matchAll(ISO_DATE)) {
      index.dates.add(m[0].slice(0, 10));
      [m[1], m[2], m[3], m[4], m[5]].forEach((p) => p !== undefined && addStated(Number(p)));
      if (m[4] !== undefined) index.times.add(`${Number(m[4])}:${m[5]}`);
    }
  }
  const dob = sources.patientInfo?.dateOfBirth;
  const day = sources.date ?? sources.today;
  if (dob && day) addStated(ageOn(dob, day));
  for (const r of readNumbers(sources.template ?? '')) [r.value, r.to, r.over].forEach((v) => addStated(v));
  return index;
}

/** The encounter read from the sources; undefined when the transcript is empty. */
function readFacts(sources: FidelitySources): EncounterFacts | undefined {
  if (!sources.transcript.trim()) return undefined;
  try {
    return understandEncounter({
    transcript: sources.transcript,
    ...(sources.patientInfo ? { patientInfo: sources.patientInfo } : {}),
    ...(sources.medicationList?.length ? { medicationList: sources.medicationList.join(', ') } : {}),
    ...(sources.previousNote ? { previousNote: sources.previousNote } : {}),
    ...(sources.context ? { context: sources.context } : {}),
    });
  } catch {
    // A failure of the understanding must not fail the note: the word-level checks still run.
    return undefined;
  }
}

/** Whether the sources name `drug` (a note's mention), directly or by a misspelt or misheard form. */
export function drugStated(index: SourceIndex, drug: string, surface: string): boolean {
  if (index.drugs.has(drug)) return true;
  const first = surface.toLowerCase().split(/\s+/)[0]!;
  if (index.words.has(first)) return true;
  for (const w of index.words) if (isMedicationVariant(w, first)) return true;
  return false;
}

/** Source sides that qualify any of `targets` (stemmed words). */
export function sidesFor(index: SourceIndex, targets: readonly string[]): SideMention[] {
  return index.sides.filter((s) => s.targets.some((t) => targets.includes(t)));
}
