/**
 * The embedded ICD-10-CM coder: deterministic, table-driven. The encounter understanding reads
 * the text (a note through note-facts.ts, a conversation through understand.ts): its problems, and
 * what is present, denied, uncertain, past or a relative's. The coder names what it is given in
 * the table: the most specific billable code the words support, the table's conventions, and the
 * main reason for the visit ranked first.
 */
import { understandNote, type NoteFacts } from '../encounter/note-facts.js';
import { understandEncounter } from '../encounter/understand.js';
import type { EncounterFacts } from '../encounter/types.js';
import type { NoteSentence } from '../encounter/written-note.js';
import { compileLexicon, type CodingLexicon, type CompiledLexicon } from './lexicon.js';
import { findMentions, type Mention, type SetAside } from './mentions.js';
import { addDiabetesOfComplications, mergeGroups } from './mention-links.js';
import { absorbIntoCombinations, applyCombinations, applyExclusions, dropExplainedSymptoms, dropHistoryOfCurrent, dropSupportingSymptoms, linkPairs, resolveConflicts, type Candidate } from './conventions.js';
import { assessmentFromFacts, complaintAssessment, problemAt, type FactsAssessment } from './from-facts.js';
import { notThePatientsNow, planView } from './transcript-view.js';
import { findInjuries, injuryPool } from './injuries.js';
import { toEvidence, type EvidenceSpan } from './offsets.js';
import { addBmi } from './bmi.js';
import { dropUnreliedHistory, qualifyFromLines, statesHighGlucose, unconfirmedHeadings } from './problem-blocks.js';
import { confidenceOf, rank } from './ranking.js';
import { withAbnormalFindings } from './first-listed.js';
import type { CodeTable, IcdSuggestion } from './ports.js';
import { BASE, createResolver, resolveMention, type Resolved, type Resolver } from './resolve-mention.js';
import { createTitleCache } from './specificity.js';
import { buildTitleIndex, type TitleIndex } from './title-index.js';

export type { IcdSuggestion } from './ports.js';

export interface IcdCoderResult {
  codes: IcdSuggestion[];
  /** Findings the text denies, rules out or leaves uncertain (never coded). */
  setAside: SetAside[];
}

export interface IcdCoder {
  readonly edition: string;
  /** The code table the coder reads. */
  readonly table: CodeTable;
  analyze(text: string): IcdCoderResult;
  /**
   * Codes a conversation through the encounter understanding: its confirmed, current problems,
   * with evidence spans into the transcript. `facts` when the caller has read them already.
   */
  analyzeTranscript(transcript: string, facts?: EncounterFacts): IcdCoderResult;
  /** Problems with the index against this edition (anchors it lacks). */
  readonly warnings: string[];
}

/**
 * Short notes that take every path of an analysis (sections, context triggers, injuries,
 * conventions): each analysed once at start-up, it builds the indexes and compiles the patterns, so the
 * first real request costs what any other does.
 */
export const WARM_UP = [
  'CHIEF COMPLAINT\nKnee pain.\nASSESSMENT AND PLAN\n1. Right knee MCL sprain. Denies fever; no history of diabetes.\n2. Type 2 diabetes, poorly controlled, with CKD stage 3a. Possible pneumonia, rule out COVID-19. Family history of breast cancer. Former smoker.\n3. Hypertension.',
  // The same with characters outside Latin-1 ("•", "’"): V8 compiles each pattern again for such two-byte strings.
  'ASSESSMENT AND PLAN\nHeart failure.\n• Medical Reasoning: He doesn’t have chest pain; I believe this is a lumbar strain. Echo shows mild mitral regurgitation.',
];

/** The parts of a coder that every analysis shares. */
interface CoderParts extends Resolver {
  lexicon: CompiledLexicon;
  index: () => TitleIndex;
  injuries: () => ReturnType<typeof injuryPool>;
}

