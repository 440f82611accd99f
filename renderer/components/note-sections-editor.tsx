import { useRef, useState } from 'react';
import { fromPlain, joinSections, splitSections, toPlain, type NoteSection } from '../state/note-sections.js';

/** Whether section `i` is a heading whose next section sits under it (a deeper heading). */
const grouping = (sections: readonly NoteSection[], i: number): boolean => {
  const next = sections[i + 1];
  return sections[i]!.heading !== undefined && next !== undefined && next.level > sections[i]!.level;
};

/**
 * The note edited in place (issue 27 point 5): each heading stays a heading and the words under it
 * are a text box in the physician's words (a list one item per line, no markdown markers). Each
 * box keeps what is typed as typed (bold marks are shown as their words, and a section changed by
 * hand is written without them); the note's markdown is rebuilt from the sections at each change,
 * and only a change from elsewhere (Revert to generated) resets the boxes.
 */
export function NoteSectionsEditor({ markdown, onChange }: { markdown: string; onChange(markdown: string): void }) {
  const emitted = useRef(markdown);
  const [sections, setSections] = useState<NoteSection[]>(() => splitSections(markdown));
  const [plain, setPlain] = useState<string[]>(() => sections.map((s) => toPlain(s.body)));
  if (markdown !== emitted.current) {
    // Changed from outside this editor: start again from the note as it now is.
    emitted.current = markdown;
    const next = splitSections(markdown);
    setSections(next);
    setPlain(next.map((s) => toPlain(s.body)));
  }
  const edit = (i: number, value: string): void => {
    const nextPlain = plain.map((p, j) => (j === i ? value : p));
    const next = sections.map((s, j) => (j === i ? { ...s, body: fromPlain(value, s.body) } : s));
    setPlain(nextPlain);
    const md = joinSections(next);
    emitted.current = md;
    onChange(md);
  };
  return (
    <div className="note-sections-editor" role="group" aria-label="Edit note">
      {sections.map((s, i) => {
        const id = `note-section-${i}`;
        const name = s.heading ?? 'Opening lines';
        const Tag = `h${Math.min(6, Math.max(1, s.level) + 2)}` as 'h3';
        return (
          <div key={i} className="note-section">
            {s.heading !== undefined && <Tag id={`${id}-heading`}>{s.heading}</Tag>}
            {/* A heading over sub-headings (Subjective over Chief complaint) has no words of its own to edit. */}
            {!(grouping(sections, i) && !(plain[i] ?? '').trim()) && (
              <>
                <label htmlFor={id} className="sr-only">{`Edit ${name}`}</label>
                <textarea
                  id={id}
                  value={plain[i] ?? ''}
                  rows={Math.max(2, (plain[i] ?? '').split('\n').length + 1)}
                  onChange={(e) => edit(i, e.target.value)}
                />
              </>
            )}
          </div>
        );
      })}
    </div>
  );
}
