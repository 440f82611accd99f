/**
 * The note's outline, whatever the caller sent (`soap`, a free-text `note_style` template, or a
 * NoteTemplate object): which sections, in which order, with which headings, prose or list, and
 * how much. The answer schema, the prompt and the renderer are all built from this one outline.
 */
import type { NoteTypeSpec } from '../../../services/notes/ports.js';
import type { DetailLevel, ListType, NoteTemplate, Section, Tone } from '../../../../shared/note-template.js';
import type { NoteLabels } from '../../../services/clinical-language/section-labels.js';
import { parseTemplateText, type HeadingStyle } from '../../../services/notes/template-text.js';

export interface PlanSection {
  /** JSON property name in the model's answer (unique, ASCII). */
  key: string;
  heading: string;
  /** Markdown heading level; 0 renders the heading as a bold line. */
  level: number;
  /** Heading look from a free-text template (`PLAN`, `**Plan**`, `Plan:`); markdown when absent. */
  headingStyle?: HeadingStyle;
  kind: 'text' | 'list' | 'group';
  /** What the section must contain, for the model. */
  guidance: string;
  children: PlanSection[];
  listType: ListType;
  minItems?: number;
  maxItems?: number;
  minSentences?: number;
  maxSentences?: number;
  maxParagraphs?: number;
  detail: DetailLevel;
  tone: Tone;
  hideIfEmpty: boolean;
  emptyPlaceholder?: string;
  label?: string;
  boldLabel?: boolean;
  italicLabel?: boolean;
  bold?: boolean;
  italic?: boolean;
  plain?: boolean;
  /** Text sections shown as a single list item (`list_type` on a text section). */
  asListItem?: ListType;
}

export interface NotePlan {
  title?: string;
  /** Whole-note instructions (template `global_prompt`, text before a free-text template's first section). */
  general: string;
  sections: PlanSection[];
  /** True when the template named no sections: the model chooses headings itself. */
  freeForm: boolean;
}

/** Characters per sentence used to turn sentence counts into a length cap for the model's grammar. */
const CHARS_PER_SENTENCE = 260;
const DETAIL_CHARS: Record<DetailLevel, number> = { minimal: 300, brief: 800, standard: 2400, detailed: 4000, exhaustive: 8000 };

/** Longest text the schema lets a section have: generous, but bounded so a looping model ends. */
export function maxChars(section: PlanSection): number {
  const bySentences = section.maxSentences ? section.maxSentences * CHARS_PER_SENTENCE : Infinity;
  return Math.min(bySentences, DETAIL_CHARS[section.detail] * Math.max(1, section.maxParagraphs ?? 1));
}

function base(key: string, heading: string, kind: PlanSection['kind'], guidance: string): PlanSection {
  return { key, heading, level: 2, kind, guidance, children: [], listType: 'bullet', detail: 'standard', tone: 'formal', hideIfEmpty: false };
}

/** Unique ASCII keys from headings ("Assessment & Plan" -> "assessment_plan"). */
function keyMaker(): (heading: string) => string {
  const used = new Set<string>();
  return (heading) => {
    const stem =
      heading
        .normalize('NFKD')
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '_')
        .replace(/^_+|_+$/g, '')
        .slice(0, 40) || 'section';
    let key = /^[0-9]/.test(stem) ? `s_${stem}` : stem;
    for (let n = 2; used.has(key); n++) key = `${stem}_${n}`;
    used.add(key);
    return key;
  };
}

function soapPlan(labels: NoteLabels): NotePlan {
  const s = [
    base('subjective', labels.subjective, 'text',
      'Chief complaint, history of present illness (onset, duration, character, severity, modifying factors), pertinent positives and negatives on review of systems, relevant past medical, surgical, social and family history, current medications and allergies as reported.'),
    base('objective', labels.objective, 'text',
      'Vital signs, physical examination findings, and results of tests, labs and imaging that were stated in the encounter.'),
    base('assessment', labels.assessment, 'text', 'The clinician\'s assessment: diagnoses or differential, with the reasoning stated in the encounter.'),
    base('plan', labels.plan, 'list', 'Each plan item: tests ordered, medications (name, dose, frequency) started, changed or stopped, referrals, patient education and follow-up.'),
  ];
  s[0]!.detail = 'detailed';
  return { general: '', sections: s, freeForm: false };
}

