import type { NoteTemplate, Section } from '../../shared/note-template.js';

/** Where a section sits: indexes from the template's top level down through heading children. */
export type SectionPath = number[];

function collectIds(sections: Section[], ids: Set<string>): Set<string> {
  for (const s of sections) {
    ids.add(s.id);
    if (s.type === 'heading') collectIds(s.children, ids);
  }
  return ids;
}

/** A fresh section of `type` with an id not yet used in the template. */
export function newSection(template: NoteTemplate, type: Section['type']): Section {
  const ids = collectIds(template.sections, new Set());
  let n = 1;
  while (ids.has(`${type}-${n}`)) n++;
  const id = `${type}-${n}`;
  if (type === 'heading') return { id, type, children: [], properties: { level: 2, text: 'New heading' } };
  if (type === 'list') return { id, type, prompt: '', properties: { list_type: 'bullet' } };
  return { id, type, prompt: '', properties: {} };
}

function mapAt(sections: Section[], path: SectionPath, fn: (list: Section[], index: number) => Section[]): Section[] {
  const [head, ...rest] = path;
  if (head === undefined) return sections;
  if (rest.length === 0) return fn(sections, head);
  return sections.map((s, i) => (i === head && s.type === 'heading' ? { ...s, children: mapAt(s.children, rest, fn) } : s));
}

/** Replaces the section at `path` with `fn(section)`. */
export function updateSection(t: NoteTemplate, path: SectionPath, fn: (s: Section) => Section): NoteTemplate {
  return { ...t, sections: mapAt(t.sections, path, (list, i) => list.map((s, j) => (j === i ? fn(s) : s))) };
}

/** Removes the section at `path`. */
export function removeSection(t: NoteTemplate, path: SectionPath): NoteTemplate {
  return { ...t, sections: mapAt(t.sections, path, (list, i) => list.filter((_, j) => j !== i)) };
}

/** Moves the section at `path` one place up (-1) or down (+1) among its siblings. */
export function moveSection(t: NoteTemplate, path: SectionPath, by: -1 | 1): NoteTemplate {
  return {
    ...t,
    sections: mapAt(t.sections, path, (list, i) => {
      const j = i + by;
      if (j < 0 || j >= list.length) return list;
      const copy = [...list];
      [copy[i], copy[j]] = [copy[j]!, copy[i]!];
      return copy;
    }),
  };
}

/** Appends a new section under the heading at `parent` (or at the top level when `parent` is empty). */
export function addSection(t: NoteTemplate, parent: SectionPath, type: Section['type']): NoteTemplate {
  const section = newSection(t, type);
  if (parent.length === 0) return { ...t, sections: [...t.sections, section] };
  return updateSection(t, parent, (s) => (s.type === 'heading' ? { ...s, children: [...s.children, section] } : s));
}

/** Moves the section at `from` to position `to` among the same siblings (drag and drop). */
export function moveSectionTo(t: NoteTemplate, from: SectionPath, to: number): NoteTemplate {
  return {
    ...t,
    sections: mapAt(t.sections, from, (list, i) => {
      const j = Math.max(0, Math.min(list.length - 1, to));
      if (i === j || i >= list.length) return list;
      const copy = [...list];
      const [moved] = copy.splice(i, 1);
      copy.splice(j, 0, moved!);
      return copy;
    }),
  };
}

/** True when `a` and `b` are siblings (same parent), so one can be dropped on the other. */
export const sameParent = (a: SectionPath, b: SectionPath): boolean =>
  a.length === b.length && a.slice(0, -1).every((x, i) => x === b[i]);

/**
 * The name a physician knows a section by: its heading or label; under a heading, the heading's
 * name and what it is ("Plan list"); else the first words of what it asks for, or its id.
 */
export function sectionName(s: Section, parent?: string): string {
  if (s.type === 'heading') return s.properties.text || s.id;
  if (s.type === 'text' && s.properties.label) return s.properties.label;
  if (parent) return `${parent} ${s.type === 'list' ? 'list' : 'paragraph'}`;
  return s.prompt.trim().split(/\s+/).slice(0, 5).join(' ') || s.id;
}

/** A common note section offered with one click: a heading with what goes under it. */
export interface LibrarySection {
  key: string;
  /** The heading as it appears in the note. */
  title: string;
  /** The short form clinicians use, when there is one. */
  short?: string;
  kind: 'text' | 'list';
  prompt: string;
  list?: 'bullet' | 'numeric';
}

