/**
 * A note's markdown as the sections a physician edits (issue 27 point 5): each heading with the
 * text under it, and that text in the words a physician types — a list as one item per line, no
 * markers — so the note is edited in place without its markdown. Splitting and joining are exact:
 * a section whose words did not change gives back its markdown byte for byte.
 */

export interface NoteSection {
  /** The heading's words ("Plan"); undefined for the lines before the first heading. */
  heading: string | undefined;
  /** Heading level (1 for `#`); 0 for the lines before the first heading. */
  level: number;
  /** The heading line as written (`## Plan`); empty for the lines before the first heading. */
  headingLine: string;
  /**
   * The markdown under the heading, up to the next heading, with the line break that ends the
   * heading line (so a heading with nothing under it and one with a blank line under it differ).
   */
  body: string;
}

const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/;
const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+/;

/** The note's sections in order; joined again they are the same markdown. */
export function splitSections(markdown: string): NoteSection[] {
  const sections: NoteSection[] = [];
  let current: NoteSection = { heading: undefined, level: 0, headingLine: '', body: '' };
  let lines: string[] = [];
  const close = (): void => {
    current.body = current.headingLine && lines.length ? `\n${lines.join('\n')}` : lines.join('\n');
    if (current.headingLine || current.body) sections.push(current);
  };
  for (const line of markdown.split('\n')) {
    const h = HEADING.exec(line);
    if (!h) {
      lines.push(line);
      continue;
    }
    close();
    current = { heading: h[2]!, level: h[1]!.length, headingLine: line, body: '' };
    lines = [];
  }
  close();
  return sections;
}

export function joinSections(sections: readonly NoteSection[]): string {
  return sections.map((s) => `${s.headingLine}${s.body}`).join('\n');
}

/** How a section's text is written: a bulleted or numbered list, or prose. */
export type BodyKind = 'bullet' | 'numbered' | 'text';

interface BodyParts { lead: string; core: string; trail: string }

/** Blank lines before and after the section's words, kept apart so they survive an edit. */
function parts(body: string): BodyParts {
  const lead = /^(\s*\n)*/.exec(body)![0];
  const rest = body.slice(lead.length);
  const trail = /(\n\s*)*$/.exec(rest)![0];
  return { lead, core: rest.slice(0, rest.length - trail.length), trail };
}

export function bodyKind(body: string): BodyKind {
  const lines = parts(body).core.split('\n').filter((l) => l.trim());
  if (lines.length === 0 || !lines.every((l) => ITEM.test(l))) return 'text';
  return /^\s*\d/.test(lines[0]!) ? 'numbered' : 'bullet';
}

/** Bold marks (`**Plan:**`), shown as their words; a section edited by hand is written without them. */
const unbold = (line: string): string => line.replace(/\*\*(.+?)\*\*/g, '$1').replace(/__(.+?)__/g, '$1');

/** The section's words as the physician edits them: list items one per line without their markers, no bold marks. */
export function toPlain(body: string): string {
  const { core } = parts(body);
  return (bodyKind(body) === 'text' ? core : core.split('\n').map((l) => l.replace(ITEM, '')).join('\n')).split('\n').map(unbold).join('\n');
}

/**
 * The section's markdown after the physician's edit: a list stays a list (each non-empty line an
 * item, numbered in order), prose stays prose; unchanged words give back the original markdown.
 */
export function fromPlain(plain: string, original: string): string {
  if (plain === toPlain(original)) return original;
  const { lead, trail } = parts(original);
  const kind = bodyKind(original);
  if (kind === 'text') return `${lead}${plain}${trail}`;
  let n = 0;
  const items = plain.split('\n').map((l) => {
    if (!l.trim()) return l;
    const words = l.replace(ITEM, '');
    n += 1;
    return kind === 'numbered' ? `${n}. ${words}` : `- ${words}`;
  });
  return `${lead}${items.join('\n')}${trail}`;
}

/** Headings a note may give the section a writer named (`hpi`, `exam`, `plan`…), most specific first. */
const SECTION_HEADINGS: Record<string, readonly string[]> = {
  hpi: ['history of present illness', 'hpi', 'subjective'],
  history: ['past medical history', 'history of present illness', 'subjective'],
  exam: ['physical exam', 'physical examination', 'exam', 'examination', 'objective'],
  results: ['results', 'objective'],
  assessment: ['assessment', 'assessment and plan'],
  plan: ['plan', 'assessment and plan'],
};

/** Where something said goes when no heading of its kind is in the note. */
export const SAID_HEADING = 'Said in the visit';

/**
 * The note with `text` added at the end of the section of its kind (a list item in a list, a line
 * in prose), or under "Said in the visit" at the end when the note has no such heading.
 */
export function addToSection(markdown: string, text: string, section: string | undefined): string {
  const sections = splitSections(markdown);
  const name = (s: NoteSection): string => (s.heading ?? '').trim().toLowerCase();
  const wanted = [...(SECTION_HEADINGS[section ?? ''] ?? []), SAID_HEADING.toLowerCase()];
  const target = wanted.map((w) => sections.findIndex((s) => name(s) === w)).find((i) => i >= 0);
  if (target === undefined) {
    const base = markdown.replace(/\n+$/, '');
    return `${base}${base ? '\n\n' : ''}## ${SAID_HEADING}\n- ${text}\n`;
  }
  const s = sections[target]!;
  const body = s.body.trim() ? fromPlain(`${toPlain(s.body)}\n${text}`, s.body) : `\n${text}\n`;
  return joinSections(sections.map((x, i) => (i === target ? { ...x, body } : x)));
}
