import type { ReactNode } from 'react';
import { DETAIL_LEVELS, LIST_TYPES, TONES, type NoteTemplate, type Section } from '../../shared/note-template.js';
import { addSection, moveSection, removeSection, updateSection, type SectionPath } from '../state/template-edit.js';

interface Props {
  template: NoteTemplate;
  section: Section;
  path: SectionPath;
  depth: number;
  onChange(t: NoteTemplate): void;
}

const num = (v: string): number | undefined => (v === '' ? undefined : Math.max(0, Math.round(Number(v))));

function Field({ label, children }: { label: string; children: ReactNode }) {
  return <label>{label}{children}</label>;
}

/** Edits one section of a NoteTemplate and, for headings, its children (nesting depth at most 2). */
export function SectionEditor({ template, section, path, depth, onChange }: Props) {
  const name = section.type === 'heading' ? section.properties.text || section.id : section.id;
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
  const select = (key: string, label: string, values: readonly string[], optional = true) => (
    <Field label={label}>
      <select value={(p[key] as string | undefined) ?? ''} onChange={(e) => prop(key, e.target.value || undefined)}>
        {optional && <option value="">Default</option>}
        {values.map((v) => <option key={v} value={v}>{v}</option>)}
      </select>
    </Field>
  );
  const count = (key: string, label: string) => (
    <Field label={label}><input type="number" min={0} value={(p[key] as number | undefined) ?? ''} onChange={(e) => prop(key, num(e.target.value))} /></Field>
  );
  return (
    <fieldset className={`section-editor ${section.type}`}>
      <legend>{section.type === 'heading' ? 'Heading' : section.type === 'list' ? 'List section' : 'Text section'}: {name}</legend>
      <div className="grid">
        <Field label="Section id"><input value={section.id} onChange={(e) => set((s) => ({ ...s, id: e.target.value }))} /></Field>
        {section.type === 'heading' ? (
          <>
            <Field label="Heading text"><input value={section.properties.text} onChange={(e) => prop('text', e.target.value)} /></Field>
            <Field label="Level (0-6)"><input type="number" min={0} max={6} value={section.properties.level} onChange={(e) => set((s) => ({ ...s, properties: { ...s.properties, level: Number(e.target.value) } }) as Section)} /></Field>
          </>
        ) : (
          <>
            {section.type === 'text' && <Field label="Label"><input value={(p.label as string | undefined) ?? ''} onChange={(e) => prop('label', e.target.value)} /></Field>}
            {select('detail_level', 'Detail level', DETAIL_LEVELS)}
            {select('tone', 'Tone', TONES)}
            {select('formatting_style', 'Formatting', ['markdown', 'plain'])}
            {section.type === 'list' ? select('list_type', 'List type', LIST_TYPES, false) : select('list_type', 'Show as list item', LIST_TYPES)}
            {section.type === 'list' ? <>{count('min_items', 'Min items')}{count('max_items', 'Max items')}</> : <>{count('min_sentences', 'Min sentences')}{count('max_sentences', 'Max sentences')}{count('min_paragraphs', 'Min paragraphs')}{count('max_paragraphs', 'Max paragraphs')}</>}
            <Field label="Placeholder when empty"><input value={(p.emptyPlaceholder as string | undefined) ?? ''} onChange={(e) => prop('emptyPlaceholder', e.target.value)} /></Field>
          </>
        )}
      </div>
      {section.type !== 'heading' && (
        <label>
          What to write
          <textarea rows={2} value={section.prompt} onChange={(e) => set((s) => ({ ...s, prompt: e.target.value }) as Section)} />
        </label>
      )}
      <div className="toolbar">
        {flag('hideIfEmpty', 'Hide if empty')}
        {flag('bold', 'Bold')}
        {flag('italic', 'Italic')}
        {section.type === 'text' && flag('bold_label', 'Bold label')}
        <button type="button" className="link" aria-label={`Move ${name} up`} onClick={() => onChange(moveSection(template, path, -1))}>Up</button>
        <button type="button" className="link" aria-label={`Move ${name} down`} onClick={() => onChange(moveSection(template, path, 1))}>Down</button>
        <button type="button" className="link" aria-label={`Remove ${name}`} onClick={() => onChange(removeSection(template, path))}>Remove</button>
      </div>
      {section.type === 'heading' && (
        <div className="children">
          {section.children.map((child, i) => (
            <SectionEditor key={i} template={template} section={child} path={[...path, i]} depth={depth + 1} onChange={onChange} />
          ))}
          <div className="toolbar">
            <button type="button" onClick={() => onChange(addSection(template, path, 'text'))} aria-label={`Add text section under ${name}`}>Add text</button>
            <button type="button" onClick={() => onChange(addSection(template, path, 'list'))} aria-label={`Add list section under ${name}`}>Add list</button>
            {depth < 2 && <button type="button" onClick={() => onChange(addSection(template, path, 'heading'))} aria-label={`Add heading under ${name}`}>Add heading</button>}
          </div>
        </div>
      )}
    </fieldset>
  );
}
