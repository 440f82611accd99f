/**
 * The checks: every number, dose, unit, frequency, side of the body, negation and drug of a
 * note's text, compared with what its sources state (`fidelity-sources.ts`). Each failure is an
 * issue with its span in the text; `fidelity.ts` turns issues into review markers.
 */
import { FINDING_GROUPS, readDoses, readFrequencies, readNumbers, sentenceSpans, type Dose, type NumberReading } from '../clinical-language/index.js';
import { drugMentions, drugOf, findingMentions, sideMentions, type DrugMention } from './fidelity-facts.js';
import { drugStated, sidesFor, type FindingCounts, type SourceIndex, type Support } from './fidelity-sources.js';
import { checkDiagnoses, checkOrders, checkSidesAgainstFacts, checkVitalSources } from './fidelity-claims.js';
import { checkRegister } from './fidelity-register.js';
import { MARKER_SPAN, type FidelityIssue, type FidelityKind } from './fidelity-issue.js';

interface Span {
  start: number;
  end: number;
}

/** Units a note may add to a vital sign said without one ("one twenty over eighty" -> mmHg). */
const IMPLIED_UNITS = new Set(['pressure', 'percent', 'temperature', 'rate']);
/** Units of what a drug is given in: a dose of these must be one the sources give for that drug. */
const DRUG_UNITS = new Set(['mass', 'volume', 'dose', 'concentration']);
const ISO = /\b(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{1,2}):(\d{2})(?::\d{2})?Z?)?\b/g;
const US_DATE = /\b(\d{1,2})\/(\d{1,2})\/(\d{4})\b/g;
const MONTH_YEAR = /\b(\d{1,2})\/(\d{4})\b/g;
const TIME = /\b(\d{1,2}):(\d{2})(?::\d{2})?\b/g;

const inside = (s: Span, zones: readonly Span[]): boolean => zones.some((z) => s.start < z.end && z.start < s.end);
const sameValue = (a: number | undefined, b: number | undefined): boolean => a === b || (a !== undefined && b !== undefined && Math.abs(a - b) < 1e-9);
const sameAmount = (a: Dose, b: Dose): boolean => sameValue(a.value, b.value) && sameValue(a.to, b.to) && sameValue(a.over, b.over);
const sameUnit = (note: Dose, source: Dose): boolean =>
  note.unit.symbol === source.unit.symbol || (source.unit.symbol === '°' && note.unit.kind === 'temperature');
const fmt = (v: number): string => String(Number(v.toFixed(6)));

