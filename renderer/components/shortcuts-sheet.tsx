import { forwardRef, useImperativeHandle, useRef } from 'react';
import './shortcuts-sheet.css';

/** The app's keyboard shortcuts, as the shortcuts sheet lists them. */
export const SHORTCUTS: readonly { keys: string; does: string }[] = [
  { keys: 'Ctrl+Shift+Space', does: 'Start or stop dictation, from any page.' },
  { keys: 'Ctrl+Enter', does: 'Write the note: on Dictation from the dictated text, on Note from the transcript. The note gets the focus when it is ready.' },
  { keys: '?', does: 'Show this list (not while typing in a text field).' },
  { keys: 'Tab, Shift+Tab', does: 'Move between controls; the first Tab offers “Skip to content”.' },
  { keys: 'Escape', does: 'Close this list or a dialog.' },
];

/** What the app shell can ask of the sheet. */
export interface ShortcutsSheetHandle { open(): void }

/** True when a key press goes into a field being typed in, where "?" is a character, not a command. */
export function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.closest !== 'function') return false;
  if (el.isContentEditable) return true;
  const field = el.closest('textarea, select, input');
  if (!field) return false;
  const type = (field as HTMLInputElement).type;
  return !(field.tagName === 'INPUT' && ['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(type));
}

/** A modal list of the keyboard shortcuts, opened with "?" (the dialog keeps focus inside and Escape closes it). */
export const ShortcutsSheet = forwardRef<ShortcutsSheetHandle>(function ShortcutsSheet(_props, ref) {
  const dialog = useRef<HTMLDialogElement>(null);
  useImperativeHandle(ref, () => ({
    open: () => {
      const d = dialog.current;
      if (d && !d.open) d.showModal();
    },
  }), []);
  return (
    <dialog ref={dialog} aria-labelledby="shortcuts-title" className="shortcuts">
      <h2 id="shortcuts-title">Keyboard shortcuts</h2>
      <table>
        <thead><tr><th scope="col">Keys</th><th scope="col">What they do</th></tr></thead>
        <tbody>
          {SHORTCUTS.map((s) => <tr key={s.keys}><td><kbd>{s.keys}</kbd></td><td>{s.does}</td></tr>)}
        </tbody>
      </table>
      <p className="hint">Voice commands are listed on the Dictation page.</p>
      <div className="toolbar">
        <button type="button" className="primary" onClick={() => dialog.current?.close()}>Close</button>
      </div>
    </dialog>
  );
});
