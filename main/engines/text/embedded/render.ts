/**
 * Rendering a layout filled with content into markdown (or plain text) and the same note as
 * structured JSON. The JSON holds exactly the strings the markdown shows.
 */
import { clinicalCase } from './abbreviations.js';
import type { NoteLanguage } from '../../../../shared/languages.js';
import type { DetailLevel } from '../../../../shared/note-template.js';
import type { ContentItem, LineAct, NoteContent } from './compose.js';
import type { LayoutSection } from './layout.js';
import type { SectionKind } from './sections.js';
import { phrase, renderFact, translateFinding, translateLabel, translateTerm, untranslated } from './i18n.js';

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
  /** Per kind, the chosen items and their lines ("Label: text" when labelled). */
  groups: { kind: SectionKind; lines: string[]; items: ContentItem[] }[];
  children: Filled[];
}

/** How the note's lines are written: in which language, from which transcript language. */
interface Ctx {
  language: NoteLanguage;
  problems: string[];
  /** The transcript's language; lines the tables cannot write stay in it, marked. */
  source: string;
  /** True when the note's language is not the transcript's. */
  translate: boolean;
}

function mark(text: string, ctx: Ctx): string {
  return untranslated(text, ctx.language, ctx.source);
}

/** One item's text in the note's language (see docs/notes.md, "Languages"). */
function textOf(item: ContentItem, ctx: Ctx, kind?: SectionKind): string {
  if (item.caller) return item.text;
  if (!ctx.translate) return item.text || (item.fact ? renderFact(item.fact, ctx.language) ?? '' : '');
  const written = item.fact ? renderFact(item.fact, ctx.language) : undefined;
  if (written !== undefined) {
    const partial = item.text && 'complete' in item.fact! && !item.fact.complete;
    return partial ? `${written} ${mark(item.text, ctx)}` : written;
  }
  const english = item.text || (item.fact ? renderFact(item.fact, 'en') ?? '' : '');
  const term = kind === 'chief_complaint' || kind === 'pmh' ? translateTerm(english, ctx.language) : kind === 'exam' || kind === 'vitals' ? translateFinding(english, ctx.language) : undefined;
  return term ?? mark(english, ctx);
}

