/**
 * Free-text templates (`noteType.template` with `note_style`): read the sections the text asks
 * for, in its order and with its headings, plus list-or-prose, length and general directions.
 * Accepts a plain list of headings, a comma-separated sentence, markdown, and the template
 * text the style writer produces.
 */
import type { DetailLevel } from '../../../../shared/note-template.js';
import { section, type HeadingStyle, type LayoutSection } from './layout.js';
import { COMPOSITES, targetOfHeading, type SectionTarget } from './sections.js';

const KINDS = new Set(['chief_complaint', 'hpi', 'ros', 'pmh', 'surgical', 'medications', 'allergies', 'social', 'family', 'vitals', 'exam', 'results', 'assessment', 'plan', 'instructions']);

export interface TemplateDirectives {
  detail?: DetailLevel;
  format?: 'prose' | 'list';
  /** Kinds the caller asked to leave out ("do not include social history"). */
  exclude: string[];
}

const DETAIL_WORDS: [RegExp, DetailLevel][] = [
  [/\b(exhaustive|everything|all details|verbatim)\b/i, 'exhaustive'],
  [/\b(detailed|thorough|comprehensive|in detail|extensive)\b/i, 'detailed'],
  [/\b(minimal|bare minimum|one line|single line)\b/i, 'minimal'],
  [/\b(brief|concise|short|succinct|terse|one sentence|1 sentence)\b/i, 'brief'],
  [/\b(standard|moderate)\b/i, 'standard'],
];

