/**
 * A written note read as the encounter it records: section headings ("ASSESSMENT AND PLAN",
 * "PMH:", "## Family History") and the sentences under them, with offsets into the submitted
 * text. The encounter understanding of a note (note-facts.ts) and the coder's E/M reader start here.
 */
import { sentenceSpans } from '../clinical-language/tokenize.js';

export type SectionKind =
  | 'assessment'
  | 'plan'
  | 'history'
  | 'family'
  | 'social'
  | 'medications'
  | 'complaint'
  | 'hpi'
  | 'ros'
  | 'exam'
  | 'results'
  | 'other'
  | 'none';

export interface NoteSentence {
  text: string;
  /** UTF-16 offsets in the submitted text. */
  start: number;
  end: number;
  section: SectionKind;
  /** Order of the section's heading in the note (0 before any heading). */
  sectionIndex: number;
}

export interface NoteDocument {
  sentences: NoteSentence[];
  /** True when the note has an assessment, impression or diagnoses section. */
  hasAssessment: boolean;
  /** Every section with its offsets (for the E/M reader). */
  sections: { kind: SectionKind; start: number; end: number }[];
}

// Ordered: the first that matches a heading wins.
const HEADINGS: [RegExp, SectionKind][] = [
  [/^(assessment|impression|diagnos[ie]s|clinical impression|a\s*\/\s*p|a&p|assessment\s*(and|&|\/)\s*plan|impression\s*(and|&|\/)\s*plan|final diagnos[ie]s|working diagnos[ie]s|discharge diagnos[ie]s)$/, 'assessment'],
  [/^(plan|treatment plan|plan of care|recommendations?|disposition)$/, 'plan'],
  [/^(family history|family hx|fh|fhx|family medical history)$/, 'family'],
  [/^(past medical history|pmh|medical history|past history|problem list|active problems|past medical\/surgical history|pmhx|surgical history|past surgical history|psh)$/, 'history'],
  [/^(social history|sh|social hx|habits)$/, 'social'],
  [/^(medications?|current medications|meds|medication list|home medications|allergies|allergy)$/, 'medications'],
  [/^(chief complaint|cc|reason for visit|reason for encounter)$/, 'complaint'],
  [/^(history of present illness|hpi|present illness|interval history|history|subjective)$/, 'hpi'],
  [/^(review of systems|ros)$/, 'ros'],
  [/^(physical exam(ination)?|exam(ination)?|pe|objective|vital signs|vitals)$/, 'exam'],
  [/^(results|labs?|laboratory|imaging|data|studies|diagnostics|procedures?)$/, 'results'],
  [/^(instructions|patient instructions|education|counseling|follow[- ]?up)$/, 'plan'],
];

/** The kind of a heading, or undefined when the words are not one. */
export function headingKind(raw: string): SectionKind | undefined {
  const text = raw.replace(/^[#*\s_]+|[#*\s_:]+$/g, '').toLowerCase().replace(/\s+/g, ' ');
  if (!text || text.length > 60) return undefined;
  for (const [re, kind] of HEADINGS) if (re.test(text)) return kind;
  return undefined;
}

// A heading line ("ASSESSMENT AND PLAN", "## Plan", "**Assessment:**") or a label opening a line ("Assessment: ...").
const LINE = /[^\n]*(?:\n|$)/g;
const LABEL = /^(\s*(?:[#*_]+\s*)?)([A-Za-z][A-Za-z /&-]{0,40}?)(\s*[*_]*\s*:[*_]*\s*)/;

/** Splits a note into sentences labelled with their section. */
export function readDocument(text: string): NoteDocument {
  const sections: NoteDocument['sections'] = [];
  let kind: SectionKind = 'none';
  let sectionStart = 0;
  let index = 0;
  const sentences: NoteSentence[] = [];
  const open = (k: SectionKind, at: number): void => {
    if (sections.length || kind !== 'none') sections.push({ kind, start: sectionStart, end: at });
    kind = k;
    sectionStart = at;
    index++;
  };
  const addBody = (from: number, to: number): void => {
    for (const s of sentenceSpans(text.slice(from, to), { lineBreaks: true })) {
      if (!/[\p{L}\p{N}]/u.test(s.text)) continue;
      sentences.push({ text: s.text, start: from + s.start, end: from + s.end, section: kind, sectionIndex: index });
    }
  };
  for (const m of text.matchAll(LINE)) {
    if (!m[0]) break;
    const lineStart = m.index;
    const line = m[0];
    const whole = headingKind(line.replace(/\n$/, ''));
    if (whole && line.trim().length <= 60 && !/[.;]\s*\S/.test(line.trim())) {
      open(whole, lineStart);
      continue;
    }
    const label = LABEL.exec(line);
    const labelKind = label ? headingKind(label[2]!) : undefined;
    if (label && labelKind) {
      open(labelKind, lineStart);
      addBody(lineStart + label[0].length, lineStart + line.length);
      continue;
    }
    addBody(lineStart, lineStart + line.length);
  }
  sections.push({ kind, start: sectionStart, end: text.length });
  const hasAssessment = sentences.some((s) => s.section === 'assessment');
  return { sentences, hasAssessment, sections };
}