export function createIcdCoder(table: CodeTable, lexiconData: CodingLexicon): IcdCoder {
  const lexicon = compileLexicon(lexiconData, table);
  let titles: TitleIndex | undefined;
  let injuries: ReturnType<typeof injuryPool> | undefined;
  const k: CoderParts = {
    ...createResolver(table, createTitleCache(lexicon.softWords)), lexicon,
    index: () => (titles ??= buildTitleIndex(table)),
    injuries: () => (injuries ??= injuryPool(table)),
  };
  return {
    edition: table.edition,
    table,
    warnings: lexicon.warnings,
    analyze(text) {
      const { ranked, setAside } = codeText(k, text);
      return { setAside, codes: ranked.map((c, i) => suggestion(k, c, i, ranked.length, toEvidence(text, c.spans))) };
    },
    analyzeTranscript: (transcript, facts = understandEncounter({ transcript })) => codeTranscript(k, transcript, facts),
  };
}

/** The mentions the coder resolves, and the findings set aside (by the encounter understanding's reading). */
function readMentions(k: CoderParts, text: string, note: NoteFacts): { mentions: Mention[]; setAside: SetAside[] } {
  const { mentions, setAside } = findMentions(note.scope, k.lexicon, k.index());
  addDiabetesOfComplications(k.lexicon.concepts.get('diabetes'), text, mentions);
  mergeGroups(mentions);
  if (!note.document.hasAssessment) return { mentions, setAside };
  qualifyFromLines(note.problems, mentions);
  const unconfirmed = unconfirmedHeadings(note.problems, mentions);
  for (const m of unconfirmed) setAside.push({ start: m.start, end: m.end, why: 'uncertain', ...(m.concept ? { conceptId: m.concept.id } : {}) });
  return { mentions: unconfirmed.size ? mentions.filter((m) => !unconfirmed.has(m)) : mentions, setAside };
}

/** Words of the note's other current conditions, once per group (a long note has thousands of mentions). */
function globalWordsBy(mentions: readonly Mention[], highGlucose: boolean): (m: Mention) => Map<string, number> {
  const byGroup = new Map<string, Map<string, number>>();
  return (m) => {
    const key = m.concept!.group ?? m.concept!.id;
    let words = byGroup.get(key);
    if (!words) {
      words = new Map();
      for (const o of mentions) if (o.role === 'current' && (o.concept?.group ?? o.concept?.id) !== key) for (const w of o.words) words.set(w, 1);
      if (highGlucose) words.set('hyperglycemia', 1);
      byGroup.set(key, words);
    }
    return words;
  };
}

/** A short line of the assessment that names a problem is its heading, with up to four qualifiers first ("Right upper lobe lung cancer."). */
function headlineTest(text: string, note: NoteFacts): (m: Mention) => boolean {
  const headings = new Set<NoteSentence>(note.problems.map((p) => p.heading));
  return (m) => {
    const before = text.slice(Math.max(m.sentence.start, m.start - 80), m.start);
    return isHeadline(before, m.start - 80 <= m.sentence.start) || (m.start - 80 <= m.sentence.start && headings.has(m.sentence) && onlyQualifiers(before));
  };
}

/** One resolved code of a mention added to the candidates, or its evidence added to the code already there. */
function addResolved(out: Map<string, Candidate>, r: Resolved, m: Mention, headline: boolean): void {
  const prev = out.get(r.entry.code);
  if (!prev) {
    out.set(r.entry.code, {
      entry: r.entry, role: r.role, spans: [{ start: m.start, end: m.end }], firstAt: m.start, why: r.why, how: r.how, evidenceScore: r.score,
      symptom: m.concept?.kind === 'symptom' || /^R/.test(r.entry.code), headline, ...(headline ? { headAt: m.start } : {}), related: [], concepts: m.concept ? [m.concept.id] : [],
      discussionOnly: m.discussion, ...(m.workedUp ? { workedUp: true } : {}), ...(m.reason ? { reason: true } : {}),
    });
    return;
  }
  prev.spans.push({ start: m.start, end: m.end });
  prev.firstAt = Math.min(prev.firstAt, m.start);
  prev.evidenceScore = Math.max(prev.evidenceScore, r.score) + 0.02;
  prev.headline ||= headline;
  if (headline) prev.headAt = Math.min(prev.headAt ?? Infinity, m.start);
  prev.discussionOnly &&= m.discussion;
  if (m.workedUp) prev.workedUp = true;
  if (m.reason) prev.reason = true;
  if (m.concept && !prev.concepts.includes(m.concept.id)) prev.concepts.push(m.concept.id);
}