/** Read detail, list-or-prose and exclusions from free-text directions. */
export function readDirectives(texts: string[]): TemplateDirectives {
  const out: TemplateDirectives = { exclude: [] };
  for (const t of texts) {
    for (const [re, level] of DETAIL_WORDS) if (re.test(t)) {
      out.detail = level;
      break;
    }
    if (/\b(bullet(ed)?|bullet points|list|lists|numbered)\b/i.test(t) && !/\b(no|not|without|avoid)\b[^.]*\b(bullet|list)/i.test(t)) out.format = 'list';
    if (/\b(prose|paragraphs?|narrative)\b/i.test(t) || /\b(no|not|without|avoid)\b[^.]*\b(bullet|list)/i.test(t)) out.format = 'prose';
    const ex = /\b(?:do not|don't|never|omit|exclude|leave out|skip|without)\s+(?:include\s+|mention\s+|add\s+)?(?:the\s+|a\s+|any\s+)?([\p{L} /&-]{3,50})/iu.exec(t);
    if (ex) out.exclude.push(ex[1]!.trim());
  }
  return out;
}

const HEADING_MARK = /\[heading:\s*(caps|bold|colon|markdown)\s*(\d)?\s*\]/i;

interface Candidate {
  heading: string;
  options: string;
  style?: HeadingStyle;
  level?: number;
  marked: boolean;
}

function splitSegments(template: string): { segments: Candidate[]; instructions: string[] } {
  const instructions: string[] = [];
  let lines = template.replace(/\r\n?/g, '\n').split('\n').map((l) => l.trim()).filter(Boolean);
  // "Write a note with: Chief complaint, HPI, Exam and Plan." -> one segment per heading.
  if (lines.length <= 2 && /[,;]/.test(lines.join(' '))) {
    const joined = lines.join(' ');
    const colon = joined.lastIndexOf(':');
    const body = colon >= 0 && colon < joined.length - 1 ? joined.slice(colon + 1) : joined;
    if (colon > 0) instructions.push(joined.slice(0, colon));
    lines = body.split(/[,;]|\.\s+|\s+(?:and then|then|followed by)\s+|\s+and\s+(?=[A-Z])/).map((l) => l.trim().replace(/\.$/, '')).filter(Boolean);
  }
  const segments: Candidate[] = [];
  let inInstructions = false;
  for (const raw of lines) {
    if (/^(general |additional )?(instructions|directions|notes|style)\s*:?$/i.test(raw)) {
      inInstructions = true;
      continue;
    }
    const marked = /^(\d{1,2}[.)]|[-*•]|#{1,6})\s+/.test(raw);
    const md = /^(#{1,6})\s+/.exec(raw);
    let line = raw.replace(/^(\d{1,2}[.)]|[-*•]|#{1,6})\s+/, '').replace(/\*\*/g, '').trim();
    if (inInstructions && !HEADING_MARK.test(line)) {
      instructions.push(line);
      continue;
    }
    let style: HeadingStyle | undefined;
    let level: number | undefined;
    const mark = HEADING_MARK.exec(line);
    if (mark) {
      style = mark[1]!.toLowerCase() as HeadingStyle;
      if (mark[2]) level = Number(mark[2]);
      line = line.replace(HEADING_MARK, ' ').replace(/\s{2,}/g, ' ').trim();
    }
    if (md) {
      style = 'markdown';
      level = md[1]!.length;
    }
    const quoted = /^["“']([^"”']{1,80})["”']\s*(.*)$/.exec(line);
    let heading: string;
    let options: string;
    if (quoted) {
      heading = quoted[1]!;
      options = quoted[2]!.replace(/^[—–:-]\s*/, '');
    } else {
      const sep = /\s+[—–-]\s+|:\s*|\s*\(/.exec(line);
      heading = sep ? line.slice(0, sep.index) : line;
      options = sep ? line.slice(sep.index + sep[0].length).replace(/\)\s*$/, '') : '';
    }
    segments.push({ heading: heading.trim(), options: options.trim(), ...(style ? { style } : {}), ...(level ? { level } : {}), marked: marked || Boolean(mark) });
  }
  return { segments, instructions };
}

/**
 * Parse a free-text template into a layout plus general directions. Returns no sections when
 * the text names none; the caller then uses the default clinical layout.
 */
export function parseTemplateText(template: string, baseDetail: DetailLevel): { layout: LayoutSection[]; directives: TemplateDirectives } {
  const { segments, instructions } = splitSegments(template);
  const layout: LayoutSection[] = [];
  const extra: string[] = [...instructions];
  for (const seg of segments) {
    const words = seg.heading.split(/\s+/).filter(Boolean).length;
    let target = targetOfHeading(seg.heading);
    // The style writer names the content of a section whose heading is unusual ("content: hpi").
    const hint = /\bcontent:\s*([a-z_]+)/i.exec(seg.options);
    if (hint && (hint[1]! in COMPOSITES || KINDS.has(hint[1]!))) target = hint[1] as SectionTarget;
    const caps = /[A-Z]{3}/.test(seg.heading) && seg.heading === seg.heading.toUpperCase();
    const isSection = words > 0 && words <= 8 && (target !== 'unknown' || caps || seg.marked || segments.length > 1 && words <= 4);
    if (!isSection) {
      extra.push([seg.heading, seg.options].filter(Boolean).join(': '));
      continue;
    }
    const opts = readDirectives([seg.options]);
    const count = /(?:about|up to|at most|max(?:imum)?|no more than|around)?\s*(\d{1,2}|one|two|three|four|five)\s+(sentences?|items?|bullets?|points?|lines?)/i.exec(seg.options);
    const n = count ? (Number(count[1]) || ['one', 'two', 'three', 'four', 'five'].indexOf(count[1]!.toLowerCase()) + 1) : undefined;
    const format = opts.format ?? 'prose';
    layout.push(
      section({
        id: slug(seg.heading, layout.length),
        title: seg.heading.replace(/:$/, ''),
        target,
        headingStyle: seg.style ?? (caps ? 'caps' : 'markdown'),
        level: seg.level ?? 2,
        format,
        listType: /\b(numbered|numeric)\b/i.test(seg.options) ? 'numeric' : 'bullet',
        detail: opts.detail ?? baseDetail,
        ...(n ? { maxItems: n } : {}),
      }),
    );
  }
  return { layout, directives: readDirectives(extra) };
}

function slug(text: string, i: number): string {
  const s = text.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_|_$/g, '');
  return s || `section_${i + 1}`;
}
