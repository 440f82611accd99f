import { useState } from 'react';
import { pasteCredentials } from '../api/connection.js';
import type { ClinicResult } from '../state/connection-store.js';
import { useConnection, useStores } from '../state/stores.js';
import { ErrorMessage, StatusMessage } from './messages.js';

/**
 * Settings > Clinic server: the address of the clinic's shared Clindoc and the physician's
 * account there. Test connection only asks; Save and use tests again and then sends every call
 * of this window there; Use this computer goes back to the local API. A saved key is never shown
 * again, only its first and last characters.
 */
export function ClinicServerPanel() {
  const { connection } = useStores();
  const clinic = useConnection((s) => s.clinic);
  const [baseUrl, setBaseUrl] = useState(clinic?.baseUrl ?? '');
  const [accountId, setAccountId] = useState(clinic?.accountId ?? '');
  const [apiKey, setApiKey] = useState('');
  const [busy, setBusy] = useState<'test' | 'save' | 'local'>();
  const [result, setResult] = useState<ClinicResult>();
  // Most desktops never use a clinic server: the form waits folded until asked for, or one is chosen.
  const [open, setOpen] = useState(Boolean(clinic));

  const run = async (kind: 'test' | 'save' | 'local'): Promise<void> => {
    setBusy(kind);
    setResult(undefined);
    try {
      const s = connection.getState();
      const input = { baseUrl, accountId, apiKey };
      const outcome = kind === 'test' ? await s.testClinic(input) : kind === 'save' ? await s.useClinic(input) : await s.useLocal();
      setResult(outcome);
      // Once saved, the key leaves the form: only its hint is shown from now on.
      if (outcome.ok && kind !== 'test') setApiKey('');
      if (outcome.ok && kind === 'local') {
        setBaseUrl('');
        setAccountId('');
      }
    } finally {
      setBusy(undefined);
    }
  };
  // The two lines a clinic's administrator hands out ("X-ACCOUNT-ID: …", "X-API-KEY: …") fill both fields.
  const onPaste = (e: React.ClipboardEvent<HTMLInputElement>): void => pasteCredentials(e, { accountId: setAccountId, apiKey: setApiKey });

  return (
    <section aria-labelledby="clinic-title">
      <h3 id="clinic-title">Clinic server</h3>
      <p className="hint" data-testid="clinic-where">
        {clinic ? <>Notes, visits and recordings go to the clinic server at <strong>{clinic.baseUrl}</strong> (account <code>{clinic.accountId}</code>, key <code>{clinic.keyHint}</code>).</>
          : <>Notes, visits and recordings stay on this computer. A clinic that runs a shared Clindoc gives you its address, an account id and an API key.</>}
      </p>
      {clinic && <button type="button" disabled={busy !== undefined} onClick={() => void run('local')}>Use this computer</button>}
      <details open={open} onToggle={(e) => setOpen(e.currentTarget.open)}>
        <summary>{clinic ? 'Change the clinic server' : 'Use a clinic server'}</summary>
        <form aria-label="Clinic server" onSubmit={(e) => { e.preventDefault(); void run('save'); }}>
          <label htmlFor="clinic-url">Server address</label>
          <input id="clinic-url" type="url" inputMode="url" placeholder="https://clindoc.clinic.example" value={baseUrl} onChange={(e) => setBaseUrl(e.target.value)} autoComplete="off" required />
          <label htmlFor="clinic-account">Clinic account</label>
          <input id="clinic-account" value={accountId} onPaste={onPaste} onChange={(e) => setAccountId(e.target.value.trim())} autoComplete="off" required />
          <label htmlFor="clinic-key">Clinic key</label>
          <input
            id="clinic-key" type="password" value={apiKey} onPaste={onPaste} onChange={(e) => setApiKey(e.target.value.trim())} autoComplete="off"
            placeholder={clinic ? `saved (${clinic.keyHint}); type a new key to change it` : 'the API key from the clinic'}
            required={!clinic}
          />
          <div className="toolbar">
            <button type="button" disabled={busy !== undefined} onClick={() => void run('test')}>Test connection</button>
            <button type="submit" className="primary" disabled={busy !== undefined}>Save and use</button>
          </div>
        </form>
      </details>
      {busy === 'test' && <StatusMessage>Calling the clinic server…</StatusMessage>}
      {result && (result.ok ? <StatusMessage>{result.message}</StatusMessage> : <ErrorMessage>{result.message}</ErrorMessage>)}
    </section>
  );
}
