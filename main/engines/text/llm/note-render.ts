/**
 * Renders a validated answer as the note's markdown and, on request, its structured JSON (section
 * titles to content, nested under headings), both from the same outline so they always agree.
 */
import type { NoteGenerationInput } from '../../../services/notes/ports.js';
import type { NoteLabels } from '../../../services/clinical-language/section-labels.js';
import type { NoteAnswer, SectionContent } from './note-answer.js';
import type { NotePlan, PlanSection } from './note-plan.js';

export interface RenderedNote {
  markdown: string;
  json: Record<string, unknown>;
}

const isEmpty = (c: SectionContent | undefined): boolean => c === undefined || (Array.isArray(c) ? c.length === 0 : c.trim() === '');

function style(text: string, bold?: boolean, italic?: boolean): string {
  let out = text;
  if (italic) out = `*${out}*`;
  if (bold) out = `**${out}**`;
  return out;
}

/** Removes markdown emphasis and heading marks for `formatting_style: plain`. */
function plain(text: string): string {
  return text.replace(/\*\*|__|`/g, '').replace(/^#+\s*/gm, '');
}

function headingLine(text: string, level: number, bold?: boolean, italic?: boolean, look?: PlanSection['headingStyle']): string {
  if (look === 'caps') return style(text.toLocaleUpperCase(), bold, italic);
  if (look === 'colon') return style(`${text}:`, bold, italic);
  if (look === 'bold' || level <= 0) return style(text, bold ?? true, italic);
  return `${'#'.repeat(Math.min(6, level))} ${style(text, bold, italic)}`;
}

/**
 * Renders the note.
 * @param plan the outline the answer was asked for
 * @param answer the validated answer (already spelling-corrected and grounded)
 * @param input the request (patient header, date)
 * @param labels fixed words in the note's language
 */
export function renderNote(plan: NotePlan, answer: NoteAnswer, input: NoteGenerationInput, labels: NoteLabels): RenderedNote {
  const blocks: string[] = [];
  const json: Record<string, unknown> = {};

  const header: string[] = [];
  if (input.patientInfo?.name) header.push(`**${labels.patient}:** ${input.patientInfo.name}`);
  if (input.patientInfo?.dateOfBirth) header.push(`**${labels.dateOfBirth}:** ${input.patientInfo.dateOfBirth}`);
  if (input.date) header.push(`**${labels.date}:** ${input.date.slice(0, 10)}`);
  if (header.length) blocks.push(header.join('  \n'));

  if (plan.freeForm) {
    for (const s of answer.freeSections) {
      blocks.push(`## ${s.heading}\n\n${s.content}`);
      json[s.heading] = s.content;
    }
    return { markdown: `${blocks.join('\n\n')}\n`, json };
  }

  const heading = (s: PlanSection): string => answer.headings.get(s.key) ?? s.heading;
  const hasContent = (s: PlanSection): boolean =>
    s.kind === 'group' ? s.children.some(hasContent) : !isEmpty(answer.content.get(s.key));

  /** Returns the markdown of one section, or null when it is hidden. */
  const render = (s: PlanSection, into: Record<string, unknown>): string | null => {
    const name = heading(s) || (s.label ? answer.headings.get(s.key) ?? s.label : s.key);
    if (s.kind === 'group') {
      if (s.hideIfEmpty && !hasContent(s)) return null;
      const inner: Record<string, unknown> = {};
      const parts = [headingLine(heading(s), s.level, s.bold, s.italic)];
      for (const child of s.children) {
        const md = render(child, inner);
        if (md !== null) parts.push(md);
      }
      into[name] = inner;
      return parts.join('\n\n');
    }
    const content = answer.content.get(s.key);
    let body: string;
    if (isEmpty(content)) {
      if (s.hideIfEmpty) return null;
      const placeholder = s.emptyPlaceholder ?? labels.notDocumented;
      into[name] = s.kind === 'list' ? [] : '';
      body = placeholder;
    } else if (Array.isArray(content)) {
      into[name] = content;
      body = content.map((item, i) => `${s.listType === 'numeric' ? `${i + 1}.` : '-'} ${style(item, s.bold, s.italic)}`).join('\n');
    } else {
      into[name] = content;
      body = style(content as string, s.bold, s.italic);
      if (s.label) {
        const label = answer.headings.get(s.key) ?? s.label;
        body = `${style(`${label}:`, s.boldLabel ?? true, s.italicLabel)} ${body}`;
      }
      if (s.asListItem) body = `${s.asListItem === 'numeric' ? '1.' : '-'} ${body}`;
    }
    if (s.plain) body = plain(body);
    return s.heading ? `${headingLine(heading(s), s.level, s.bold, s.italic, s.headingStyle)}\n\n${body}` : body;
  };

  for (const s of plan.sections) {
    const md = render(s, json);
    if (md !== null) blocks.push(md);
  }
  return { markdown: `${blocks.join('\n\n')}\n`, json };
}
