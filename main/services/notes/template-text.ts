/**
 * Free-text note-style templates (`noteType.template`): reading the sections a template asks for,
 * and writing a template from a section outline (a style writer's output). One reader for both
 * note writers, and one written form that both style writers produce, so either note writer
 * follows either style:
 *
 *   Write the note with these sections, in this order, using these exact headings:
 *   1. "CHIEF COMPLAINT" [heading: caps] — prose, about 1 sentence. The reason for the visit.
 *   2. "Plan" [heading: markdown 2] — numbered list, about 4 items. One item per next step.
 *
 *   General instructions:
 *   - Concise clinical third person.
 */
import type { DetailLevel } from '../../../shared/note-template.js';
import { NUMBER_WORDS, parseNumberWords } from '../clinical-language/number-words.js';

export type SectionFormat = 'prose' | 'bullet' | 'numbered';
/** How a heading looks: `## Plan`, `**Plan**`, `PLAN`, `Plan:` (the looks a template can ask for). */
export type HeadingStyle = 'markdown' | 'bold' | 'caps' | 'colon';

export interface TemplateSection {
  heading: string;
  /** Markdown heading level the note should use (1-6). */
  level: number;
  /** Heading look, when the template says; markdown otherwise. */
  headingStyle?: HeadingStyle;
  format: SectionFormat;
  /** What the section holds, in the template's words. */
  guidance: string;
  maxSentences?: number;
  maxItems?: number;
  /** How much detail the section wants, when its shape clause says ("prose, brief, ..."). */
  detail?: DetailLevel;
}

export interface ParsedTemplate {
  /** Instructions that apply to the whole note (text before the first section). */
  general: string;
  sections: TemplateSection[];
}

const LIST_HEADINGS = /^(plan|medications?|current medications|allergies|problem list|orders|instructions|patient instructions|follow[- ]?up|diagnoses|differential diagnosis|todo|tasks)$/i;

function count(text: string, noun: RegExp): number | undefined {
  const n = `(\\d+|${NUMBER_WORDS.join('|')})`;
  const m = new RegExp(`${n}(?:\\s*(?:-|–|to)\\s*${n})?\\s+(?:short\\s+|brief\\s+|concise\\s+)?${noun.source}`, 'i').exec(text);
  if (!m) return undefined;
  const value = (s: string | undefined): number | undefined => (s === undefined ? undefined : Number(s) || parseNumberWords(s));
  return value(m[2]) ?? value(m[1]);
}

/** Reads format and size hints ("numbered list, up to 4 items", "2-3 sentences") from guidance text. */
export function formatHints(heading: string, guidance: string): Pick<TemplateSection, 'format' | 'maxSentences' | 'maxItems' | 'detail'> & { rest: string } {
  // A leading shape clause ("prose, about 2 sentences." / "numbered list, about 3 items;") wins
  // over words in the guidance that follows it.
  const clause = /^(.*?)(?:[.;](?!\d)\s*|$)/.exec(guidance)![1]!;
  const shaped = SHAPE.test(clause);
  const text = shaped ? clause : guidance;
  let format: SectionFormat;
  if (/\b(numbered|numeric|enumerated)\b/i.test(text)) format = 'numbered';
  else if (/\b(bullet(ed)?s?|bullet[- ]points?|list(ed)?|itemi[sz]ed?)\b/i.test(text)) format = 'bullet';
  else if (/\b(prose|paragraphs?|narrative|sentences?)\b/i.test(text)) format = 'prose';
  else format = LIST_HEADINGS.test(heading.trim()) ? 'bullet' : 'prose';
  const maxSentences = count(text, /sentences?/);
  const maxItems = count(text, /(items?|bullets?|points?|entries|lines?)/);
  const rest = shaped ? guidance.slice(clause.length).replace(/^[.;]\s*/, '').trim() : guidance.trim();
  const detail = shaped ? (/\b(minimal|brief|standard|detailed|exhaustive)\b/i.exec(clause)?.[1]?.toLowerCase() as DetailLevel | undefined) : undefined;
  return { format, rest, ...(maxSentences ? { maxSentences } : {}), ...(maxItems ? { maxItems } : {}), ...(detail ? { detail } : {}) };
}

