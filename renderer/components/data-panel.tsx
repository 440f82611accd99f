import { useRef, useState } from 'react';
import { countData, deleteAllData, type DataCounts } from '../state/data-admin.js';
import { useConnection, useStores } from '../state/stores.js';
import { ErrorMessage, StatusMessage } from './messages.js';

const describe = (c: DataCounts): string =>
  `${c.notes} notes, ${c.transcriptions} transcriptions, ${c.macros} macros, ${c.templates} templates, ${c.webhooks} webhooks`;

/** The data folder, what is stored, and deleting all of it (after confirmation). */
export function DataPanel() {
  const { bridge, dictation, notes } = useStores();
  const client = useConnection((s) => (s.status === 'ready' ? s.client : undefined));
  const [counts, setCounts] = useState<DataCounts>();
  const [progress, setProgress] = useState<string>();
  const [error, setError] = useState<string>();
  const [confirmText, setConfirmText] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  if (!client) return null;
  const deleteAll = async (): Promise<void> => {
    dialog.current?.close();
    setError(undefined);
    try {
      const gone = await deleteAllData(client, (done, total) => setProgress(`Deleting… ${done} of ${total}`));
      dictation.getState().clear();
      dictation.setState({ macros: [] });
      notes.setState({ markdown: '', generated: undefined, noteId: undefined, transcript: '', status: 'idle', templates: [] });
      setProgress(`Deleted ${describe(gone)}.`);
      setCounts(await countData(client));
    } catch (err) {
      setError(`Deleting stopped: ${(err as Error).message}`);
    }
  };
  return (
    <section aria-labelledby="data-title">
      <h3 id="data-title">Data</h3>
      <p>
        Everything stays on this computer, in Clindoc&apos;s data folder (a SQLite database and the uploaded audio).
        {bridge ? '' : ' In a browser the folder is the one the local API was started with (CLINDOC_DATA_DIR).'}
      </p>
      <div className="toolbar">
        {bridge && <button type="button" onClick={() => void bridge.openDataFolder()}>Open data folder</button>}
        <button type="button" onClick={() => void countData(client).then(setCounts, (e: Error) => setError(e.message))}>Count stored items</button>
        <button type="button" className="danger" onClick={() => { setConfirmText(''); dialog.current?.showModal(); }}>Delete all data…</button>
      </div>
      {counts && <p role="status">Stored: {describe(counts)}.</p>}
      {progress && <StatusMessage>{progress}</StatusMessage>}
      {error && <ErrorMessage>{error}</ErrorMessage>}
      <dialog ref={dialog} aria-labelledby="delete-title">
        <form method="dialog" onSubmit={(e) => { e.preventDefault(); void deleteAll(); }}>
          <h3 id="delete-title">Delete all data?</h3>
          <p>Every note, transcription and its audio, macro, template and webhook of this account is deleted. This cannot be undone.</p>
          <label htmlFor="delete-confirm">Type DELETE to confirm</label>
          <input id="delete-confirm" value={confirmText} onChange={(e) => setConfirmText(e.target.value)} autoComplete="off" />
          <div className="toolbar">
            <button type="submit" className="danger" disabled={confirmText !== 'DELETE'}>Delete everything</button>
            <button type="button" onClick={() => dialog.current?.close()}>Cancel</button>
          </div>
        </form>
      </dialog>
    </section>
  );
}