/** Every mention resolved to its codes, merged by code. */
function gatherCandidates(k: CoderParts, text: string, note: NoteFacts, mentions: readonly Mention[], highGlucose: boolean): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  const globalWordsOf = globalWordsBy(mentions, highGlucose);
  const headlineOf = headlineTest(text, note);
  const resolved = new Map<string, Resolved[]>();
  // A sentence that opens with a problem is that problem's heading: every code read from it keeps the heading's place.
  const headings = new Set(mentions.filter((m) => m.role === 'current' && headlineOf(m)).map((m) => m.sentence));
  for (const m of mentions) {
    const headline = headings.has(m.sentence) && (m.role === 'current' || headlineOf(m));
    // Repeated mentions with the same words resolve alike: resolve each once.
    const key = `${m.concept?.id ?? m.titleEntry?.code}|${m.role}|${m.source}|${m.sentence.section}|${m.words.join(',')}|${[...m.context.positive].sort().join(',')}|${[...m.context.absent].sort().join(',')}`;
    let results = resolved.get(key);
    if (!results) resolved.set(key, (results = resolveMention(k, m, m.concept?.combines ? globalWordsOf(m) : new Map())));
    for (const r of results) addResolved(out, r, m, headline);
  }
  for (const [code, c] of out) if (c.discussionOnly) out.delete(code);
  return out;
}

/** Injuries matched to the table's site, side and 7th character replace the index's rougher injury codes of the same sentence. */
function addInjuries(k: CoderParts, text: string, scope: readonly NoteSentence[], out: Map<string, Candidate>): void {
  for (const inj of findInjuries(scope, k.injuries())) {
    const { sentence } = inj;
    for (const [code, c] of out) if (/^[ST]/.test(code) && code !== inj.entry.code && c.spans.every((x) => x.start >= sentence.start && x.end <= sentence.end)) out.delete(code);
    const prev = out.get(inj.entry.code);
    const at = inj.spans[0]!.start;
    if (prev) {
      prev.spans.push(...inj.spans);
      prev.firstAt = Math.min(prev.firstAt, at);
      continue;
    }
    const headline = isHeadline(text.slice(sentence.start, at), true);
    out.set(inj.entry.code, {
      entry: inj.entry, role: 'current', spans: inj.spans, firstAt: at, why: [inj.why], evidenceScore: BASE.title * (sentence.section === 'assessment' || sentence.section === 'none' ? 1 : 0.88),
      symptom: false, headline, ...(headline ? { headAt: at } : {}), related: [], concepts: [], discussionOnly: false,
    });
  }
}

/** The table's conventions and the outpatient rules, in order, on the candidates of one text. */
function applyConventions(k: CoderParts, note: NoteFacts, out: Map<string, Candidate>, highGlucose: { start: number; end: number } | undefined): Candidate[] {
  addBmi(k.table, note.scope, out);
  if (highGlucose) {
    for (const c of out.values()) if (/^E(0[89]|1[013])\.65/.test(c.entry.code)) (c.spans.push(highGlucose), c.why.push('diabetes with hyperglycemia: the note states the glucose or A1c high'));
  }
  dropHistoryOfCurrent(out);
  if (note.document.hasAssessment) dropUnreliedHistory(note.scope, note.problems, out);
  applyCombinations(k.table, k.lexicon, out);
  applyExclusions(k.lexicon, out);
  absorbIntoCombinations(k.table, k.titleOf, out);
  dropExplainedSymptoms(k.lexicon, out);
  if (note.document.hasAssessment) dropSupportingSymptoms(out);
  resolveConflicts(k.table, k.titleOf, out);
  withAbnormalFindings(k.table, k.titleOf, note.scope, out);
  const firstOf = linkPairs(k.table, out);
  return rank([...out.values()], firstOf, k.titleOf, k.lexicon.firstListed);
}