/** Parts of a note text that are layout, not facts: headings, list numbers, markers already placed. */
function layoutZones(text: string): Span[] {
  const zones: Span[] = [];
  for (const m of text.matchAll(MARKER_SPAN)) zones.push({ start: m.index, end: m.index + m[0].length });
  // Words kept as spoken before their marker ("\". five milligrams\" ⚠[check: …]") were checked already.
  for (const m of text.matchAll(/"[^"\n]*"(?=\s*⚠\[check: )/g)) zones.push({ start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(/^#{1,6}[ \t].*$/gm)) zones.push({ start: m.index, end: m.index + m[0].length });
  for (const m of text.matchAll(/^[ \t]*(?:[-*+][ \t]+)?\(?\d{1,2}[.)](?=[ \t])/gm)) zones.push({ start: m.index, end: m.index + m[0].length });
  return zones;
}

/** A number written against letters is part of a name or code ("S1", "A1c", "L4-L5", "COVID-19", "#2"). */
function partOfName(text: string, r: Span): boolean {
  const before = text.slice(Math.max(0, r.start - 2), r.start);
  return /[\p{L}#]$|[\p{L}\p{N}]-$/u.test(before);
}

function worst(supports: Support[]): Support {
  return supports.find((s) => s.level === 'none') ?? supports.find((s) => s.level === 'uncertain') ?? { level: 'stated' };
}

/** A number the transcript says unclearly: a single number is shown as spoken; a range or reading keeps its text. */
function unclear(kind: FidelityKind, span: Span & { text: string }, reading: NumberReading, spoken = reading.spoken, single = true): FidelityIssue {
  const meanings = [...new Set([reading.text, ...(reading.alternatives ?? []).map(fmt)])].join(' or ');
  return {
    kind, start: span.start, end: span.end, text: span.text, action: 'marked', ...(single ? { replacement: `"${spoken}"` } : {}),
    reason: `unclear in the transcript (${reading.reason ?? 'could be read more than one way'}): ${meanings}`,
  };
}

function checkDose(d: Dose, index: SourceIndex, drug: DrugMention | undefined): FidelityIssue | undefined {
  const span = { start: d.start, end: d.end, text: d.spoken };
  const exact = index.doses.filter((s) => sameAmount(d, s) && sameUnit(d, s));
  if (drug && DRUG_UNITS.has(d.unit.kind)) {
    const given = index.doses.filter((s) => s.drug === drug.drug && DRUG_UNITS.has(s.unit.kind));
    if (given.length > 0 && !given.some((s) => sameAmount(d, s) && sameUnit(d, s))) {
      const unit = given.find((s) => sameAmount(d, s));
      if (unit) return { kind: 'unit', ...span, action: 'marked', reason: `the transcript says ${drug.surface} ${unit.text}` };
      const says = [...new Set(given.map((s) => s.text))].join(', ');
      return { kind: 'dose', ...span, action: exact.length > 0 ? 'marked' : 'removed', reason: `the transcript gives ${drug.surface} ${says}` };
    }
  }
  if (exact.some((s) => !s.uncertain)) return undefined;
  // Said with this unit, but in words that could mean two numbers: keep the words, never pick one.
  const unclearDose = index.doses.find(
    (s) => s.uncertain && s.reading && sameUnit(d, s) && d.to === undefined && d.over === undefined &&
      [s.value, ...(s.reading.alternatives ?? [])].some((v) => sameValue(v, d.value)),
  );
  if (unclearDose) return unclear('dose', span, unclearDose.reading!, unclearDose.spoken);
  const otherUnit = index.doses.find((s) => sameAmount(d, s) && !s.uncertain);
  if (otherUnit) return { kind: 'unit', ...span, action: 'marked', reason: `the transcript says ${otherUnit.text}` };
  // Said without a unit: vital signs take theirs by convention; a dose's unit must be said.
  const support = worst([d.value, d.to, d.over].filter((v): v is number => v !== undefined).map(index.bareNumber));
  if (support.level === 'stated') {
    return IMPLIED_UNITS.has(d.unit.kind) ? undefined : { kind: 'unit', ...span, action: 'marked', reason: `the unit (${d.unit.symbol}) is not in the transcript` };
  }
  if (support.level === 'uncertain') return unclear('dose', span, support.reading, support.reading.spoken, d.to === undefined && d.over === undefined);
  const what = DRUG_UNITS.has(d.unit.kind) ? 'dose' : 'measurement';
  return { kind: 'dose', ...span, action: 'removed', reason: `${what} not in the transcript` };
}

function checkDate(text: string, index: SourceIndex, zones: Span[]): { issues: FidelityIssue[]; spans: Span[] } {
  const issues: FidelityIssue[] = [];
  const spans: Span[] = [];
  const stated = (v: string | undefined): boolean => v === undefined || index.number(Number(v)).level === 'stated';
  const visit = (m: RegExpMatchArray, iso: string | undefined, parts: (string | undefined)[]): void => {
    const span = { start: m.index!, end: m.index! + m[0].length };
    if (inside(span, [...zones, ...spans])) return;
    spans.push(span);
    if (iso ? index.dates.has(iso) && parts.every(stated) : parts.every(stated)) return;
    issues.push({ kind: 'date', ...span, text: m[0], action: 'marked', reason: 'date or time not in the transcript or header' });
  };
  for (const m of text.matchAll(ISO)) visit(m, `${m[1]}-${m[2]}-${m[3]}`, m[4] !== undefined && !index.times.has(`${Number(m[4])}:${m[5]}`) ? [m[4], m[5]] : []);
  for (const m of text.matchAll(US_DATE)) visit(m, `${m[3]}-${m[1]!.padStart(2, '0')}-${m[2]!.padStart(2, '0')}`, [m[1], m[2], m[3]]);
  for (const m of text.matchAll(MONTH_YEAR)) visit(m, undefined, [m[1], m[2]]);
  for (const m of text.matchAll(TIME)) visit(m, undefined, index.times.has(`${Number(m[1])}:${m[2]}`) ? [] : [m[1], m[2] === '00' ? undefined : m[2]]);
  return { issues, spans };
}

/** Every fact of `text` (one note, or one piece of its structured form) its sources do not support. */
export function findIssues(text: string, index: SourceIndex): FidelityIssue[] {
  const zones = layoutZones(text);
  const issues: FidelityIssue[] = [];
  // A fact already followed by its marker was checked before: checking twice changes nothing.
  const free = (s: Span): boolean => !inside(s, zones) && !/^\s*⚠\[check: /.test(text.slice(s.end, s.end + 12));
  const sentences = sentenceSpans(text, { lineBreaks: true });
  const sentenceOf = (s: Span): Span => sentences.find((x) => x.start <= s.start && s.end <= x.end) ?? s;
  const drugs = drugMentions(text, index.medicationList);

  for (const d of drugs) {
    if (free(d) && !drugStated(index, d.drug, d.surface)) {
      issues.push({ kind: 'medication', start: d.start, end: d.end, text: d.surface, action: 'removed', reason: 'medication not mentioned in the transcript' });
    }
  }
  const dates = checkDate(text, index, zones);
  issues.push(...dates.issues);
  const facts = index.english ? index.facts() : undefined;
  // A diagnosis is judged whole, before its parts: "type 2 diabetes" never said is one flag, not a number removed.
  if (index.english) issues.push(...checkDiagnoses(text, index, facts, free));
  if (index.english) {
    const doses = readDoses(text).filter((d) => free(d) && !partOfName(text, d));
    for (const d of doses) {
      const issue = checkDose(d, index, drugOf(text, drugs, d.start, d.end, sentenceOf(d)));
      if (issue) issues.push(issue);
    }
    for (const r of readNumbers(text)) {
      if (!free(r) || inside(r, doses) || inside(r, dates.spans) || partOfName(text, r)) continue;
      const support = worst([r.value, r.to, r.over].filter((v): v is number => v !== undefined).map(index.number));
      const span = { start: r.start, end: r.end, text: r.spoken };
      if (support.level === 'uncertain') issues.push(unclear('number', span, support.reading, support.reading.spoken, r.kind === 'number'));
      else if (support.level === 'none') issues.push({ kind: 'number', ...span, action: 'removed', reason: 'number not in the transcript' });
    }
    for (const f of readFrequencies(text)) {
      if (!free(f)) continue;
      const sentence = sentenceOf(f);
      const drug = drugOf(text, drugs, f.start, f.end, sentence);
      // Only a frequency of a medication is checked: "walks daily" is not an order.
      if (!drug && !doses.some((d) => d.start >= sentence.start && d.end <= sentence.end && DRUG_UNITS.has(d.unit.kind))) continue;
      // "3 times daily": the core reads only its "daily"; the count in digits before it says how often.
      const times = f.abbreviation === 'QD' ? /\b(\d)\s+times\s+(?:a\s+|per\s+)?$/i.exec(text.slice(Math.max(0, f.start - 16), f.start)) : null;
      const perDay = times ? Number(times[1]) : undefined;
      const fits = (s: { abbreviation: string; perDay?: number }): boolean =>
        perDay !== undefined ? s.perDay === perDay : s.abbreviation === f.abbreviation || (f.abbreviation === 'QD' && s.abbreviation === 'QHS');
      const given = drug ? index.frequencies.filter((s) => s.drug === drug.drug) : [];
      const span = { kind: 'frequency' as const, start: f.start, end: f.end, text: f.text, action: 'marked' as const };
      if (given.length > 0 && !given.some(fits)) issues.push({ ...span, reason: `the transcript says ${[...new Set(given.map((s) => s.text))].join(', ')}` });
      else if (given.length === 0 && !index.frequencies.some(fits)) issues.push({ ...span, reason: 'frequency not in the transcript' });
    }
    for (const m of sideMentions(text)) {
      if (!free(m)) continue;
      const related = sidesFor(index, m.targets);
      const span = { kind: 'laterality' as const, start: m.start, end: m.end, text: m.phrase, action: 'marked' as const };
      if (related.length > 0 && !related.some((s) => s.side === m.side)) issues.push({ ...span, reason: `the transcript says ${related[0]!.phrase}` });
      else if (related.length === 0 && !index.sides.some((s) => s.side === m.side)) issues.push({ ...span, reason: `side (${m.side}) not in the transcript` });
    }
    const findings = findingMentions(text, false).filter((f) => free(f) && f.polarity !== 'neutral');
    const asked = new Set(findings.flatMap((f) => [f.term, ...(FINDING_GROUPS[f.term] ?? [])]));
    const saidOf = index.findings(asked);
    for (const f of findings) {
      const said = FINDING_GROUPS[f.term] ? groupSaid(f.term, saidOf) : saidOf.get(f.term);
      const span = { kind: 'negation' as const, start: f.start, end: f.end, text: text.slice(f.start, f.end), action: 'marked' as const };
      // A denial the transcript does not make is taken out, not only marked: "denies urinary symptoms"
      // of a patient who is incontinent was signed-ready text with a marker beside it.
      // The reason names what went ("the denial of headache"), so the denials left beside the marker read as kept.
      if (f.polarity === 'negated' && !said) issues.push({ ...span, action: 'removed', reason: `the denial of ${f.term} (not discussed in the transcript)` });
      else if (f.polarity === 'negated' && said && said.affirmed > 0 && said.negated === 0) issues.push({ ...span, action: 'removed', reason: `the denial of ${f.term} (the transcript reports ${f.term})` });
      else if (f.polarity === 'negated' && said && said.negated === 0 && said.uncertain > 0) issues.push({ ...span, reason: `the transcript is unsure about ${f.term}` });
      else if (f.polarity === 'affirmed' && said && said.negated > 0 && said.affirmed === 0) issues.push({ ...span, reason: `the transcript says no ${f.term}` });
    }
    // What needs the encounter understood: sides, where vitals were taken, orders (diagnoses are read first, above).
    if (facts) issues.push(...checkSidesAgainstFacts(text, facts, index, free), ...checkVitalSources(text, facts, index.transcript, free));
    issues.push(...checkOrders(text, index.texts, free), ...checkRegister(text, free));
  }
  // One issue per stretch of text: the first found (drugs, dates, doses before bare numbers) wins.
  const kept: FidelityIssue[] = [];
  for (const i of issues) if (!kept.some((k) => i.start < k.end && k.start < i.end)) kept.push(i);
  return kept.sort((a, b) => a.start - b.start);
}

/** What the transcript says of a group's members, as one finding: denied only when none is reported. */
function groupSaid(term: string, saidOf: ReadonlyMap<string, FindingCounts>): FindingCounts | undefined {
  // The group's own mentions count with its members': a member reported stands against "no urinary symptoms".
  const members = [term, ...(FINDING_GROUPS[term] ?? [])].flatMap((m) => (saidOf.has(m) ? [saidOf.get(m)!] : []));
  if (members.length === 0) return undefined;
  const sum = (k: keyof FindingCounts): number => members.reduce((n, c) => n + c[k], 0);
  // One member reported is enough: "no urinary symptoms" then "yes, it burns" does not deny the group.
  const reported = (FINDING_GROUPS[term] ?? []).some((m) => (saidOf.get(m)?.affirmed ?? 0) > 0);
  return { affirmed: sum('affirmed'), negated: reported ? 0 : sum('negated'), neutral: sum('neutral'), uncertain: sum('uncertain'), historical: sum('historical') };
}
