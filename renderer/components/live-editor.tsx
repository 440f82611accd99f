import { forwardRef, useImperativeHandle, useLayoutEffect, useRef, type ReactNode } from 'react';
import { docText, expansions, layout, unsureWords, type DocPiece } from '../state/dictation-doc.js';
import { useDictation, useStores } from '../state/stores.js';
import './live-editor.css';

/** Why the local API left a macro phrase as spoken, in the physician's words. */
export const SKIPPED: Record<string, string> = {
  negated: 'said in a negation',
  exception: 'followed by an exception',
  trigger_required: 'this macro needs its command, e.g. “insert …”',
};

/** What the Dictation page can ask of the editor. */
export interface LiveEditorHandle { focus(): void }

function markFor(piece: DocPiece, children: ReactNode): ReactNode {
  if (piece.kind === 'macro') {
    const cls = piece.undone ? `macro undone${piece.skipped ? ' skipped' : ''}` : 'macro';
    return <mark key={piece.id} className={cls} data-macro-id={piece.macroId} data-skipped={piece.skipped}>{children}</mark>;
  }
  if (piece.confidence !== undefined) return <mark key={piece.id} className="unsure" data-confidence={piece.confidence}>{children}</mark>;
  return <span key={piece.id}>{children}</span>;
}

/**
 * The dictated text, editable while dictation goes on: a real textarea (caret, selection, undo
 * of typing, input methods and screen readers work as everywhere) over a mirror that draws the
 * marks (macro expansions, unsure words, where the next words go) under the same glyphs. The
 * mirror is hidden from assistive technology; what it shows is also said in words below the
 * text (the expansions with their Undo buttons, the unsure words with a button that selects the
 * next one).
 */
export const LiveEditor = forwardRef<LiveEditorHandle>(function LiveEditor(_props, ref) {
  const { dictation } = useStores();
  const doc = useDictation((s) => s.doc);
  const partial = useDictation((s) => s.partial);
  const announcement = useDictation((s) => s.announcement);
  const insertion = useDictation((s) => s.insertion);
  const active = useDictation((s) => s.status !== 'idle');
  const area = useRef<HTMLTextAreaElement>(null);
  const text = docText(doc);
  const laid = layout(doc);
  const unsure = unsureWords(doc);
  const marks = expansions(doc);
  const insertAt = insertion === 'cursor' && doc.insertAt !== null && doc.insertAt < text.length ? doc.insertAt : undefined;

  useImperativeHandle(ref, () => ({ focus: () => area.current?.focus() }), []);

  // After dictation changed the text, the caret goes back where the store keeps it (setting a
  // textarea's value puts it at the end); the box grows with its text, so the mirror never scrolls.
  useLayoutEffect(() => {
    const el = area.current;
    if (!el) return;
    el.style.height = 'auto';
    if (el.scrollHeight) el.style.height = `${el.scrollHeight + 2}px`;
    if (el.ownerDocument.activeElement === el && (el.selectionStart !== doc.selection.start || el.selectionEnd !== doc.selection.end)) {
      el.setSelectionRange(Math.min(doc.selection.start, text.length), Math.min(doc.selection.end, text.length));
    }
  }, [text, doc.selection]);

  const report = (el: HTMLTextAreaElement): void => {
    const { selectionStart: start, selectionEnd: end } = el;
    if (start !== doc.selection.start || end !== doc.selection.end) dictation.getState().select({ start, end });
  };
  /** A click inside an unsure word selects the whole word, so typing replaces it. */
  const onClick = (el: HTMLTextAreaElement): void => {
    if (el.selectionStart !== el.selectionEnd) return report(el);
    const word = unsure.find((w) => w.start < el.selectionStart && el.selectionStart < w.end);
    if (word) el.setSelectionRange(word.start, word.end);
    report(el);
  };
  const nextUnsure = (): void => {
    const el = area.current;
    if (!el || unsure.length === 0) return;
    const word = unsure.find((w) => w.start >= el.selectionEnd) ?? unsure[0]!;
    el.focus();
    el.setSelectionRange(word.start, word.end);
    dictation.getState().select({ start: word.start, end: word.end });
  };

  // The mirror: each piece drawn as the textarea shows it, split where the next words will go.
  const mirror: ReactNode[] = [];
  for (const l of laid) {
    const shown = text.slice(l.start, l.end);
    if (insertAt !== undefined && l.start <= insertAt && insertAt < l.end) {
      const cut = insertAt - l.start;
      mirror.push(markFor(l.piece, <>{shown.slice(0, cut)}<span className="insert-point" />{shown.slice(cut)}</>));
    } else mirror.push(markFor(l.piece, shown));
  }
  const where = insertion === 'cursor' ? 'at the cursor' : 'at the end';
  return (
    <div className="live-editor">
      <label htmlFor="dictation-text" className="editor-label">Dictated text</label>
      <div className="editor-box">
        <div className="mirror" aria-hidden="true" data-testid="final-text">{mirror}{'\u200b'}</div>
        <textarea
          id="dictation-text"
          ref={area}
          value={text}
          rows={6}
          spellCheck
          aria-describedby="dictation-text-hint"
          placeholder={active ? 'Listening… start speaking. You can type here at any time.' : 'Press Start dictation (or Ctrl+Shift+Space) and speak, or type.'}
          onChange={(e) => dictation.getState().edit(e.target.value, { start: e.target.selectionStart, end: e.target.selectionEnd })}
          onSelect={(e) => report(e.currentTarget)}
          onClick={(e) => onClick(e.currentTarget)}
        />
      </div>
      {/* The words still being recognised change several times a second: shown, not announced. */}
      <p className="partial" data-testid="partial-text">{partial}</p>
      <p className="sr-only" aria-live="polite" data-testid="final-announcement">
        {announcement.text && <span key={announcement.count}>Dictated: {announcement.text}</span>}
      </p>
      <p id="dictation-text-hint" className="hint">
        Type to correct at any time; new dictation goes {where}.
        {unsure.length > 0 && ` ${unsure.length} unsure word${unsure.length === 1 ? '' : 's'} underlined.`}
        {marks.length > 0 && ` ${marks.length} macro${marks.length === 1 ? '' : 's'} in the text.`}
      </p>
      {(unsure.length > 0 || marks.length > 0) && (
        <div className="toolbar editor-marks">
          {unsure.length > 0 && (
            <button type="button" onClick={nextUnsure}>Select next unsure word ({unsure.length})</button>
          )}
          {marks.length > 0 && (
            <ul className="plain-list inline" aria-label="Macros in the text" data-testid="expansions">
              {marks.map((p) => (
                <li key={p.id} title={p.undone ? `Not expanded${p.skipped ? `: ${SKIPPED[p.skipped]}` : ''}` : `Expanded from “${p.original}”`}>
                  <span className={p.undone ? 'chip undone' : 'chip'}>{p.macroId}</span>
                  <button
                    type="button"
                    className="link small"
                    onClick={() => dictation.getState().toggleExpansion(p.id)}
                    aria-label={p.skipped && p.undone ? `Expand macro ${p.macroId} anyway (${SKIPPED[p.skipped]})` : p.undone ? `Expand macro ${p.macroId} again` : `Undo expansion of macro ${p.macroId}`}
                  >
                    {p.undone ? 'Expand' : 'Undo'}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </div>
  );
});
