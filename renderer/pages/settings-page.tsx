import { useState } from 'react';
import type { NoteLanguage } from '../../shared/languages.js';
import { ClinicServerPanel } from '../components/clinic-server-panel.js';
import { CopyField } from '../components/copy-field.js';
import { CodeEditionsPanel } from '../components/code-editions-panel.js';
import { DataPanel } from '../components/data-panel.js';
import { DictationPrefs } from '../components/dictation-prefs.js';
import { EnginesPanel } from '../components/engines-panel.js';
import { VoiceEnrollment } from '../components/voice-enrollment.js';
import { ErrorMessage, StatusMessage } from '../components/messages.js';
import { WebhooksPanel } from '../components/webhooks-panel.js';
import { parseCredentialLines, pasteCredentials } from '../api/connection.js';
import { useConnection, usePrefs, useStores } from '../state/stores.js';
import { LanguageOptions } from '../components/language-options.js';
import { useSignOut } from '../components/use-sign-out.js';
import { Page } from '../components/page.js';

function ConnectionForm() {
  const { connection } = useStores();
  const status = useConnection((s) => s.status);
  const message = useConnection((s) => s.message);
  const [accountId, setAccountId] = useState('');
  const [apiKey, setApiKey] = useState('');
  // On this computer the sign-in is remembered unless unticked (Sign out forgets it).
  const [remember, setRemember] = useState(true);
  // Pasting the printed lines ("X-ACCOUNT-ID: …", "X-API-KEY: …") into either field fills both.
  const onPaste = (e: React.ClipboardEvent<HTMLInputElement>): void => pasteCredentials(e, { accountId: setAccountId, apiKey: setApiKey });
  // A line typed or dropped in whole ("X-API-KEY: cdk_…") keeps only the value.
  const value = (text: string, field: 'accountId' | 'apiKey'): string => parseCredentialLines(text)[field] ?? text;
  return (
    <form onSubmit={(e) => { e.preventDefault(); void connection.getState().enter(accountId, apiKey, remember); }} aria-label="Connect to the local API">
      {status === 'missing' && message && <ErrorMessage>{message}</ErrorMessage>}
      <p>
        Open the sign-in link <code>npm run serve</code> printed, or paste the two lines it printed (<code>X-ACCOUNT-ID: …</code> and
        <code> X-API-KEY: …</code>) into either field; <code>clindoc credentials</code> prints them again. This browser remembers them on
        this computer until you sign out; untick Remember to keep them for this tab only (a shared computer).
      </p>
      <label htmlFor="account-id">Account id</label>
      <input id="account-id" value={accountId} onPaste={onPaste} onChange={(e) => setAccountId(value(e.target.value, 'accountId'))} autoComplete="off" required />
      <label htmlFor="api-key">API key</label>
      <input id="api-key" type="password" value={apiKey} onPaste={onPaste} onChange={(e) => setApiKey(value(e.target.value, 'apiKey'))} autoComplete="off" required />
      <label className="check">
        <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} />
        Remember on this computer
      </label>
      <button type="submit" className="primary" disabled={status === 'checking'}>Connect</button>
    </form>
  );
}