/** The sections of common note formats (SOAP, H&P, clinic letters). */
export const SECTION_LIBRARY: readonly LibrarySection[] = [
  { key: 'chief-complaint', title: 'Chief complaint', short: 'CC', kind: 'text', prompt: 'The main reason for the visit, in one sentence.' },
  { key: 'hpi', title: 'History of present illness', short: 'HPI', kind: 'text', prompt: 'Onset, location, duration, character, aggravating and relieving factors, associated symptoms and what has been tried.' },
  { key: 'ros', title: 'Review of systems', short: 'ROS', kind: 'list', list: 'bullet', prompt: 'Pertinent positives and negatives, one body system per item.' },
  { key: 'pmh', title: 'Past medical history', short: 'PMH', kind: 'list', list: 'bullet', prompt: 'Past and chronic conditions, operations and hospital stays mentioned.' },
  { key: 'medications', title: 'Medications', kind: 'list', list: 'bullet', prompt: 'Current medications with dose and frequency as stated.' },
  { key: 'allergies', title: 'Allergies', kind: 'list', list: 'bullet', prompt: 'Allergies with the reaction; "No known drug allergies" when that was stated.' },
  { key: 'social-history', title: 'Social history', short: 'SH', kind: 'text', prompt: 'Smoking, alcohol, drugs, work, living situation, as mentioned.' },
  { key: 'family-history', title: 'Family history', short: 'FH', kind: 'text', prompt: 'Conditions in the family, as mentioned.' },
  { key: 'vitals', title: 'Vital signs', kind: 'text', prompt: 'Temperature, blood pressure, pulse, breathing rate and oxygen saturation as measured.' },
  { key: 'exam', title: 'Physical examination', short: 'PE', kind: 'text', prompt: 'Findings by body system, only what was examined.' },
  { key: 'results', title: 'Results', kind: 'list', list: 'bullet', prompt: 'Laboratory and imaging results discussed.' },
  { key: 'assessment', title: 'Assessment', kind: 'text', prompt: 'The working diagnosis and the reasoning for it.' },
  { key: 'plan', title: 'Plan', kind: 'list', list: 'numeric', prompt: 'Treatment, tests, referrals and advice, one per item.' },
  { key: 'assessment-plan', title: 'Assessment and plan', short: 'A&P', kind: 'list', list: 'numeric', prompt: 'Each problem with its assessment and plan.' },
  { key: 'follow-up', title: 'Follow-up', kind: 'text', prompt: 'When and why the patient should come back.' },
];

function unusedId(t: NoteTemplate, base: string, taken = collectIds(t.sections, new Set())): string {
  if (!taken.has(base)) return base;
  let n = 2;
  while (taken.has(`${base}-${n}`)) n++;
  return `${base}-${n}`;
}

/** A library section as template sections: a heading (level 2) and its text or list, ids not yet used. */
export function librarySection(t: NoteTemplate, item: LibrarySection): Section {
  const taken = collectIds(t.sections, new Set());
  const id = unusedId(t, item.key, taken);
  taken.add(id);
  const content: Section = item.kind === 'list'
    ? { id: unusedId(t, `${id}-items`, taken), type: 'list', prompt: item.prompt, properties: { list_type: item.list ?? 'bullet', hideIfEmpty: true } }
    : { id: unusedId(t, `${id}-text`, taken), type: 'text', prompt: item.prompt, properties: { hideIfEmpty: true } };
  return { id, type: 'heading', properties: { level: 2, text: item.title, hideIfEmpty: true }, children: [content] };
}

/** Where a top-level section stands in the library's order (its heading's title or its id), if it came from there. */
function libraryRank(s: Section): number | undefined {
  const heading = s.type === 'heading' ? s.properties.text.trim().toLowerCase() : undefined;
  const rank = SECTION_LIBRARY.findIndex((item) => item.title.toLowerCase() === heading || s.id === item.key || s.id.startsWith(`${item.key}-`));
  return rank < 0 ? undefined : rank;
}

/**
 * Adds a library section at the top level where a clinician expects it: before the first section
 * that comes later in a note (Allergies before Plan, not after it); sections of the physician's
 * own making keep their place and are stepped over.
 */
export function addLibrarySection(t: NoteTemplate, key: string): NoteTemplate {
  const rank = SECTION_LIBRARY.findIndex((x) => x.key === key);
  if (rank < 0) return t;
  const added = librarySection(t, SECTION_LIBRARY[rank]!);
  const at = t.sections.findIndex((s) => (libraryRank(s) ?? -1) > rank);
  const sections = at < 0 ? [...t.sections, added] : [...t.sections.slice(0, at), added, ...t.sections.slice(at)];
  return { ...t, sections };
}

/** A template id made from its title ("Urgent care visit" -> "urgent-care-visit"). */
export function idFromTitle(title: string): string {
  return title.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'my-template';
}

/** A starting template a physician can edit: history of present illness and plan. */
export function blankTemplate(): NoteTemplate {
  const empty: NoteTemplate = { id: 'my-template', title: 'My note', sections: [] };
  const hpi = addLibrarySection(empty, 'hpi');
  return addLibrarySection(hpi, 'plan');
}
