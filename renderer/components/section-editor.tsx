import { useState, type ReactNode } from 'react';
import { DETAIL_LEVELS, TONES, type NoteTemplate, type Section } from '../../shared/note-template.js';
import {
  addSection, moveSection, moveSectionTo, removeSection, sameParent, sectionName, updateSection, type SectionPath,
} from '../state/template-edit.js';

/** The section being dragged, shared by all section editors of one template. */
export interface SectionDrag {
  from: SectionPath | null;
  setFrom(path: SectionPath | null): void;
}

interface Props {
  template: NoteTemplate;
  section: Section;
  path: SectionPath;
  depth: number;
  drag: SectionDrag;
  /** The name of the heading this section sits under, if any. */
  parent?: string;
  onChange(t: NoteTemplate): void;
}

const num = (v: string): number | undefined => (v === '' ? undefined : Math.max(0, Math.round(Number(v))));

/** Heading levels in words; 2 is the usual section heading of a note. */
const HEADING_SIZES: [number, string][] = [[1, '1 – largest'], [2, '2 – section (usual)'], [3, '3 – subsection'], [4, '4 – small'], [5, '5 – smaller'], [6, '6 – smallest'], [0, 'No heading mark']];
const DETAIL_WORDS: Record<string, string> = { exhaustive: 'Everything said', detailed: 'Detailed', standard: 'Standard', brief: 'Brief', minimal: 'Minimal' };
const TONE_WORDS: Record<string, string> = { formal: 'Formal', casual: 'Casual', technical: 'Technical', friendly: 'Friendly', instructional: 'Instructions to the patient' };

function Field({ label, children }: { label: string; children: ReactNode }) {
  return <label>{label}{children}</label>;
}

/**
 * Edits one section of a NoteTemplate in a physician's words, and for headings the sections
 * under them (nesting depth at most 2). What most people never change (ids, formatting, length
 * limits, emphasis) sits under "More options". Sections move with the drag handle or, from the
 * keyboard, the Move up / Move down buttons.
 */