function fromNoteTemplate(template: NoteTemplate): NotePlan {
  const key = keyMaker();
  const convert = (section: Section): PlanSection => {
    if (section.type === 'heading') {
      const p = base(key(section.properties.text), section.properties.text, 'group', '');
      p.level = section.properties.level;
      p.children = section.children.map(convert);
      p.hideIfEmpty = section.properties.hideIfEmpty ?? false;
      if (section.properties.bold !== undefined) p.bold = section.properties.bold;
      if (section.properties.italic !== undefined) p.italic = section.properties.italic;
      return p;
    }
    const props = section.properties;
    const p = base(key(('label' in props && props.label) || section.id), '', section.type, section.prompt);
    p.detail = props.detail_level ?? 'standard';
    p.tone = props.tone ?? 'formal';
    p.hideIfEmpty = props.hideIfEmpty ?? false;
    p.plain = props.formatting_style === 'plain';
    if (props.emptyPlaceholder !== undefined) p.emptyPlaceholder = props.emptyPlaceholder;
    if (props.bold !== undefined) p.bold = props.bold;
    if (props.italic !== undefined) p.italic = props.italic;
    if (section.type === 'list') {
      p.listType = section.properties.list_type;
      if (section.properties.max_items !== undefined) p.maxItems = section.properties.max_items;
      if (section.properties.min_items !== undefined) p.minItems = section.properties.min_items;
    } else {
      const t = section.properties;
      if (t.label) p.label = t.label;
      if (t.bold_label !== undefined) p.boldLabel = t.bold_label;
      if (t.italic_label !== undefined) p.italicLabel = t.italic_label;
      if (t.list_type) p.asListItem = t.list_type;
      if (t.max_sentences !== undefined) p.maxSentences = t.max_sentences;
      if (t.min_sentences !== undefined) p.minSentences = t.min_sentences;
      if (t.max_paragraphs !== undefined) p.maxParagraphs = t.max_paragraphs;
    }
    return p;
  };
  return { title: template.title, general: template.global_prompt ?? '', sections: template.sections.map(convert), freeForm: false };
}

function fromTemplateText(text: string, description?: string): NotePlan {
  const parsed = parseTemplateText(text);
  const key = keyMaker();
  const sections = parsed.sections.map((t) => {
    const p = base(key(t.heading), t.heading, t.format === 'prose' ? 'text' : 'list', t.guidance || t.heading);
    p.level = t.level;
    if (t.headingStyle) p.headingStyle = t.headingStyle;
    if (t.format === 'numbered') p.listType = 'numeric';
    if (t.maxSentences) p.maxSentences = t.maxSentences;
    if (t.maxItems) p.maxItems = t.maxItems;
    return p;
  });
  const general = [description, parsed.sections.length === 0 ? text : parsed.general].filter((s) => s?.trim()).join('\n');
  return { general, sections, freeForm: sections.length === 0 };
}

/**
 * Builds the outline for a note type.
 * @param noteType the request's note type (template already resolved for `note_template`)
 * @param labels fixed words in the note's language (SOAP headings)
 */
export function buildNotePlan(noteType: NoteTypeSpec, labels: NoteLabels): NotePlan {
  if (noteType.type === 'note_template' && noteType.noteTemplate) return fromNoteTemplate(noteType.noteTemplate);
  if (noteType.type === 'note_style' && noteType.template?.trim()) return fromTemplateText(noteType.template, noteType.description);
  const plan = soapPlan(labels);
  if (noteType.description?.trim()) plan.general = noteType.description.trim();
  return plan;
}

/** Every content section (text and list) in reading order, groups flattened. */
export function contentSections(sections: PlanSection[]): PlanSection[] {
  return sections.flatMap((s) => (s.kind === 'group' ? contentSections(s.children) : [s]));
}