const SHAPE = /^(prose|bulleted list|bullet list|numbered list)\b/i;
const QUOTED_HEADING = /^(?:[-*•]|\d+[.)])?\s*["“]([^"”]{1,80})["”]\s*(?:\[heading:\s*([^\]]*)\])?\s*[—–:-]?\s*(.*)$/;
const GENERAL_MARKER = /^(general|overall|global|style)(\s+(instructions|notes|directions|style|rules))?\s*:\s*(.*)$/i;
const MD_HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const BOLD_HEADING = /^\*\*(.+?)\*\*\s*:?\s*(.*)$/;
const BULLET_HEADING = /^(?:[-*•]|\d+[.)])\s+([^:.!?]{2,60}?)\s*[:–-]\s+(.*)$|^(?:[-*•]|\d+[.)])\s+([^:.!?]{2,60}?)\s*:\s*$/;
const COLON_HEADING = /^([\p{Lu}][\p{L}\p{N} /&(),'-]{1,60}?)\s*:\s*(.*)$/u;
const CAPS_HEADING = /^([\p{Lu}][\p{Lu}\p{N} /&(),'-]{2,60})$/u;
const BARE_BULLET = /^(?:[-*•]|\d+[.)])\s+([\p{Lu}][^:.!?]{1,50})$/u;

const words = (s: string): number => s.trim().split(/\s+/).length;

/**
 * Reads the sections a free-text template asks for, in its order and with its headings.
 * Understands markdown headings, `**Bold**` headings, `Heading: guidance` lines, bullets naming
 * sections, ALL-CAPS lines and a one-line comma list ("Include: CC, HPI, assessment, plan").
 * Returns no sections when the template names none; the caller then lets the model choose.
 */
export function parseTemplateText(template: string): ParsedTemplate {
  const lines = template.replace(/\r\n?/g, '\n').split('\n');
  // One line naming several sections ("Sections: Subjective, Objective (bullet points), Plan").
  if (lines.filter((l) => l.trim()).length === 1) {
    const listed = commaList(template);
    if (listed.length >= 2) return { general: '', sections: listed };
  }
  const sections: TemplateSection[] = [];
  const general: string[] = [];
  const guidance: string[][] = [];
  const bareBullets = lines.filter((l) => BARE_BULLET.test(l.trim())).length;

  const open = (heading: string, level: number, rest: string): void => {
    sections.push({ heading: heading.replace(/[*_`]/g, '').trim(), level, format: 'prose', guidance: '' });
    guidance.push(rest.trim() ? [rest.trim()] : []);
  };
  let inGeneral = false;
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    let m: RegExpExecArray | null;
    if (/^write the note with these sections\b/i.test(line)) continue; // the form's own preamble
    if ((m = GENERAL_MARKER.exec(line))) {
      inGeneral = true;
      if (m[4]!.trim()) general.push(m[4]!.trim());
    } else if ((m = QUOTED_HEADING.exec(line))) {
      inGeneral = false;
      const look = (m[2] ?? '').trim().toLowerCase();
      const level = /markdown\s+(\d)/.exec(look);
      open(m[1]!, level ? Number(level[1]) : 2, m[3]!);
      if (look === 'bold' || look === 'caps' || look === 'colon') sections[sections.length - 1]!.headingStyle = look;
    } else if (inGeneral) general.push(line.replace(/^[-*•]\s+/, ''));
    else if ((m = MD_HEADING.exec(line))) open(m[2]!, m[1]!.length, '');
    else if ((m = BOLD_HEADING.exec(line)) && words(m[1]!) <= 8) open(m[1]!.replace(/:$/, ''), 2, m[2]!);
    else if ((m = BULLET_HEADING.exec(line)) && words(m[1] ?? m[3]!) <= 6) open(m[1] ?? m[3]!, 2, m[2] ?? '');
    else if ((m = COLON_HEADING.exec(line)) && words(m[1]!) <= 6 && !/^(note|style|format|general|tone|language)$/i.test(m[1]!))
      open(m[1]!, 2, m[2]!);
    else if ((m = CAPS_HEADING.exec(line)) && words(m[1]!) <= 6 && /\p{Lu}{2}/u.test(m[1]!)) open(m[1]!, 2, '');
    else if (bareBullets >= 2 && (m = BARE_BULLET.exec(line)) && words(m[1]!) <= 6) open(m[1]!, 2, '');
    else if (sections.length === 0) general.push(line);
    else guidance[guidance.length - 1]!.push(line);
  }
  if (sections.length === 0) return { general: general.join('\n'), sections: commaList(template) };
  sections.forEach((s, i) => {
    const { rest, ...hints } = formatHints(s.heading, guidance[i]!.join(' '));
    Object.assign(s, hints);
    s.guidance = rest;
  });
  return { general: general.join('\n'), sections };
}

/** "Write a note with chief complaint, HPI, assessment and plan." -> four sections. */
function commaList(template: string): TemplateSection[] {
  const text = template.trim();
  if (text.split('\n').length > 3 || !/[,;]/.test(text)) return [];
  const afterColon = text.includes(':') ? text.slice(text.lastIndexOf(':') + 1) : text.replace(/^.*?\b(sections?|with|include|including|containing)\b/i, '');
  const parts = afterColon
    .split(/[,;]|\s+(?:and then|then|followed by)\s+|\s+and\s+(?=\p{Lu})/u)
    .map((p) => p.replace(/^\s*(and|then|&)\s+/i, '').replace(/[.!]+\s*$/, '').trim())
    .filter((p) => p.length > 1 && words(p.replace(/\s*\(.*$/, '')) <= 6);
  if (parts.length < 2) return [];
  // "HPI: 2-3 sentences, one paragraph" lists a shape, not sections.
  if (parts.some((p) => /^(\d|one\b|two\b|three\b)|\b(sentences?|paragraphs?|items?|bullets?|prose|list|brief|concise|short)\b/i.test(p.replace(/\s*\(.*$/, '')))) return [];
  return parts.map((p) => {
    // "Plan (numbered list)": the words in brackets say the section's shape.
    const paren = /^(.*?)\s*\((.*)\)?$/.exec(p);
    const heading = (paren ? paren[1]! : p).trim();
    const { rest, ...hints } = formatHints(heading, (paren?.[2] ?? '').replace(/\)$/, ''));
    return { heading: titleCase(heading), level: 2, guidance: rest, ...hints };
  });
}

function titleCase(s: string): string {
  if (/\p{Lu}/u.test(s)) return s; // keep the author's capitals (HPI, ROS, "Assessment and Plan")
  return s.replace(/(^|\s)(\p{Ll})/gu, (_m, sp: string, c: string) => sp + c.toUpperCase()).replace(/\b(And|Of|Or|The)\b/g, (w) => w.toLowerCase());
}

/**
 * Writes a template text from an outline, in the form {@link parseTemplateText} reads back
 * exactly (headings, look, order, level, format and size) and the embedded writer follows too.
 */
export function writeTemplateText(parsed: ParsedTemplate): string {
  const out = ['Write the note with these sections, in this order, using these exact headings:'];
  parsed.sections.forEach((s, i) => {
    const look = s.headingStyle && s.headingStyle !== 'markdown' ? s.headingStyle : `markdown ${Math.min(6, Math.max(1, s.level))}`;
    const size = s.format === 'prose' ? s.maxSentences : s.maxItems;
    const unit = s.format === 'prose' ? 'sentence' : 'item';
    const shape = `${s.format === 'prose' ? 'prose' : s.format === 'numbered' ? 'numbered list' : 'bulleted list'}${s.detail ? `, ${s.detail}` : ''}${size ? `, about ${size} ${unit}${size === 1 ? '' : 's'}` : ''}`;
    const guidance = s.guidance.trim().replace(/\s+/g, ' ');
    out.push(`${i + 1}. "${s.heading.replace(/"/g, "'")}" [heading: ${look}] — ${shape}.${guidance ? ` ${guidance}` : ''}`);
  });
  const general = parsed.general
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  if (general.length) out.push('', 'General instructions:', ...general.map((l) => `- ${l}`));
  return `${out.join('\n')}\n`;
}
