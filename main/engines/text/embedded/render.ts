/**
 * Rendering a layout filled with content into markdown (or plain text) and the same note as
 * structured JSON. The JSON holds exactly the strings the markdown shows.
 */
import type { NoteLanguage } from '../../../../shared/languages.js';
import type { DetailLevel } from '../../../../shared/note-template.js';
import type { ContentItem, NoteContent } from './compose.js';
import type { LayoutSection } from './layout.js';
import type { SectionKind } from './sections.js';
import { phrase } from './i18n.js';

export interface JsonSection {
  id: string;
  title: string;
  level: number;
  kinds: SectionKind[];
  format: 'prose' | 'list';
  text?: string;
  items?: string[];
  sections?: JsonSection[];
}

// Words per kind at `standard` detail (a clinic note of ~450-550 words, as ACI-Bench's
// clinicians write); other levels scale these.
const BASE_WORDS: Record<SectionKind, number> = {
  chief_complaint: 18, hpi: 204, ros: 144, pmh: 42, surgical: 30, medications: 54, allergies: 24, social: 48, family: 36,
  vitals: 36, exam: 96, results: 60, assessment: 84, plan: 144, instructions: 48,
};
const DETAIL_SCALE: Record<DetailLevel, number> = { minimal: 0.2, brief: 0.45, standard: 1, detailed: 1.6, exhaustive: Infinity };

const wordCount = (text: string): number => text.split(/\s+/).filter(Boolean).length;

/**
 * Pick the items a section shows: the most informative first, within the section's word
 * budget and item limit, then back in transcript order. At least one item when any exist, and at
 * least `min` (min_items / min_sentences) when the transcript supports that many: the budget
 * gives way to the minimum, but nothing is ever padded or invented.
 */
export function selectItems(items: ContentItem[], kind: SectionKind, detail: DetailLevel, max?: number, min = 0): ContentItem[] {
  const budget = BASE_WORDS[kind] * DETAIL_SCALE[detail];
  const limit = max ?? Infinity;
  const keep = new Set<ContentItem>();
  let words = 0;
  for (const item of [...items].sort((a, b) => b.weight - a.weight || a.index - b.index)) {
    if (keep.size >= limit) break;
    const n = wordCount(item.text);
    if (keep.size > 0 && keep.size >= min && words + n > budget) continue;
    keep.add(item);
    words += n;
  }
  return items.filter((i) => keep.has(i));
}

interface Filled {
  section: LayoutSection;
  /** Per kind, the chosen lines ("Label: text" when labelled). */
  groups: { kind: SectionKind; lines: string[] }[];
  children: Filled[];
}

function line(item: ContentItem): string {
  return item.label ? `${item.label}: ${item.text}` : item.text;
}

function fill(section: LayoutSection, content: NoteContent): Filled {
  // A section's total item budget (max_items / max_sentences) is shared across its kinds in order.
  let budget = section.maxItems ?? Infinity;
  let need = section.minItems ?? 0;
  const groups = section.kinds
    .map((kind) => {
      if (budget <= 0) return { kind, lines: [] as string[] };
      const chosen = selectItems(content[kind], kind, section.detail, budget, need);
      budget -= chosen.length;
      need = Math.max(0, need - chosen.length);
      return { kind, lines: chosen.map(line) };
    })
    .filter((g) => g.lines.length > 0);
  return { section, groups, children: section.children.map((c) => fill(c, content)) };
}

function isEmpty(f: Filled): boolean {
  return f.groups.length === 0 && f.children.every(isEmpty);
}

function style(text: string, bold?: boolean, italic?: boolean, plain?: boolean): string {
  if (plain || !text) return text;
  let t = text;
  if (italic) t = `*${t}*`;
  if (bold) t = `**${t}**`;
  return t;
}

function headingLine(s: LayoutSection): string | undefined {
  if (s.headingStyle === 'none' || !s.title) return undefined;
  if (s.plain) return s.title;
  switch (s.headingStyle) {
    case 'caps':
      return style(s.title, s.bold, s.italic);
    case 'bold':
      return `**${s.title}**`;
    case 'colon':
      return `${style(s.title, s.bold, s.italic)}:`;
    default:
      return s.level <= 0 ? `**${s.title}**` : `${'#'.repeat(Math.min(6, s.level))} ${style(s.title, s.bold, s.italic)}`;
  }
}

/** Render a filled layout to markdown and JSON. */
export function render(
  layout: LayoutSection[],
  content: NoteContent,
  language: NoteLanguage,
  header: string[],
  title?: string,
): { markdown: string; json: Record<string, unknown> } {
  const blocks: string[] = [];
  if (title) blocks.push(`# ${title}`);
  if (header.length) blocks.push(header.join('  \n'));
  const json: JsonSection[] = [];
  for (const s of layout) renderSection(fill(s, content), language, blocks, json);
  const markdown = `${blocks.join('\n\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
  return { markdown, json: { ...(title ? { title } : {}), language, sections: json } };
}

function renderSection(f: Filled, language: NoteLanguage, blocks: string[], out: JsonSection[]): void {
  const s = f.section;
  const empty = isEmpty(f);
  if (empty && s.hideIfEmpty) return;
  const heading = headingLine(s);
  if (heading) blocks.push(heading);
  const node: JsonSection = { id: s.id, title: s.title, level: s.level, kinds: s.kinds, format: s.format };
  const labelled = f.groups.length > 1 && s.format === 'prose';
  const body: string[] = [];
  const lines = f.groups.flatMap((g) => g.lines);
  if (s.format === 'list' && lines.length) {
    node.items = lines;
    lines.forEach((l, i) => body.push(`${s.listType === 'numeric' ? `${i + 1}.` : s.plain ? '•' : '-'} ${style(l, s.bold, s.italic, s.plain)}`));
  } else if (lines.length) {
    // Prose: one paragraph per kind; kinds other than the section's own get an inline label.
    const paragraphs = f.groups.map((g) => {
      const text = g.lines.join(' ');
      return labelled && g.kind !== s.target ? `${style(phrase(language, g.kind), !s.plain, false, s.plain)}: ${text}` : text;
    });
    node.text = paragraphs.join('\n\n');
    for (const p of paragraphs) {
      const labelText = s.label ? `${style(s.label, s.boldLabel, s.italicLabel, s.plain)}: ` : '';
      const para = `${labelText}${style(p, s.bold, s.italic, s.plain)}`;
      body.push(s.asListItem ? `${s.listType === 'numeric' ? '1.' : '-'} ${para}` : para);
    }
  } else if (f.children.length === 0 || f.children.every(isEmpty)) {
    const placeholder = s.emptyPlaceholder ?? phrase(language, 'notDocumented');
    // Say "not discussed" once, here, when none of the children will show anything either.
    const childrenShown = f.children.some((c) => !c.section.hideIfEmpty);
    if (!childrenShown || s.emptyPlaceholder !== undefined) {
      body.push(placeholder);
      node.text = placeholder;
    }
  }
  if (body.length) blocks.push(body.join(s.format === 'list' ? '\n' : '\n\n'));
  const children: JsonSection[] = [];
  for (const c of f.children) renderSection(c, language, blocks, children);
  if (children.length) node.sections = children;
  out.push(node);
}
