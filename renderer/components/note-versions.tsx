import { useEffect, useState } from 'react';
import { localTime } from '../../shared/export/local-time.js';
import type { NoteVersion } from '../state/note-versions.js';
import { useNotes, useStores, useVisits } from '../state/stores.js';

const statusOf = (v: NoteVersion): string =>
  v.status === 'STATUS_FAILED' ? 'Failed'
  : v.status !== 'STATUS_DONE' ? 'Being written'
  : v.signature.status === 'amended' ? 'Signed, amended'
  : v.signature.status === 'signed' ? 'Signed'
  : 'Draft';

/**
 * Every note of the visit with its status, newest first; any of them opens with one click. A new
 * version never replaces a signed note, and the signed one stays here.
 */
export function NoteVersions() {
  const { notes, visits } = useStores();
  const visitId = useVisits((v) => v.currentId);
  // The visit is saved before another note is shown: it names the notes it has seen, and a note
  // shown for less than the autosave delay would otherwise never be recorded in it.
  const open = async (noteId: string): Promise<void> => {
    await visits.getState().flush();
    await notes.getState().load(noteId);
  };
  const versions = useNotes((s) => s.versions);
  const shown = useNotes((s) => s.noteId);
  const signatureStatus = useNotes((s) => s.signature.status);
  const done = useNotes((s) => s.status === 'STATUS_DONE');
  useEffect(() => {
    void notes.getState().refreshVersions(visitId);
  }, [notes, visitId, shown, signatureStatus, done]);
  if (versions.length === 0) return null;
  const numbered = versions.map((v, i) => ({ v, n: i + 1 })).reverse();
  return (
    <section className="versions card" aria-labelledby="versions-title">
      <h3 id="versions-title">Notes of this visit</h3>
      <ol reversed>
        {numbered.map(({ v, n }) => (
          <li key={v.noteId} aria-current={v.noteId === shown ? 'true' : undefined}>
            <span className={`badge ${v.signature.status === 'draft' ? 'draft' : 'signed'}`}>{statusOf(v)}</span>{' '}
            Version {n}
            {v.createdAt !== undefined && <>, written {localTime(v.createdAt)}</>}
            {v.signature.signedBy && v.signature.signedAt !== undefined && <>, signed by {v.signature.signedBy} {localTime(v.signature.signedAt)}</>}
            {v.noteId === shown ? <span className="hint"> (shown)</span> : (
              <button type="button" className="link" onClick={() => void open(v.noteId)} aria-label={`Open version ${n} (${statusOf(v)})`}>Open</button>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

/** After a new version is written: the previous version's lines it lacks, for the physician to put back or leave out. */
export function CarryPanel() {
  const { notes } = useStores();
  const carry = useNotes((s) => s.carry);
  const [chosen, setChosen] = useState<boolean[]>([]);
  useEffect(() => setChosen(carry?.lines.map((l) => l.added) ?? []), [carry]);
  if (!carry) return null;
  return (
    <section className="carry card" aria-labelledby="carry-title" role="region">
      <h3 id="carry-title">Not in this draft</h3>
      <p className="hint">
        These lines of the {carry.fromSigned ? 'signed' : 'previous'} version are not in the new draft. Ticked lines are yours
        (added after the note was written, or an addendum). The previous version stays as it is.
      </p>
      <ul className="carry-lines">
        {carry.lines.map((l, i) => (
          <li key={i}>
            <label>
              <input type="checkbox" checked={chosen[i] ?? false} onChange={(e) => setChosen((c) => c.map((x, j) => (j === i ? e.target.checked : x)))} />{' '}
              {l.text.replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')}{l.section && <span className="hint"> ({l.section})</span>}
            </label>
          </li>
        ))}
      </ul>
      <div className="toolbar">
        <button type="button" className="primary" disabled={!chosen.some(Boolean)}
          onClick={() => void notes.getState().acceptCarry(carry.lines.filter((_, i) => chosen[i]))}>
          Add ticked lines to the draft
        </button>
        <button type="button" onClick={() => notes.getState().dismissCarry()}>Leave them out</button>
      </div>
    </section>
  );
}