/** Connection and integration details, preferences, engines, webhooks, data. */
export function SettingsPage() {
  const { connection, prefs, dictation, notes, bridge } = useStores();
  const state = useConnection((s) => s);
  const { signOut, error: signOutError, clearError: clearSignOutError } = useSignOut();
  const language = usePrefs((s) => s.language);
  const formatting = usePrefs((s) => s.formatting);
  const clinic = state.clinic;
  const base = state.connection?.baseUrl || window.location.origin;
  const port = new URL(base).port;
  return (
    <Page id="settings" title="Settings" className="settings">
      <section aria-labelledby="conn-title">
        <h3 id="conn-title">{clinic ? 'Connection' : 'Local API'}</h3>
        {state.status === 'checking' && <StatusMessage>Checking the credentials…</StatusMessage>}
        {state.status === 'ready' && <StatusMessage>Connected{clinic ? ' to the clinic server' : state.source === 'desktop' ? ' (desktop app)' : ''}.</StatusMessage>}
        {(state.status === 'rejected' || state.status === 'offline') && <ErrorMessage>{state.message}</ErrorMessage>}
        {/* With a clinic server chosen, its panel below is where credentials change. */}
        {!clinic && (state.status === 'ready' && state.connection ? (
          <div className="toolbar">
            <span data-testid="signed-in">
              {state.source === 'desktop' ? 'Signed in with this computer\'s account.' : state.remembered ? 'Signed in. This browser stays signed in on this computer until you sign out.' : 'Signed in for this tab only.'}
            </span>
            <button type="button" onClick={() => void signOut()}>Sign out</button>
          </div>
        ) : state.status === 'loading' || state.status === 'checking' || state.status === 'offline' ? null : bridge && state.signedOut ? (
          <div className="toolbar">
            <span>You signed out.</span>
            <button type="button" className="primary" onClick={() => void connection.getState().signInAgain()}>Sign in</button>
          </div>
        ) : (
          <>
            {state.signedOut && <StatusMessage>You signed out. To sign in again, paste the two lines <code>clindoc credentials</code> prints, or open the sign-in link a new start of <code>npm run serve</code> prints.</StatusMessage>}
            <ConnectionForm />
          </>
        ))}
        {signOutError && <ErrorMessage onDismiss={clearSignOutError}>{signOutError}</ErrorMessage>}
      </section>
      <ClinicServerPanel />
      <section aria-labelledby="prefs-title">
        <h3 id="prefs-title">Preferences</h3>
        <div className="grid">
          <label>
            Default language
            <select value={language} onChange={(e) => {
              const l = e.target.value as NoteLanguage;
              prefs.getState().update({ language: l });
              notes.getState().set({ language: l });
              if (dictation.getState().status === 'idle') dictation.getState().setLanguage(l);
            }}>
              <LanguageOptions />
            </select>
          </label>
          <label className="check">
            <input type="checkbox" checked={formatting} onChange={(e) => { prefs.getState().update({ formatting: e.target.checked }); dictation.getState().setFormatting(e.target.checked); }} />
            Dictation formatting on by default
          </label>
        </div>
      </section>
      <DictationPrefs />
      <EnginesPanel />
      {state.status === 'ready' && (
        <section aria-labelledby="voice-title" id="voice">
          <h3 id="voice-title">Learn my voice</h3>
          <p className="hint">Optional. Only the embedded recogniser (PocketSphinx) learns your voice; a downloaded model or a transcription server is not changed.</p>
          <VoiceEnrollment />
        </section>
      )}
      <DataPanel />
      <CodeEditionsPanel />
      {/* What only integrations need, out of the physician's way. */}
      <details className="advanced">
        <summary>Advanced: integrations (API address, key, webhooks)</summary>
        {state.status === 'ready' && state.connection ? (
          <section aria-labelledby="integration-title">
            <h3 id="integration-title">Integrations</h3>
            <p className="hint">Integrations on this computer call the same API with these details (reference at <a href="/docs">/docs</a>).</p>
            <CopyField label="API base URL" value={base} />
            <CopyField label="Port" value={port} />
            <CopyField label="Account id (X-ACCOUNT-ID)" value={state.connection.accountId} />
            {clinic ? (
              <p>API key (X-API-KEY): <code>{clinic.keyHint}</code> (the clinic server's key is not shown again once saved)</p>
            ) : (
              <CopyField label="API key (X-API-KEY)" value={state.connection.apiKey} secret />
            )}
          </section>
        ) : (
          <p className="hint">Connect first to see the API details.</p>
        )}
        <WebhooksPanel />
      </details>
    </Page>
  );
}
