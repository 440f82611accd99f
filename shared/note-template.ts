/**
 * The contract's NoteTemplate object model, shared by the local API (validation, note writing)
 * and the renderer (template editor). Pure types and functions only.
 */
export type FormattingStyle = 'markdown' | 'plain';
export type DetailLevel = 'exhaustive' | 'detailed' | 'standard' | 'brief' | 'minimal';
export type Tone = 'formal' | 'casual' | 'technical' | 'friendly' | 'instructional';
export type ListType = 'bullet' | 'numeric';

export const DETAIL_LEVELS: readonly DetailLevel[] = ['exhaustive', 'detailed', 'standard', 'brief', 'minimal'];
export const TONES: readonly Tone[] = ['formal', 'casual', 'technical', 'friendly', 'instructional'];
export const LIST_TYPES: readonly ListType[] = ['bullet', 'numeric'];

export interface HeadingProperties {
  level: number;
  text: string;
  bold?: boolean;
  italic?: boolean;
  hideIfEmpty?: boolean;
}

/** How a text or list section is written and shown when empty (both kinds take these). */
interface WrittenProperties {
  bold?: boolean;
  italic?: boolean;
  hideIfEmpty?: boolean;
  formatting_style?: FormattingStyle;
  detail_level?: DetailLevel;
  tone?: Tone;
  emptyPlaceholder?: string;
}

export interface TextProperties extends WrittenProperties {
  label?: string;
  bold_label?: boolean;
  italic_label?: boolean;
  list_type?: ListType;
  max_paragraphs?: number;
  min_paragraphs?: number;
  max_sentences?: number;
  min_sentences?: number;
}

export interface ListProperties extends WrittenProperties {
  list_type: ListType;
  max_items?: number;
  min_items?: number;
}

export interface HeadingSection {
  id: string;
  type: 'heading';
  children: Section[];
  properties: HeadingProperties;
  result?: string;
}

export interface TextSection {
  id: string;
  type: 'text';
  prompt: string;
  properties: TextProperties;
  result?: string;
}

export interface ListSection {
  id: string;
  type: 'list';
  prompt: string;
  properties: ListProperties;
  result?: string[];
}

export type Section = HeadingSection | TextSection | ListSection;

export interface NoteTemplate {
  id: string;
  title: string;
  sections: Section[];
  global_prompt?: string;
}

/** Maximum nesting depth of heading sections (a heading inside a heading is depth 2). */
export const MAX_HEADING_DEPTH = 2;

/**
 * Semantic checks the JSON Schema cannot express: heading depth, unique section ids.
 * Returns a list of problems, each naming the section path; empty when the template is valid.
 * Field types and enums are checked by the schema before this runs.
 */
export function templateProblems(template: NoteTemplate): string[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const walk = (sections: Section[], path: string, headingDepth: number): void => {
    sections.forEach((section, index) => {
      const here = `${path}[${index}]`;
      if (seen.has(section.id)) problems.push(`${here}.id: duplicate section id "${section.id}"`);
      seen.add(section.id);
      if (section.type === 'heading') {
        const depth = headingDepth + 1;
        if (depth > MAX_HEADING_DEPTH) problems.push(`${here}: heading nesting depth exceeds ${MAX_HEADING_DEPTH}`);
        const level = section.properties.level;
        if (!Number.isInteger(level) || level < 0 || level > 6) problems.push(`${here}.properties.level: must be an integer from 0 to 6`);
        walk(section.children, `${here}.children`, depth);
      } else if (section.type === 'list') {
        const { min_items: min, max_items: max } = section.properties;
        if (min !== undefined && max !== undefined && min > max) problems.push(`${here}.properties: min_items exceeds max_items`);
      } else {
        const p = section.properties;
        if (p.min_sentences !== undefined && p.max_sentences !== undefined && p.min_sentences > p.max_sentences)
          problems.push(`${here}.properties: min_sentences exceeds max_sentences`);
        if (p.min_paragraphs !== undefined && p.max_paragraphs !== undefined && p.min_paragraphs > p.max_paragraphs)
          problems.push(`${here}.properties: min_paragraphs exceeds max_paragraphs`);
      }
    });
  };
  walk(template.sections, 'sections', 0);
  return problems;
}
