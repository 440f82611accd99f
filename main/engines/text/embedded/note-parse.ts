/**
 * Reading a written note back into sections: headings (markdown `#`, `**Bold**`, ALL CAPS
 * lines, `Heading:` lines) and their bodies, with each body's shape (list or prose, how long).
 * Used by the style writer (sample note -> template) and for a previous note's history.
 */
import { splitSentences } from '../../../services/clinical-language/tokenize.js';
import type { HeadingStyle } from '../../../services/notes/template-text.js';

export interface ParsedSection {
  heading: string;
  /** How the heading was written, so a template can ask for the same look. */
  headingStyle: HeadingStyle;
  level: number;
  lines: string[];
  /** Text that followed the heading on the same line ("CC: Cough."). */
  inline?: string;
}

const MD_HEADING = /^(#{1,6})\s+(.+?)\s*#*$/;
const BOLD_HEADING = /^\*\*([^*]{2,80}?)\*\*:?\s*(.*)$/;
const CAPS_HEADING = /^([A-Z][A-Z0-9 /&,()'-]{1,60}?):?\s*$/;
const COLON_HEADING = /^([A-Z][\p{L} /&()'-]{1,48}?):\s*(.*)$/u;

function headingOf(line: string): Omit<ParsedSection, 'lines'> | undefined {
  const md = MD_HEADING.exec(line);
  if (md) return { heading: md[2]!.replace(/\*\*/g, '').replace(/:$/, '').trim(), headingStyle: 'markdown', level: md[1]!.length };
  const bold = BOLD_HEADING.exec(line);
  if (bold) {
    const inline = bold[2]!.trim();
    return { heading: bold[1]!.replace(/:$/, '').trim(), headingStyle: 'bold', level: 2, ...(inline ? { inline } : {}) };
  }
  const caps = CAPS_HEADING.exec(line);
  if (caps && /[A-Z]{2}/.test(caps[1]!) && caps[1]!.split(/\s+/).length <= 8) return { heading: caps[1]!.trim(), headingStyle: 'caps', level: 2 };
  const colon = COLON_HEADING.exec(line);
  if (colon && colon[1]!.split(/\s+/).length <= 5 && !/[.]/.test(colon[1]!)) {
    const inline = colon[2]!.trim();
    return { heading: colon[1]!.trim(), headingStyle: 'colon', level: 2, ...(inline ? { inline } : {}) };
  }
  return undefined;
}

/** Split a note into its sections; text before the first heading becomes an untitled section. */
export function parseNote(note: string): ParsedSection[] {
  const sections: ParsedSection[] = [];
  let current: ParsedSection | undefined;
  const lines = note.replace(/\r\n?/g, '\n').split('\n');
  // When a note has real stand-alone headings, "**Label**: text" lines are labelled content.
  const standalone = lines.filter((l) => {
    const h = l.trim() ? headingOf(l.trim()) : undefined;
    return h !== undefined && !h.inline && (h.headingStyle === 'markdown' || h.headingStyle === 'caps');
  }).length;
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) {
      current?.lines.push('');
      continue;
    }
    let h = headingOf(line);
    if (h?.inline && standalone >= 2) h = undefined;
    // A "Label: text" line inside a list body is a bullet's label, not a new section.
    const insideList = current !== undefined && current.lines.some((l) => isListLine(l));
    if (h && !(h.headingStyle === 'colon' && (insideList || (current && h.inline)))) {
      current = { ...h, lines: h.inline ? [h.inline] : [] };
      sections.push(current);
    } else {
      if (!current) {
        current = { heading: '', headingStyle: 'caps', level: 2, lines: [] };
        sections.push(current);
      }
      current.lines.push(line);
    }
  }
  for (const s of sections) {
    while (s.lines.length && s.lines[s.lines.length - 1] === '') s.lines.pop();
    while (s.lines.length && s.lines[0] === '') s.lines.shift();
  }
  return sections.filter((s) => s.heading || s.lines.length);
}

/** True for a bullet or numbered list line. */
export function isListLine(line: string): boolean {
  return /^\s*([-*•·‣◦+]|\d{1,2}[.)])\s+/.test(line);
}

/** Strip a list marker from a line. */
export function stripListMarker(line: string): string {
  return line.replace(/^\s*([-*•·‣◦+]|\d{1,2}[.)])\s+/, '');
}

/** Count sentences in prose, with the same splitter the language-model style writer uses. */
export function countSentences(text: string): number {
  return splitSentences(text).length;
}