/** The codes of a text, ranked, before they are shown. */
function codeText(k: CoderParts, text: string): { ranked: Candidate[]; setAside: SetAside[] } {
  const note = understandNote(text);
  const { mentions, setAside } = readMentions(k, text, note);
  const highGlucose = statesHighGlucose(note.scope);
  const out = gatherCandidates(k, text, note, mentions, !!highGlucose);
  addInjuries(k, text, note.scope, out);
  return { ranked: applyConventions(k, note, out, highGlucose), setAside };
}

/** A written assessment's codes, each with its problem's evidence in the transcript. */
function codeProblems(k: CoderParts, transcript: string, written: FactsAssessment, what: string): { c: Candidate; evidence: EvidenceSpan[]; source: string }[] {
  return codeText(k, written.text).ranked.map((c) => {
    const problems = [...new Set(c.spans.map((x) => problemAt(written, x.start)).filter((p) => !!p))];
    const source = `${what}${problems.length > 1 ? 's' : ''} ${problems.map((p) => `"${p!.name}"`).join(', ')}`;
    return { c, evidence: toEvidence(transcript, problems.flatMap((p) => p!.evidence)), source };
  }).filter((x) => x.evidence.length);
}

/** A conversation coded through the encounter understanding: its confirmed, current problems, evidence in the transcript. */
function codeTranscript(k: CoderParts, transcript: string, facts: EncounterFacts): IcdCoderResult {
  // The problems the facts confirm, in their order; each code's evidence is what its problem was read from.
  const written = assessmentFromFacts(facts, transcript);
  const all = codeProblems(k, transcript, written, "the encounter's confirmed problem");
  if (!written.lines.length) {
    // The understanding named no problem: the clinician's plan is read as an assessment, less what the facts doubt, deny or give to others.
    const doubted = notThePatientsNow(facts);
    for (const c of codeText(k, planView(transcript, facts)).ranked) {
      if (!c.spans.some((x) => doubted.some((d) => x.start < d.end && d.start < x.end))) all.push({ c, evidence: toEvidence(transcript, c.spans), source: "read from the clinician's plan (the encounter understanding named no problem)" });
    }
  }
  // Nothing named anywhere: no diagnosis is established, and the patient's complaint is what is coded.
  if (!all.length) all.push(...codeProblems(k, transcript, complaintAssessment(facts), 'no diagnosis established: the chief complaint'));
  return {
    codes: all.map(({ c, evidence, source }, i) => suggestion(k, c, i, all.length, evidence, source)),
    setAside: written.setAside.flatMap(({ problem, why }) => problem.evidence.slice(0, 1).map((e) => ({ start: e.start, end: e.end, why: why === 'negated' ? ('negated' as const) : ('uncertain' as const) }))),
  };
}

function suggestion(k: CoderParts, c: Candidate, i: number, total: number, evidence: EvidenceSpan[], source?: string): IcdSuggestion {
  return {
    system: 'ICD-10-CM', code: c.entry.code, display: c.entry.title, confidence: confidenceOf(c, total, k.titleOf(c.entry)),
    evidence, edition: k.table.edition, role: c.role, rank: i + 1, related: [...new Set(c.related)], why: c.why,
    rule: `${c.entry.code}: ${source ? `${source}; ` : ''}${[...new Set(c.why)].join('; ') || c.how || 'named in the text'}`,
  };
}

/** True when at most two words (after a list number, bullet or label) stand before the mention in its sentence. */
function isHeadline(before: string, fromSentenceStart: boolean): boolean {
  if (!fromSentenceStart) return false;
  const words = before.replace(/^\s*(?:[-*•]|\(?\d{1,2}[.)])\s*/, '').replace(/^[^:]{0,30}:\s*/, '').match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length <= 2;
}

const NOT_QUALIFIER = /^(?:her|his|she|he|i|we|they|it|its|their|this|that|these|those|the|a|an|is|are|was|were|has|have|had|will|would|may|also|patient|no|not)$|(?:ed|ing|s)$/;
/** Up to four words that can only qualify a problem's name (site, side, acuity: "right upper lobe"), after a list number or bullet. */
function onlyQualifiers(before: string): boolean {
  const words = before.replace(/^\s*(?:[-*•]|\(?\d{1,2}[.)])\s*/, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length <= 4 && words.every((w) => !NOT_QUALIFIER.test(w));
}
