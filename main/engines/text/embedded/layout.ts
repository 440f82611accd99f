/**
 * The layout model every note type is turned into: an ordered tree of sections, each naming
 * the content it shows, its heading look, list-or-prose, length and empty behaviour.
 */
import type { DetailLevel, ListType, Tone } from '../../../../shared/note-template.js';
import type { HeadingStyle } from '../../../services/notes/template-text.js';
import { COMPOSITES, kindsOf, type SectionKind, type SectionTarget } from './sections.js';

export interface LayoutSection {
  id: string;
  title: string;
  /** The heading's look; 'none' for a section shown without a heading. */
  headingStyle: HeadingStyle | 'none';
  /** Markdown heading level (1-6); 0 means a bold line. */
  level: number;
  target: SectionTarget;
  /** Kinds this section shows after fallback claims are resolved. */
  kinds: SectionKind[];
  format: 'prose' | 'list';
  listType: ListType;
  detail: DetailLevel;
  tone?: Tone;
  maxItems?: number;
  minItems?: number;
  bold?: boolean;
  italic?: boolean;
  hideIfEmpty?: boolean;
  emptyPlaceholder?: string;
  label?: string;
  boldLabel?: boolean;
  italicLabel?: boolean;
  /** Text sections with list_type: the paragraph is shown as one list item. */
  asListItem?: boolean;
  plain?: boolean;
  children: LayoutSection[];
}

/** Make a section with defaults filled in. */
export function section(partial: Partial<LayoutSection> & Pick<LayoutSection, 'id' | 'title' | 'target'>): LayoutSection {
  return {
    headingStyle: 'markdown',
    level: 2,
    kinds: [],
    format: 'prose',
    listType: 'bullet',
    detail: 'standard',
    children: [],
    ...partial,
  };
}

// Where content goes when no section asks for its kind, so nothing said is silently lost.
const FALLBACK: Record<SectionKind, SectionTarget[]> = {
  chief_complaint: ['hpi', 'subjective', 'summary'],
  hpi: ['subjective', 'history', 'summary'],
  ros: ['hpi', 'subjective'],
  pmh: ['history', 'hpi', 'subjective'],
  surgical: ['pmh', 'history', 'hpi', 'subjective'],
  medications: ['hpi', 'subjective', 'plan'],
  allergies: ['medications', 'pmh', 'history', 'hpi', 'subjective'],
  social: ['history', 'hpi', 'subjective'],
  family: ['history', 'pmh', 'hpi', 'subjective'],
  vitals: ['exam', 'objective'],
  exam: ['objective'],
  results: ['exam', 'objective', 'assessment'],
  assessment: ['assessment_plan', 'summary', 'plan'],
  plan: ['assessment_plan', 'summary', 'assessment'],
  instructions: ['plan', 'assessment_plan'],
};

/** All sections of a tree, depth first. */
export function flatten(sections: LayoutSection[]): LayoutSection[] {
  return sections.flatMap((s) => [s, ...flatten(s.children)]);
}

/**
 * Decide which section shows each kind: an explicit section for the kind first, then a
 * composite that contains it, then the fallback chain. Each kind is shown at most once.
 */
export function resolveKinds(sections: LayoutSection[]): void {
  const all = flatten(sections);
  const owner = new Map<SectionKind, LayoutSection>();
  for (const s of all) {
    if (s.target in COMPOSITES) continue;
    const kind = s.target as SectionKind;
    if (!owner.has(kind)) owner.set(kind, s);
  }
  for (const s of all) {
    if (!(s.target in COMPOSITES)) continue;
    for (const kind of kindsOf(s.target)) if (!owner.has(kind)) owner.set(kind, s);
  }
  const byTarget = (t: SectionTarget): LayoutSection | undefined => all.find((s) => s.target === t);
  const kinds = Object.keys(FALLBACK) as SectionKind[];
  for (const kind of kinds) {
    if (owner.has(kind)) continue;
    for (const t of FALLBACK[kind]) {
      const s = byTarget(t) ?? (t in COMPOSITES ? undefined : owner.get(t as SectionKind));
      if (s) {
        owner.set(kind, s);
        break;
      }
    }
  }
  for (const s of all) s.kinds = [];
  // Keep the note's natural order of kinds inside each section.
  for (const kind of kinds) owner.get(kind)?.kinds.push(kind);
}