export function SectionEditor({ template, section, path, depth, drag, parent, onChange }: Props) {
  const [over, setOver] = useState(false);
  const name = sectionName(section, parent);
  const set = (fn: (s: Section) => Section): void => onChange(updateSection(template, path, fn));
  const prop = (key: string, value: unknown): void =>
    set((s) => {
      const properties: Record<string, unknown> = { ...s.properties };
      if (value === undefined || value === '' || value === false) delete properties[key];
      else properties[key] = value;
      return { ...s, properties } as Section;
    });
  const p = section.properties as Record<string, unknown>;
  const flag = (key: string, label: string) => (
    <label className="check"><input type="checkbox" checked={p[key] === true} onChange={(e) => prop(key, e.target.checked)} />{label}</label>
  );
  const choose = (key: string, label: string, options: [string, string][], fallback?: string) => (
    <Field label={label}>
      <select value={(p[key] as string | undefined) ?? ''} onChange={(e) => prop(key, e.target.value || undefined)}>
        {fallback !== undefined && <option value="">{fallback}</option>}
        {options.map(([v, words]) => <option key={v} value={v}>{words}</option>)}
      </select>
    </Field>
  );
  const count = (key: string, label: string) => (
    <Field label={label}><input type="number" min={0} value={(p[key] as number | undefined) ?? ''} onChange={(e) => prop(key, num(e.target.value))} /></Field>
  );
  const droppable = drag.from !== null && sameParent(drag.from, path) && drag.from.join('.') !== path.join('.');
  const kind = section.type === 'heading' ? 'Heading' : section.type === 'list' ? 'List' : 'Paragraph';
  return (
    <fieldset
      className={`section-editor ${section.type}${over && droppable ? ' drop-target' : ''}`}
      onDragOver={(e) => {
        if (!droppable) return;
        e.preventDefault();
        e.stopPropagation();
        e.dataTransfer.dropEffect = 'move';
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(e) => {
        if (!droppable || !drag.from) return;
        e.preventDefault();
        e.stopPropagation();
        setOver(false);
        onChange(moveSectionTo(template, drag.from, path[path.length - 1]!));
        drag.setFrom(null);
      }}
    >
      <legend>
        <span
          className="drag-handle"
          draggable
          aria-hidden="true"
          title="Drag to move"
          onDragStart={(e) => {
            e.stopPropagation();
            e.dataTransfer.effectAllowed = 'move';
            e.dataTransfer.setData('text/plain', name);
            drag.setFrom(path);
          }}
          onDragEnd={() => drag.setFrom(null)}
        >⠿</span>{' '}
        {kind}: {name}
      </legend>
      {section.type === 'heading' ? (
        <div className="grid">
          <Field label="Heading"><input value={section.properties.text} onChange={(e) => prop('text', e.target.value)} /></Field>
          <Field label="Heading size">
            <select value={section.properties.level} onChange={(e) => set((s) => ({ ...s, properties: { ...s.properties, level: Number(e.target.value) } }) as Section)}>
              {HEADING_SIZES.map(([v, words]) => <option key={v} value={v}>{words}</option>)}
            </select>
          </Field>
        </div>
      ) : (
        <>
          <label>
            What to write
            <textarea rows={2} value={section.prompt} onChange={(e) => set((s) => ({ ...s, prompt: e.target.value }) as Section)} />
          </label>
          <div className="grid">
            {choose('detail_level', 'How much detail', DETAIL_LEVELS.map((d) => [d, DETAIL_WORDS[d]!]), 'Usual')}
            {choose('tone', 'Tone', TONES.map((t) => [t, TONE_WORDS[t]!]), 'Usual')}
            {section.type === 'list'
              ? choose('list_type', 'Bullets or numbers', [['bullet', 'Bullets'], ['numeric', 'Numbers']])
              : <Field label="Label before the text (optional)"><input value={(p.label as string | undefined) ?? ''} onChange={(e) => prop('label', e.target.value)} /></Field>}
          </div>
        </>
      )}
      <div className="toolbar">
        {flag('hideIfEmpty', 'Leave out when there is nothing to say')}
      </div>
      <details className="advanced">
        <summary>More options</summary>
        <div className="grid">
          <Field label="Section id (for integrations)"><input value={section.id} onChange={(e) => set((s) => ({ ...s, id: e.target.value }))} /></Field>
          {section.type !== 'heading' && (
            <>
              {section.type === 'text' && choose('list_type', 'Write as', [['bullet', 'One bullet item'], ['numeric', 'One numbered item']], 'Sentences')}
              {choose('formatting_style', 'Formatting', [['markdown', 'Markdown'], ['plain', 'Plain text']], 'Usual')}
              {section.type === 'list'
                ? <>{count('min_items', 'Fewest items')}{count('max_items', 'Most items')}</>
                : <>{count('min_sentences', 'Fewest sentences')}{count('max_sentences', 'Most sentences')}{count('min_paragraphs', 'Fewest paragraphs')}{count('max_paragraphs', 'Most paragraphs')}</>}
              <Field label="Text when there is nothing to say"><input value={(p.emptyPlaceholder as string | undefined) ?? ''} onChange={(e) => prop('emptyPlaceholder', e.target.value)} /></Field>
            </>
          )}
        </div>
        <div className="toolbar">
          {flag('bold', 'Bold')}
          {flag('italic', 'Italic')}
          {section.type === 'text' && flag('bold_label', 'Bold label')}
        </div>
      </details>
      <div className="toolbar">
        <button type="button" className="link" aria-label={`Move up: ${name}`} onClick={() => onChange(moveSection(template, path, -1))}>Move up</button>
        <button type="button" className="link" aria-label={`Move down: ${name}`} onClick={() => onChange(moveSection(template, path, 1))}>Move down</button>
        <button type="button" className="link" aria-label={`Remove ${name}`} onClick={() => onChange(removeSection(template, path))}>Remove</button>
      </div>
      {section.type === 'heading' && (
        <div className="children">
          {section.children.map((child, i) => (
            <SectionEditor key={i} template={template} section={child} path={[...path, i]} depth={depth + 1} drag={drag} parent={name} onChange={onChange} />
          ))}
          <div className="toolbar">
            <button type="button" onClick={() => onChange(addSection(template, path, 'text'))} aria-label={`Add a paragraph under ${name}`}>Add paragraph</button>
            <button type="button" onClick={() => onChange(addSection(template, path, 'list'))} aria-label={`Add a list under ${name}`}>Add list</button>
            {depth < 2 && <button type="button" onClick={() => onChange(addSection(template, path, 'heading'))} aria-label={`Add a heading under ${name}`}>Add heading</button>}
          </div>
        </div>
      )}
    </fieldset>
  );
}
