/**
 * The embedded ICD-10-CM coder: deterministic, table-driven. It reads the note's assessment (or
 * the whole text when there is none), finds what the patient has, sets aside what is denied,
 * ruled out or uncertain, chooses the most specific billable code the words support, applies the
 * table's conventions, and ranks the main reason for the visit first.
 */
import { readDocument } from './document.js';
import { compileLexicon, resolveCode, type CodingLexicon, type CompiledLexicon } from './lexicon.js';
import { findMentions, sentencesInScope, type Mention, type SetAside } from './mentions.js';
import { absorbIntoCombinations, applyCombinations, applyExclusions, dropExplainedSymptoms, dropHistoryOfCurrent, dropSupportingSymptoms, linkPairs, resolveConflicts, type Candidate } from './conventions.js';
import { understandEncounter } from '../encounter/understand.js';
import type { EncounterFacts } from '../encounter/types.js';
import { assessmentFromFacts, problemAt } from './from-facts.js';
import { notThePatientsNow, planView } from './transcript-view.js';
import { findInjuries, injuryPool } from './injuries.js';
import { toEvidence, type EvidenceSpan } from './offsets.js';
import { addBmi } from './bmi.js';
import { dropUnreliedHistory, isProblemHeading, qualifyFromLines, statesHighGlucose, unconfirmedHeadings } from './problem-blocks.js';
import { confidenceOf, rank } from './ranking.js';
import { withAbnormalFindings } from './first-listed.js';
import type { CodeEntry, CodeTable, IcdSuggestion } from './ports.js';
import { candidatesUnder, chooseBothSides, chooseCode, chooseCombined, createTitleCache, scoreCode, type CodeChoice, type MentionContext } from './specificity.js';
import { buildTitleIndex, type TitleIndex } from './title-index.js';
import type { ParsedTitle } from './words.js';

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

const BASE = { synonym: 0.9, title: 0.82, weak: 0.62 } as const;
/** Done at this visit ("will receive his tetanus vaccine in office today", "flu shot given"), not merely due or advised. */
const AT_VISIT = /\b(?:today|in\s+(?:the\s+)?(?:office|clinic)|administered|was\s+given|were\s+given|given\s+today)\b/i;
const DECLINED = /\b(?:declin|refus|defer|due\s+for|recommend|advis|next\s+visit|not\s+(?:receive|get|have))/i;
const HISTORY_ROOTS = ['Z85', 'Z86', 'Z87'];
const FAMILY_ROOTS = ['Z80', 'Z81', 'Z82', 'Z83', 'Z84'];

