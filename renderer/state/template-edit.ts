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

/** A starting template a physician can edit. */
export function blankTemplate(): NoteTemplate {
  return {
    id: 'my-template',
    title: 'My note',
    sections: [
      { id: 'subjective', type: 'heading', properties: { level: 2, text: 'Subjective' }, children: [
        { id: 'hpi', type: 'text', prompt: 'History of present illness', properties: { detail_level: 'standard', tone: 'formal' } },
      ] },
      { id: 'plan', type: 'list', prompt: 'Plan items', properties: { list_type: 'numeric', hideIfEmpty: true } },
    ],
  };
}
