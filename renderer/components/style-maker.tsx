import { useState } from 'react';
import { useNotes, useStores } from '../state/stores.js';
import { ErrorMessage, StatusMessage } from './messages.js';

/** Makes a named note style from a sample note (POST /v1/note-styles). */
export function StyleMaker() {
  const { notes } = useStores();
  const status = useNotes((s) => s.styleStatus);
  const error = useNotes((s) => s.styleError);
  const styles = useNotes((s) => s.styles);
  const [name, setName] = useState('');
  const [sample, setSample] = useState('');
  const [instructions, setInstructions] = useState('');
  return (
    <details className="style-maker">
      <summary>Make a note style from a sample note</summary>
      <label htmlFor="style-name">Style name</label>
      <input id="style-name" value={name} onChange={(e) => setName(e.target.value)} />
      <label htmlFor="style-sample">Sample note</label>
      <textarea id="style-sample" rows={8} value={sample} onChange={(e) => setSample(e.target.value)} />
      <label htmlFor="style-instructions">Instructions (one per line, optional)</label>
      <textarea id="style-instructions" rows={3} value={instructions} onChange={(e) => setInstructions(e.target.value)} />
      <div className="toolbar">
        <button
          type="button"
          disabled={status === 'working'}
          onClick={() => void notes.getState().makeStyle(name, sample, instructions.split('\n').map((s) => s.trim()).filter(Boolean))}
        >
          Create style
        </button>
      </div>
      {status === 'working' && <StatusMessage>Reading the sample note…</StatusMessage>}
      {error && <ErrorMessage>{error}</ErrorMessage>}
      {styles.length > 0 && (
        <ul className="plain-list" aria-label="Saved styles">
          {styles.map((s) => (
            <li key={s.name}>
              {s.name}{' '}
              <button type="button" className="link" onClick={() => notes.getState().set({ kind: 'note_style', styleTemplate: s.template })} aria-label={`Use style ${s.name}`}>Use</button>{' '}
              <button type="button" className="link" onClick={() => notes.getState().deleteStyle(s.name)} aria-label={`Delete style ${s.name}`}>Delete</button>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
