/**
 * Free-text templates (`noteType.template` with `note_style`) as this writer's layout: the
 * sections the shared template reader (services/notes/template-text.ts) finds, mapped onto the
 * clinical content they ask for, plus length and list-or-prose directions in plain words.
 */
import type { DetailLevel } from '../../../../shared/note-template.js';
import { parseTemplateText } from '../../../services/notes/template-text.js';
import { NOTE_SECTION_KINDS } from '../../../services/clinical-language/section-labels.js';
import { section, type LayoutSection } from './layout.js';
import { COMPOSITES, targetOfHeading, type SectionTarget } from './sections.js';

const KINDS = new Set<string>(NOTE_SECTION_KINDS);

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

/**
 * The layout a free-text template asks for, plus its general directions. Returns no sections
 * when the text names none; the caller then uses the default clinical layout.
 */
export function templateLayout(template: string, baseDetail: DetailLevel): { layout: LayoutSection[]; directives: TemplateDirectives } {
  const parsed = parseTemplateText(template);
  const layout = parsed.sections.map((s, i) => {
    let target = targetOfHeading(s.heading);
    // The style writer names the content of a section whose heading is unusual ("content: hpi").
    const hint = /\bcontent:\s*([a-z_]+)/i.exec(s.guidance);
    if (hint && (hint[1]! in COMPOSITES || KINDS.has(hint[1]!))) target = hint[1] as SectionTarget;
    const caps = /\p{Lu}{3}/u.test(s.heading) && s.heading === s.heading.toUpperCase();
    const size = s.format === 'prose' ? s.maxSentences : s.maxItems;
    return section({
      id: slug(s.heading, i),
      title: s.heading.replace(/:$/, ''),
      target,
      headingStyle: s.headingStyle ?? (caps ? 'caps' : 'markdown'),
      level: s.level,
      format: s.format === 'prose' ? 'prose' : 'list',
      listType: s.format === 'numbered' ? 'numeric' : 'bullet',
      detail: s.detail ?? readDirectives([s.guidance]).detail ?? baseDetail,
      ...(size ? { maxItems: size } : {}),
    });
  });
  return { layout, directives: readDirectives([parsed.general]) };
}

function slug(text: string, i: number): string {
  const s = text.toLowerCase().normalize('NFKD').replace(/[^\p{L}\p{N}]+/gu, '_').replace(/^_|_$/g, '');
  return s || `section_${i + 1}`;
}
