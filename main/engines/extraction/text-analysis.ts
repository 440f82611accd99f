/**
 * Shallow reading of clinical text: known section headers ("Allergies:", "PMH:") and list
 * items. Positions are UTF-16 offsets into the text. Negation and other context of a finding is
 * read by `services/clinical-language/context.ts`.
 */
export interface Section {
  /** Canonical section name (`allergies`, `medications`, `pmh`, ...). */
  name: string;
  /** Header as written, lower-cased. */
  header: string;
  start: number;
  end: number;
  body: string;
}

const SECTION_HEADERS: Record<string, string[]> = {
  cc: ['chief complaint', 'cc', 'reason for visit', 'presenting complaint', 'reason for consultation'],
  hpi: ['history of present illness', 'hpi', 'history', 'subjective', 's'],
  pmh: ['past medical history', 'pmh', 'medical history', 'pmhx', 'past history', 'problem list', 'active problems', 'chronic conditions', 'comorbidities'],
  psh: ['past surgical history', 'psh', 'surgical history'],
  medications: ['medications', 'meds', 'current medications', 'home medications', 'medication list', 'current meds', 'outpatient medications', 'rx'],
  allergies: ['allergies', 'allergy', 'drug allergies', 'allergies/reactions'],
  social: ['social history', 'sh', 'social hx', 'social'],
  family: ['family history', 'fh', 'family hx'],
  ros: ['review of systems', 'ros'],
  vitals: ['vital signs', 'vitals', 'vs'],
  exam: ['physical exam', 'physical examination', 'exam', 'pe', 'objective', 'o'],
  assessment: ['assessment', 'impression', 'diagnosis', 'diagnoses', 'dx', 'a', 'clinical impression', 'working diagnosis'],
  plan: ['plan', 'p', 'recommendations', 'disposition'],
  ap: ['assessment and plan', 'assessment & plan', 'a/p', 'a&p'],
  labs: ['labs', 'laboratory', 'lab results', 'results'],
};

const HEADER_TO_SECTION = new Map<string, string>();
for (const [name, headers] of Object.entries(SECTION_HEADERS)) for (const h of headers) HEADER_TO_SECTION.set(h, name);
const headerAlternation = [...HEADER_TO_SECTION.keys()]
  .sort((a, b) => b.length - a.length)
  .map((h) => h.replace(/[.*+?^${}()|[\]\\/&]/g, '\\$&'))
  .join('|');
/** A header starts a line or follows a sentence end, and ends with a colon (or dash). */
const HEADER_RE = new RegExp(`(^|\\n|[.;]\\s+|\\s{2,})(${headerAlternation})\\s*(?::|-\\s)`, 'gi');

/** Finds the text's sections; single-letter headers (S/O/A/P) count only at a line start. */
export function findSections(text: string): Section[] {
  const marks: { name: string; header: string; start: number; bodyStart: number }[] = [];
  HEADER_RE.lastIndex = 0;
  for (let m = HEADER_RE.exec(text); m; m = HEADER_RE.exec(text)) {
    const lead = m[1] ?? '';
    const header = (m[2] ?? '').toLowerCase();
    if (header.length <= 2 && lead !== '\n' && lead !== '' && !/^[A-Z/&]+$/.test(m[2] ?? '')) continue;
    if (header.length === 1 && lead !== '\n' && lead !== '') continue;
    const start = m.index + lead.length;
    marks.push({ name: HEADER_TO_SECTION.get(header) ?? header, header, start, bodyStart: m.index + m[0].length });
  }
  return marks.map((mark, i) => {
    const end = i + 1 < marks.length ? (marks[i + 1] as { start: number }).start : text.length;
    // An inline section ("Allergies: shellfish. BP 128/82") ends with its sentence; a block ends at a blank line.
    const raw = text.slice(mark.bodyStart, end);
    const stop = /\.\s+(?=[A-Z])|\n\s*\n/.exec(raw.trimStart());
    const body = (stop ? raw.trimStart().slice(0, stop.index) : raw).trim();
    return { name: mark.name, header: mark.header, start: mark.start, end: Math.min(end, mark.bodyStart + (raw.length - raw.trimStart().length) + body.length + 1), body };
  });
}

/** Splits a list body ("a, b and c; d") into trimmed items, keeping parentheses together. */
export function splitList(body: string): string[] {
  const items: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch === '(' || ch === '[') depth++;
    if (ch === ')' || ch === ']') depth = Math.max(0, depth - 1);
    const rest = body.slice(i);
    const splitAnd = depth === 0 && /^\s(?:and|&)\s/i.test(rest);
    if (depth === 0 && (ch === ',' || ch === ';' || ch === '\n' || (ch === '.' && /^\.\s/.test(rest)) || splitAnd)) {
      items.push(current);
      current = '';
      if (splitAnd) i += (/^\s(?:and|&)\s/i.exec(rest)?.[0].length ?? 1) - 1;
      continue;
    }
    current += ch;
  }
  items.push(current);
  return items
    .map((s) => s.replace(/^\s*(?:[-*•]|\d+[.)])\s*/, '').replace(/^(?:and|or)\s+/i, '').trim().replace(/[.]$/, ''))
    .filter((s) => s.length > 0);
}
