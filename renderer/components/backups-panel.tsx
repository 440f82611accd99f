import { useState } from 'react';
import type { BackupList } from '../../shared/api/backups.js';
import { ApiError } from '../api/client.js';
import { formatBytes } from '../state/data-admin.js';
import { useConnection } from '../state/stores.js';
import { ErrorMessage, StatusMessage } from './messages.js';
import { useApiRead } from './use-api-read.js';

/** "27 Nov 2026, 14:05 CET": a moment in the physician's own time and zone (dateStyle cannot be combined with the zone). */
export const localTime = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });

/** How often automatic backups run, in words. */
export function scheduleText(s: BackupList['settings']): string {
  if (!s.folderConfigured) return 'Automatic backups are off: no backup folder is set.';
  if (s.intervalHours === 0) return `Automatic backups are off (CLINDOC_BACKUP_INTERVAL_HOURS=0); back up with the button. The newest ${s.keep} are kept.`;
  const every = s.intervalHours === 24 ? 'once a day' : s.intervalHours % 24 === 0 ? `every ${s.intervalHours / 24} days` : `every ${s.intervalHours} hours`;
  return `Automatic backups run ${every}; the newest ${s.keep} are kept${s.nextAt ? `. Next: ${localTime(s.nextAt)}` : ''}.`;
}

type Loaded = { kind: 'list'; list: BackupList } | { kind: 'forbidden' } | { kind: 'error'; message: string };

/**
 * Settings > Data > Backups: whether backups run (the last one's time, size and place), "Back up
 * now", the schedule and how to restore. Backups are the installation's, so they belong to the
 * operator role: an account without it is told so instead of seeing a bare 403.
 */
export function BackupsPanel() {
  const clinic = useConnection((s) => s.clinic);
  const [failure, setFailure] = useState<Loaded>();
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string>();
  const [error, setError] = useState<string>();
  const { client, value: read, refresh } = useApiRead<BackupList>(async (c) => {
    const backups = await c.listBackups();
    setFailure(undefined);
    return backups;
  }, (err) => setFailure(err instanceof ApiError && err.status === 403 ? { kind: 'forbidden' } : { kind: 'error', message: (err as Error).message }));
  const loaded: Loaded | undefined = failure ?? (read ? { kind: 'list', list: read } : undefined);
  if (!client) return null;

  const backUp = async (): Promise<void> => {
    setBusy(true);
    setDone(undefined);
    setError(undefined);
    try {
      const made = await client.createBackup();
      const n = (count: number, one: string): string => `${count} ${one}${count === 1 ? '' : 's'}`;
      setDone(`Backed up at ${localTime(made.createdAt)}: ${formatBytes(made.bytes)}, ${n(made.counts.notes, 'note')} and ${n(made.counts.audioFiles, 'audio file')} of ${n(made.counts.accounts, 'account')}.`);
      await refresh();
    } catch (err) {
      setError(err instanceof ApiError && err.status === 403
        ? 'This account may not make backups: they hold every account of this installation, so only its operator may. Ask the person who set up Clindoc.'
        : `The backup was not made: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  const list = loaded?.kind === 'list' ? loaded.list : undefined;
  const last = list?.items[0];
  const folder = list?.settings.folder;
  return (
    <div role="group" aria-labelledby="backups-title" className="backups">
      <h4 id="backups-title">Backups</h4>
      {!loaded && <p role="status">Reading the backups…</p>}
      {loaded?.kind === 'forbidden' && (
        <p data-testid="backup-forbidden">
          Backups are made for the whole {clinic ? 'clinic server' : 'installation'} by its operator; this account may not see or start them.
          Ask the person who set up Clindoc whether they run.
        </p>
      )}
      {loaded?.kind === 'error' && <ErrorMessage>The backups could not be read: {loaded.message}</ErrorMessage>}
      {list && (
        <>
          <dl className="usage" aria-live="polite">
            <div>
              <dt>Last backup</dt>
              <dd data-testid="last-backup">
                {last ? `${localTime(last.createdAt)}, ${formatBytes(last.bytes)}` : list.settings.folderConfigured ? 'None yet' : 'None: backups are off'}
              </dd>
            </div>
            <div>
              <dt>Where</dt>
              <dd data-testid="backup-where">
                {folder ? <><code>{folder}</code>{last && <> (file <code>{last.id}</code>)</>}</> : 'No backup folder is set'}
              </dd>
            </div>
            <div><dt>Schedule</dt><dd data-testid="backup-schedule">{scheduleText(list.settings)}</dd></div>
          </dl>
          {!list.settings.folderConfigured && (
            <p className="hint">
              To turn backups on, start Clindoc with <code>CLINDOC_BACKUP_DIR</code> set to a folder on another disk or a synced drive
              (for example <code>CLINDOC_BACKUP_DIR=/media/backup/clindoc</code>); the first backup is written at once, then on schedule.
              Without it, <code>clindoc backup FILE</code> writes one by hand.
            </p>
          )}
        </>
      )}
      {loaded?.kind !== 'forbidden' && (
        <div className="toolbar">
          <button type="button" onClick={() => void backUp()} disabled={busy || (list !== undefined && !list.settings.folderConfigured)}>
            {busy ? 'Backing up…' : 'Back up now'}
          </button>
        </div>
      )}
      {done && <StatusMessage>{done}</StatusMessage>}
      {error && <ErrorMessage onDismiss={() => setError(undefined)}>{error}</ErrorMessage>}
      <details className="restore-help">
        <summary>How to restore a backup</summary>
        <ol>
          <li>Quit Clindoc (the desktop app, or stop <code>npm run serve</code>).</li>
          <li>Run <code>clindoc restore {folder && last ? `${folder}/${last.id}` : 'FILE'} --replace</code>; the current database is moved aside, not deleted.</li>
          <li>Restoring on another computer needs this installation&apos;s key: <code>--key-file</code> with its <code>encryption.key</code> (keep a copy apart from the backups).</li>
          <li>A backup that is cut short, altered or from another installation is refused before anything is touched. Start Clindoc again.</li>
        </ol>
      </details>
    </div>
  );
}
