import { useRef, useState } from 'react';
import { deleteAllData, describeDeleted, describeUsage, formatBytes, storageUsage, type StorageReport } from '../state/data-admin.js';
import { useConnection, useStores } from '../state/stores.js';
import { BackupsPanel } from './backups-panel.js';
import { ErrorMessage, StatusMessage } from './messages.js';
import { useApiRead } from './use-api-read.js';

/** The data folder, how much is stored, its backups, and deleting all of it (after confirmation). */
export function DataPanel() {
  const { bridge, dictation, notes, voice } = useStores();
  const clinic = useConnection((s) => s.clinic);
  const [progress, setProgress] = useState<string>();
  const [error, setError] = useState<string>();
  const { client, value: usage, refresh } = useApiRead<StorageReport>((c) => storageUsage(c),
    (err) => setError(`The storage size could not be read: ${(err as Error).message}`));
  const [confirmText, setConfirmText] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  if (!client) return null;
  const deleteAll = async (): Promise<void> => {
    dialog.current?.close();
    setError(undefined);
    setProgress('Deleting all data…');
    try {
      const gone = await deleteAllData(client);
      dictation.getState().clear();
      dictation.setState({ macros: [] });
      notes.setState({ markdown: '', generated: undefined, noteId: undefined, transcript: '', status: 'idle', templates: [] });
      setProgress(`Deleted ${describeDeleted(gone)}.`);
      // Learn my voice shows what the server keeps now, not what it showed before.
      await voice.getState().load();
      await refresh();
    } catch (err) {
      setProgress(undefined);
      setError(`Deleting stopped: ${(err as Error).message}`);
    }
  };
  return (
    <section aria-labelledby="data-title">
      <h3 id="data-title">Data</h3>
      {clinic ? (
        <p>This account&apos;s notes, visits and audio are kept by the clinic server at {clinic.baseUrl}; what is shown and deleted here is yours there.</p>
      ) : (
        <p>
          Everything stays on this computer, in Clindoc&apos;s data folder (a SQLite database and the uploaded audio, encrypted).
          {bridge ? '' : ' In a browser the folder is the one the local API was started with (CLINDOC_DATA_DIR).'}
        </p>
      )}
      {/* Reserved height: the figures arrive after the first paint without moving the buttons. */}
      <dl className="usage" aria-live="polite">
        <div><dt>Stored for this account</dt><dd data-testid="storage-total">{usage ? formatBytes(usage.totalBytes) : 'Reading…'}</dd></div>
        <div><dt>Contents</dt><dd>{usage ? describeUsage(usage) : '…'}</dd></div>
      </dl>
      <div className="toolbar">
        {bridge && !clinic && <button type="button" onClick={() => void bridge.openDataFolder()}>Open data folder</button>}
        <button type="button" onClick={() => { setError(undefined); void refresh(); }}>Refresh storage size</button>
        <button type="button" className="danger" onClick={() => { setConfirmText(''); dialog.current?.showModal(); }}>Delete all data…</button>
      </div>
      {progress && <StatusMessage>{progress}</StatusMessage>}
      {error && <ErrorMessage>{error}</ErrorMessage>}
      <BackupsPanel />
      <dialog ref={dialog} aria-labelledby="delete-title">
        <form method="dialog" onSubmit={(e) => { e.preventDefault(); void deleteAll(); }}>
          <h3 id="delete-title">Delete all data?</h3>
          <p>Every note, transcription and its audio, macro, template and webhook of this account is deleted. This cannot be undone. The audit trail is kept.</p>
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