function labelled(label: string, text: string, ctx: Ctx): string {
  const t = translateLabel(label, ctx.language);
  const l = t ? `${t.charAt(0).toUpperCase()}${t.slice(1)}` : ctx.translate ? undefined : label;
  // A label the tables cannot write goes into the marker with its line.
  if (l === undefined) return /^\[/.test(text) ? text.replace(/^\[([^:]+): /, `[$1: ${label}: `) : `${mark(label, ctx)}: ${text}`;
  return `${l}: ${text}`;
}

function line(item: ContentItem, ctx: Ctx, kind?: SectionKind): string {
  const text = textOf(item, ctx, kind);
  return item.label ? labelled(item.label, text, ctx) : text;
}

/** A problem's name in the note's language, or marked. */
function problemName(name: string, ctx: Ctx): string {
  if (!ctx.translate) return name;
  return translateTerm(name, ctx.language) ?? mark(name, ctx);
}

function fill(section: LayoutSection, content: NoteContent, ctx: Ctx): Filled {
  // A section's total item budget (max_items / max_sentences) is shared across its kinds in order.
  let budget = section.maxItems ?? Infinity;
  let need = section.minItems ?? 0;
  const groups = section.kinds
    .map((kind) => {
      if (budget <= 0) return { kind, lines: [] as string[], items: [] as ContentItem[] };
      const chosen = selectItems(content[kind], kind, section.detail, budget, need);
      budget -= chosen.length;
      need = Math.max(0, need - chosen.length);
      // Two lines that read the same in the note's language ("Order an echocardiogram" said twice) are one.
      const seen = new Set<string>();
      const kept = chosen.filter((i) => {
        const l = line(i, ctx, kind);
        if (seen.has(l)) return false;
        seen.add(l);
        return true;
      });
      return { kind, lines: kept.map((i) => line(i, ctx, kind)), items: kept };
    })
    .filter((g) => g.lines.length > 0);
  return { section, groups, children: section.children.map((c) => fill(c, content, ctx)) };
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
  problems: string[] = [],
  source: string = language,
): { markdown: string; json: Record<string, unknown> } {
  const blocks: string[] = [];
  if (title) blocks.push(`# ${title}`);
  if (header.length) blocks.push(header.join('  \n'));
  const json: JsonSection[] = [];
  const ctx: Ctx = { language, problems, source, translate: source !== language };
  const heading = blocks.length;
  for (const s of layout) renderSection(fill(s, content, ctx), ctx, blocks, json);
  // The body's abbreviations as clinicians write them; the title and header (a patient's name) stay as given.
  for (let i = heading; i < blocks.length; i++) blocks[i] = clinicalCase(blocks[i]!);
  casedSections(json);
  let markdown = `${blocks.join('\n\n').replace(/\n{3,}/g, '\n\n').trim()}\n`;
  if (ctx.translate) {
    // Untranslated passages side by side share one marker.
    const open = untranslated('', language, source).replace(/\]$/, '');
    markdown = markdown.split(`] ${open}`).join(' ');
  }
  const left = untranslatedIn(json, ctx);
  return { markdown, json: { ...(title ? { title } : {}), language, sections: json, ...(ctx.translate ? { sourceLanguage: source, untranslated: left } : {}) } };
}

function casedSections(sections: JsonSection[]): void {
  for (const s of sections) {
    if (s.text !== undefined) s.text = clinicalCase(s.text);
    if (s.items) s.items = s.items.map(clinicalCase);
    if (s.sections) casedSections(s.sections);
  }
}

function renderSection(f: Filled, ctx: Ctx, blocks: string[], out: JsonSection[]): void {
  const language = ctx.language;
  const s = f.section;
  const empty = isEmpty(f);
  if (empty && s.hideIfEmpty) return;
  const heading = headingLine(s);
  if (heading) blocks.push(heading);
  const node: JsonSection = { id: s.id, title: s.title, level: s.level, kinds: s.kinds, format: s.format };
  const labelled = f.groups.length > 1 && s.format === 'prose';
  const body: string[] = [];
  const lines = f.groups.flatMap((g) => g.lines);
  const byProblem = problemLines(f, ctx);
  if (byProblem) {
    // The JSON text keeps the markdown's paragraphs: lines of one problem apart by a blank line unless written as structured prose.
    node.text = byProblem.plain.join(s.kinds.includes('assessment') && s.kinds.includes('plan') ? '\n' : '\n\n');
    body.push(...byProblem.markdown);
  } else if (s.format === 'list' && lines.length) {
    const grouped = f.groups.flatMap((g) => (g.items.some((i) => i.label) ? labelledLines(g.items, ctx, g.kind) : g.lines));
    lines.splice(0, lines.length, ...grouped);
    node.items = lines;
    lines.forEach((l, i) => body.push(`${s.listType === 'numeric' ? `${i + 1}.` : s.plain ? '•' : '-'} ${style(l, s.bold, s.italic, s.plain)}`));
  } else if (lines.length) {
    // Prose: one paragraph per kind; kinds other than the section's own get an inline label.
    const paragraphs = f.groups.map((g) => {
      // Labelled findings ("Respiratory: ...") stand on their own lines, as clinicians write them.
      const text = g.items.some((i) => i.label) ? labelledLines(g.items, ctx, g.kind).join('\n\n') : g.lines.join(' ');
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
  if (body.length) blocks.push(body.join(s.format === 'list' || byProblem ? '\n' : '\n\n'));
  const children: JsonSection[] = [];
  for (const c of f.children) renderSection(c, ctx, blocks, children);
  if (children.length) node.sections = children;
  out.push(node);
}

const ACT_ORDER: LineAct[] = ['reasoning', 'testing', 'medication', 'order', 'referral', 'advice', 'followup'];
const ACT_LABEL: Record<LineAct, 'reasoning' | 'testing' | 'treatment' | 'referral' | 'education' | 'followUp'> = {
  reasoning: 'reasoning', testing: 'testing', medication: 'treatment', order: 'treatment', referral: 'referral', advice: 'education', followup: 'followUp',
};

/**
 * A section holding the assessment or the plan, written problem by problem: the problem's name,
 * then its reasoning and its plan lines under labels ("Medical Reasoning:", "Medical
 * Treatment:"...) where assessment and plan share the section; "Problem: ..." lines where the
 * section holds one of them. Lines of no named problem follow; counselling, follow-up and the
 * patient's agreement close the section. Undefined for sections without assessment or plan.
 */
function problemLines(f: Filled, ctx: Ctx): { markdown: string[]; plain: string[] } | undefined {
  const kinds = new Set(f.groups.map((g) => g.kind));
  const s = f.section;
  const namesOnly = s.kinds.includes('assessment') && !s.kinds.includes('plan') && ctx.problems.some(Boolean);
  if (!kinds.has('assessment') && !kinds.has('plan') && !namesOnly) return undefined;
  const both = s.kinds.includes('assessment') && s.kinds.includes('plan');
  const items = f.groups.filter((g) => g.kind === 'assessment' || g.kind === 'plan').flatMap((g) => g.items);
  const closing = f.groups.filter((g) => g.kind !== 'assessment' && g.kind !== 'plan').flatMap((g) => g.lines);
  // Each entry: a line and whether it is a problem's name (a heading line in structured prose).
  const entries: { text: string; name?: boolean }[] = [];
  // An assessment on its own names every problem of the plan, even one with no reasoning said.
  const named = !s.kinds.includes('plan') && s.kinds.includes('assessment') ? ctx.problems.map((p, i) => (p ? i : -1)).filter((i) => i >= 0) : [];
  const order = [...new Set([...named, ...items.map((i) => i.problem ?? -1)])].sort((a, b) => (a < 0 ? 1 : b < 0 ? -1 : a - b));
  for (const p of order) {
    const mine = items.filter((i) => (i.problem ?? -1) === p);
    const name = p >= 0 && ctx.problems[p] ? problemName(ctx.problems[p]!, ctx) : undefined;
    if (both) {
      if (name) entries.push({ text: `${name}.`, name: true });
      for (const act of ACT_ORDER) {
        const text = mine.filter((i) => (i.act ?? 'order') === act).map((i) => textOf(i, ctx, 'plan')).join(' ');
        if (text) entries.push({ text: `${phrase(ctx.language, ACT_LABEL[act])}: ${text}` });
      }
    } else {
      const text = mine.map((i) => textOf(i, ctx, 'plan')).join(' ');
      if (!text && !name) continue;
      entries.push({ text: name ? (text ? `${name}: ${text}` : `${name}.`) : text });
    }
  }
  for (const l of closing) entries.push({ text: l });
  if (entries.length === 0) return undefined;
  // A list's max_items counts the lines shown, problem names and labelled parts alike.
  if ((s.format === 'list' || s.asListItem) && s.maxItems !== undefined) entries.splice(s.maxItems);
  const plain = entries.map((e) => e.text);
  const label = s.label ? `${style(s.label, s.boldLabel, s.italicLabel, s.plain)}: ` : '';
  const markdown: string[] = [];
  if (s.format === 'list' || s.asListItem) {
    entries.forEach((e, i) => markdown.push(`${s.listType === 'numeric' ? `${i + 1}.` : s.plain ? '•' : '-'} ${i === 0 ? label : ''}${style(e.text, s.bold, s.italic, s.plain)}`));
  } else if (both) {
    // Structured prose: the problem's name on its own line, its parts as bullets under it.
    entries.forEach((e, i) => {
      if (e.name) markdown.push(...(markdown.length ? [''] : []), `${i === 0 ? label : ''}${s.plain ? e.text : `**${e.text}**`}`);
      else markdown.push(`${s.plain ? '•' : '-'} ${i === 0 ? label : ''}${style(e.text, s.bold, s.italic, s.plain)}`);
    });
  } else {
    entries.forEach((e, i) => markdown.push(...(i ? [''] : []), `${i === 0 ? label : ''}${style(e.text, s.bold, s.italic, s.plain)}`));
  }
  return { markdown, plain };
}

/** Lines of labelled items, one per label in first-seen order ("Musculoskeletal: a. b."). */
function labelledLines(items: ContentItem[], ctx: Ctx, kind?: SectionKind): string[] {
  const byLabel = new Map<string, string[]>();
  for (const i of items) {
    const key = i.label ?? '';
    byLabel.set(key, [...(byLabel.get(key) ?? []), textOf(i, ctx, kind)]);
  }
  return [...byLabel].map(([label, texts]) => (label ? labelled(label, texts.join(' '), ctx) : texts.join(' ')));
}

/** Every passage left in the transcript's language, with the section it is in (the note's JSON lists them). */
function untranslatedIn(sections: JsonSection[], ctx: Ctx): { section: string; text: string }[] {
  if (!ctx.translate) return [];
  const label = untranslated('', ctx.language, ctx.source).replace(/\]$/, '');
  const out: { section: string; text: string }[] = [];
  const walk = (list: JsonSection[]): void => {
    for (const s of list) {
      for (const piece of [s.text ?? '', ...(s.items ?? [])]) {
        let at = piece.indexOf(label);
        while (at >= 0) {
          const end = piece.indexOf(']', at + label.length);
          out.push({ section: s.id, text: piece.slice(at + label.length, end < 0 ? undefined : end) });
          at = piece.indexOf(label, at + label.length);
        }
      }
      walk(s.sections ?? []);
    }
  };
  walk(sections);
  return out;
}