export function createIcdCoder(table: CodeTable, lexiconData: CodingLexicon): IcdCoder {
  const lexicon: CompiledLexicon = compileLexicon(lexiconData, table);
  const titleOf = createTitleCache(lexicon.softWords);
  let titles: TitleIndex | undefined;
  const index = (): TitleIndex => (titles ??= buildTitleIndex(table));
  let injuries: ReturnType<typeof injuryPool> | undefined;
  const historyPool = HISTORY_ROOTS.flatMap((r) => table.billableUnder(r));
  const familyPool = FAMILY_ROOTS.flatMap((r) => table.billableUnder(r));
  const parentKey = (e: CodeEntry): string => table.parent(e.code)?.code ?? e.code;

  /** A "personal history of" / "family history of" code whose title names the mention's words. */
  const searchPool = (pool: CodeEntry[], m: Mention, lead: string[]): CodeChoice | undefined => {
    const positive = new Map<string, number>(lead.map((w) => [w, 1]));
    for (const w of m.words) positive.set(w, 1);
    const ctx: MentionContext = { positive, absent: new Set() };
    let best: CodeChoice | undefined;
    for (const e of pool) {
      const c = scoreCode(e, titleOf(e), ctx);
      if (c.supported && c.matched.length > lead.length && (!best || c.score > best.score)) best = c;
    }
    return best;
  };

  /** The codes one mention yields, with the confidence its evidence earns. */
  const resolve = (m: Mention, globalWords: Map<string, number>): { entry: CodeEntry; score: number; role: Candidate['role']; why: string[]; how: string }[] => {
    const c = m.concept;
    const said = `"${m.sentence.text.slice(m.start - m.sentence.start, m.end - m.sentence.start)}"`;
    const found = m.source === 'title' ? `${said} is the table's own wording` : `${said} is a term of the synonym index`;
    const lines = (choice: CodeChoice): string => {
      const taken = choice.matched.filter((w) => m.fromLines?.includes(w) && !m.words.includes(w));
      return taken.length ? ` ("${taken.join(' ')}" from the lines under its heading)` : '';
    };
    const how = (choice?: CodeChoice): string =>
      !choice ? found : choice.supported ? `${found}; the most specific code whose every title word the text supports${lines(choice)}` : `${found}; unspecified: the text says no more`;
    const base = BASE[m.source];
    const sectionFactor = m.sentence.section === 'assessment' || m.sentence.section === 'plan' || m.sentence.section === 'none' ? 1 : 0.88;
    if (m.role === 'family') {
      const code = c?.family ? resolveCode(table, c.family) : searchPool(familyPool, m, ['family', 'history'])?.entry;
      return code ? [{ entry: code, score: base * 0.95 * (c?.family ? 1 : 0.8), role: 'family', why: ['family history'], how: found }] : [];
    }
    if (m.role === 'history' && c?.history !== 'current' && !(m.titleEntry && /^Z8[5-7]|^Z9/.test(m.titleEntry.code))) {
      if (c?.history === 'none') return [];
      const code = c?.history ? resolveCode(table, c.history) : searchPool(historyPool, m, ['personal', 'history'])?.entry;
      return code ? [{ entry: code, score: base * 0.95 * (c?.history ? 1 : 0.8), role: roleOfCode(code.code, 'history'), why: ['personal history'], how: found }] : [];
    }
    if (c?.current === false) {
      const entry = c.atVisit && AT_VISIT.test(m.sentence.text) && !DECLINED.test(m.sentence.text) ? c.anchors.find((a) => a.billable) : undefined;
      return entry ? [{ entry, score: base * sectionFactor, role: roleOfCode(entry.code, 'status'), why: [], how: `${found}; given at this visit` }] : [];
    }
    const anchors = c ? (m.titleEntry ? [...c.anchors, m.titleEntry] : c.anchors) : [m.titleEntry!];
    const role = roleOfCode(anchors[0]!.code, c?.kind === 'status' ? 'status' : 'current');
    if (anchors.length === 1 && anchors[0]!.billable) return [{ entry: anchors[0]!, score: base * sectionFactor, role, why: [], how: found }];
    const candidates = candidatesUnder(table, anchors);
    if (c?.combines) {
      const ctx: MentionContext = { positive: new Map(m.context.positive), absent: m.context.absent };
      for (const [w, weight] of globalWords) if (!ctx.positive.has(w) && !ctx.absent.has(w)) ctx.positive.set(w, weight);
      return chooseCombined(candidates, ctx, titleOf, new Set(c.words), parentKey).map((choice) => ({
        entry: choice.entry, score: base * sectionFactor * (choice.supported ? 1 : 0.72), role, why: [], how: how(choice),
      }));
    }
    const sides = chooseBothSides(candidates, m.context, titleOf);
    if (sides) return sides.map((choice) => ({ entry: choice.entry, score: base * sectionFactor * 0.95, role, why: ['bilateral: no bilateral code, both sides coded'], how: found }));
    const choice = chooseCode(candidates, m.context, titleOf);
    return choice ? [{ entry: choice.entry, score: base * sectionFactor * (choice.supported ? 1 : 0.72), role, why: [], how: how(choice) }] : [];
  };

  /** A generic mention ("diabetes", "anemia") takes the specific concept its group names elsewhere ("type 1 diabetes"). */
  const mergeGroups = (mentions: Mention[]): void => {
    for (const m of mentions) {
      if (!m.concept?.generic || !m.concept.group || m.role !== 'current') continue;
      const specific = mentions.find((o) => o.role === 'current' && o.concept?.group === m.concept!.group && !o.concept?.generic);
      if (!specific?.concept) continue;
      m.concept = specific.concept;
      m.words = [...new Set([...m.words, ...specific.concept.words])];
      for (const w of specific.concept.words) if (!m.context.positive.has(w)) m.context.positive.set(w, 1);
    }
  };

  /**
   * "Diabetic foot ulcer", "diabetic neuropathy": the word links the complication to a diabetes the
   * note may name nowhere else; the guideline codes a diabetes of unstated type as type 2 (E11) with
   * the complication's combination code. The diabetes mention shares the complication's span.
   */
  const diabetes = lexicon.concepts.get('diabetes');
  const addDiabetesOfComplications = (text: string, mentions: Mention[]): void => {
    if (!diabetes) return;
    for (const m of [...mentions]) {
      if (m.role !== 'current' || m.concept?.group === 'diabetes' || !/\bdiabetic\b/i.test(text.slice(m.start, m.end))) continue;
      const positive = new Map(m.context.positive);
      for (const w of diabetes.words) positive.set(w, 1);
      const { titleEntry: _table, ...own } = m;
      mentions.push({ ...own, concept: diabetes, source: 'synonym', words: [...new Set([...m.words, ...diabetes.words])], context: { positive, absent: m.context.absent } });
    }
  };

  /** Injuries matched to the table's site, side and 7th character replace the index's rougher injury codes of the same sentence. */
  const addInjuries = (text: string, doc: ReturnType<typeof readDocument>, out: Map<string, Candidate>): void => {
    for (const inj of findInjuries(doc, (injuries ??= injuryPool(table)))) {
      const { sentence } = inj;
      for (const [code, c] of out) if (/^[ST]/.test(code) && code !== inj.entry.code && c.spans.every((x) => x.start >= sentence.start && x.end <= sentence.end)) out.delete(code);
      const prev = out.get(inj.entry.code);
      const at = inj.spans[0]!.start;
      if (prev) {
        prev.spans.push(...inj.spans);
        prev.firstAt = Math.min(prev.firstAt, at);
        continue;
      }
      out.set(inj.entry.code, {
        entry: inj.entry, role: 'current', spans: inj.spans, firstAt: at, why: [inj.why], evidenceScore: BASE.title * (sentence.section === 'assessment' || sentence.section === 'none' ? 1 : 0.88),
        symptom: false, headline: isHeadline(text.slice(sentence.start, at), true), ...(isHeadline(text.slice(sentence.start, at), true) ? { headAt: at } : {}), related: [], concepts: [], discussionOnly: false,
      });
    }
  };

  /** The codes of a text, ranked, before they are shown. */
  const codeText = (text: string): { ranked: Candidate[]; setAside: SetAside[] } => {
    const doc = readDocument(text);
    const { mentions, setAside } = findMentions(doc, lexicon, index());
    addDiabetesOfComplications(text, mentions);
    mergeGroups(mentions);
    const scope = sentencesInScope(doc);
    if (doc.hasAssessment) {
      qualifyFromLines(text, scope, mentions);
      const unconfirmed = unconfirmedHeadings(text, scope, mentions);
      for (const m of unconfirmed) setAside.push({ start: m.start, end: m.end, why: 'uncertain', ...(m.concept ? { conceptId: m.concept.id } : {}) });
      if (unconfirmed.size) mentions.splice(0, mentions.length, ...mentions.filter((m) => !unconfirmed.has(m)));
    }
    const highGlucose = statesHighGlucose(scope);
    const out = new Map<string, Candidate>();
    // Words of the note's other current conditions, once per group (a long note has thousands of mentions).
    const globalByGroup = new Map<string, Map<string, number>>();
    const globalWordsOf = (m: Mention): Map<string, number> => {
      const key = m.concept!.group ?? m.concept!.id;
      let words = globalByGroup.get(key);
      if (!words) {
        words = new Map();
        for (const o of mentions) if (o.role === 'current' && (o.concept?.group ?? o.concept?.id) !== key) for (const w of o.words) words.set(w, 1);
        if (highGlucose) words.set('hyperglycemia', 1);
        globalByGroup.set(key, words);
      }
      return words;
    };
    const resolved = new Map<string, ReturnType<typeof resolve>>();
    // A short line of the assessment that names a problem is its heading, with up to four qualifiers first ("Right upper lobe lung cancer.").
    const headlineOf = (m: Mention): boolean => {
      const before = text.slice(Math.max(m.sentence.start, m.start - 80), m.start);
      return isHeadline(before, m.start - 80 <= m.sentence.start) || (doc.hasAssessment && m.start - 80 <= m.sentence.start && isProblemHeading(text, m.sentence) && onlyQualifiers(before));
    };
    // A sentence that opens with a problem is that problem's heading: every code read from it keeps the heading's place.
    const headings = new Set(mentions.filter((m) => m.role === 'current' && headlineOf(m)).map((m) => m.sentence));
    for (const m of mentions) {
      const globalWords = m.concept?.combines ? globalWordsOf(m) : new Map<string, number>();
      const headline = headings.has(m.sentence) && (m.role === 'current' || headlineOf(m));
      // Repeated mentions with the same words resolve alike: resolve each once.
      const key = `${m.concept?.id ?? m.titleEntry?.code}|${m.role}|${m.source}|${m.sentence.section}|${m.words.join(',')}|${[...m.context.positive].sort().join(',')}|${[...m.context.absent].sort().join(',')}`;
      let results = resolved.get(key);
      if (!results) resolved.set(key, (results = resolve(m, globalWords)));
      for (const r of results) {
        const prev = out.get(r.entry.code);
        if (prev) {
          prev.spans.push({ start: m.start, end: m.end });
          prev.firstAt = Math.min(prev.firstAt, m.start);
          prev.evidenceScore = Math.max(prev.evidenceScore, r.score) + 0.02;
          prev.headline ||= headline;
          if (headline) prev.headAt = Math.min(prev.headAt ?? Infinity, m.start);
          prev.discussionOnly &&= m.discussion;
          if (m.workedUp) prev.workedUp = true;
          if (m.reason) prev.reason = true;
          if (m.concept && !prev.concepts.includes(m.concept.id)) prev.concepts.push(m.concept.id);
        } else {
          out.set(r.entry.code, {
            entry: r.entry, role: r.role, spans: [{ start: m.start, end: m.end }], firstAt: m.start, why: r.why, how: r.how, evidenceScore: r.score,
            symptom: m.concept?.kind === 'symptom' || /^R/.test(r.entry.code), headline, ...(headline ? { headAt: m.start } : {}), related: [], concepts: m.concept ? [m.concept.id] : [],
            discussionOnly: m.discussion, ...(m.workedUp ? { workedUp: true } : {}), ...(m.reason ? { reason: true } : {}),
          });
        }
      }
    }
    for (const [code, c] of out) if (c.discussionOnly) out.delete(code);
    addInjuries(text, doc, out);
    addBmi(table, scope, out);
    if (highGlucose) {
      for (const c of out.values()) if (/^E(0[89]|1[013])\.65/.test(c.entry.code)) (c.spans.push(highGlucose), c.why.push('diabetes with hyperglycemia: the note states the glucose or A1c high'));
    }
    dropHistoryOfCurrent(out);
    if (doc.hasAssessment) dropUnreliedHistory(text, scope, out);
    applyCombinations(table, lexicon, out);
    applyExclusions(lexicon, out);
    absorbIntoCombinations(table, titleOf, out);
    dropExplainedSymptoms(lexicon, out);
    if (doc.hasAssessment) dropSupportingSymptoms(out);
    resolveConflicts(table, titleOf, out);
    withAbnormalFindings(table, titleOf, scope, out);
    const firstOf = linkPairs(table, out);
    return { ranked: rank([...out.values()], firstOf, titleOf, lexicon.firstListed), setAside };
  };

  const suggestion = (c: Candidate, i: number, total: number, evidence: EvidenceSpan[], source?: string): IcdSuggestion => ({
    system: 'ICD-10-CM', code: c.entry.code, display: c.entry.title, confidence: confidenceOf(c, total, titleOf(c.entry)),
    evidence, edition: table.edition, role: c.role, rank: i + 1, related: [...new Set(c.related)], why: c.why,
    rule: `${c.entry.code}: ${source ? `${source}; ` : ''}${[...new Set(c.why)].join('; ') || c.how || 'named in the text'}`,
  });

  return {
    edition: table.edition,
    table,
    warnings: lexicon.warnings,
    analyze(text) {
      const { ranked, setAside } = codeText(text);
      return { setAside, codes: ranked.map((c, i) => suggestion(c, i, ranked.length, toEvidence(text, c.spans))) };
    },
    analyzeTranscript(transcript, facts = understandEncounter({ transcript })) {
      // The problems the facts confirm, in their order; each code's evidence is what its problem was read from.
      const written = assessmentFromFacts(facts);
      const all = codeText(written.text).ranked.map((c) => {
        const problems = [...new Set(c.spans.map((x) => problemAt(written, x.start)).filter((p) => !!p))];
        const source = `the encounter's confirmed problem${problems.length > 1 ? 's' : ''} ${problems.map((p) => `"${p!.name}"`).join(', ')}`;
        return { c, evidence: toEvidence(transcript, problems.flatMap((p) => p!.evidence)), source };
      }).filter((x) => x.evidence.length);
      if (!written.lines.length) {
        // The understanding named no problem: the clinician's plan is read as an assessment, less what the facts doubt, deny or give to others.
        const doubted = notThePatientsNow(facts);
        for (const c of codeText(planView(transcript, facts)).ranked) {
          if (!c.spans.some((x) => doubted.some((d) => x.start < d.end && d.start < x.end))) all.push({ c, evidence: toEvidence(transcript, c.spans), source: "read from the clinician's plan (the encounter understanding named no problem)" });
        }
      }
      return {
        codes: all.map(({ c, evidence, source }, i) => suggestion(c, i, all.length, evidence, source)),
        setAside: written.setAside.flatMap(({ problem, why }) => problem.evidence.slice(0, 1).map((e) => ({ start: e.start, end: e.end, why: why === 'negated' ? ('negated' as const) : ('uncertain' as const) }))),
      };
    },
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

/** The role a code's chapter gives it: Z80-Z84 family, Z85-Z87 (and old MI) history, Z79/Z99/Z68/Z23 status. */
function roleOfCode(code: string, fallback: Candidate['role']): Candidate['role'] {
  if (/^Z8[0-4]/.test(code)) return 'family';
  if (/^Z8[5-7]|^I25\.2$/.test(code)) return 'history';
  if (/^Z(79|99|68|23|72|91)/.test(code)) return 'status';
  return fallback;
}
