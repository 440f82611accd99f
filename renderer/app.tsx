import { useEffect, useRef, useState } from 'react';
import { serverLabel } from './api/clinic-server.js';
import { ErrorMessage, StatusMessage } from './components/messages.js';
import { ShortcutsSheet, typingIn, type ShortcutsSheetHandle } from './components/shortcuts-sheet.js';
import { DictationPage } from './pages/dictation-page.js';
import { MacrosPage } from './pages/macros-page.js';
import { NotesPage } from './pages/notes-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { TemplatesPage } from './pages/templates-page.js';
import { VisitsPage } from './pages/visits-page.js';
import { VisitHeader } from './components/visit-header.js';
import { useConnection, useDictation, useStores, useVisits } from './state/stores.js';
import { dictationUnsureShare } from './state/unsure-share.js';
import { mostlyUnsure } from '../shared/dictation/unsure-share.js';
import { useSignOut } from './components/use-sign-out.js';

export type PageId = 'dictation' | 'notes' | 'visits' | 'macros' | 'templates' | 'settings';

const PAGES: { id: PageId; label: string }[] = [
  { id: 'dictation', label: 'Dictation' },
  { id: 'notes', label: 'Note' },
  { id: 'visits', label: 'Visits' },
  { id: 'macros', label: 'Macros' },
  { id: 'templates', label: 'Templates' },
  { id: 'settings', label: 'Settings' },
];

const SAVE_TEXT: Record<string, string> = { idle: '', pending: 'Saving…', saving: 'Saving…', saved: 'Saved', conflict: 'Not saved: changed elsewhere', error: 'Not saved' };

/** The app shell: header, navigation, connection state and the global dictation shortcut. */
export function App() {
  const { connection, dictation, notes, visits } = useStores();
  const saveStatus = useVisits((s) => s.save);
  const saveError = useVisits((s) => s.saveError);
  const status = useConnection((s) => s.status);
  const message = useConnection((s) => s.message);
  const clinic = useConnection((s) => s.clinic);
  const { signOut, error: signOutError, clearError: clearSignOutError } = useSignOut();
  const listening = useDictation((s) => s.status !== 'idle');
  const [page, setPage] = useState<PageId>('dictation');
  const main = useRef<HTMLElement>(null);

  useEffect(() => {
    void connection.getState().load();
  }, [connection]);
  // A server that stops answering turns the header red within seconds; one that answers again clears it.
  useEffect(() => connection.getState().watch(), [connection]);
  useEffect(() => {
    // What waits for the autosave delay is saved at once when the page is hidden or closed.
    const flush = (): void => void visits.getState().flush({ keepalive: true });
    const onVisibility = (): void => {
      if (document.visibilityState === 'hidden') flush();
    };
    document.addEventListener('visibilitychange', onVisibility);
    window.addEventListener('pagehide', flush);
    return () => {
      document.removeEventListener('visibilitychange', onVisibility);
      window.removeEventListener('pagehide', flush);
    };
  }, [visits]);
  // Without working credentials the app waits on Settings; once connected it opens on Dictation.
  const sentToSettings = useRef(false);
  useEffect(() => {
    if (status === 'missing' || status === 'rejected') {
      sentToSettings.current = true;
      setPage('settings');
    } else if (status === 'ready' && sentToSettings.current) {
      sentToSettings.current = false;
      setPage('dictation');
    }
  }, [status]);
  useEffect(() => {
    // Ctrl+Shift+Space starts or stops dictation from anywhere in the app.
    const onKey = (e: KeyboardEvent): void => {
      if (e.code === 'Space' && e.shiftKey && (e.ctrlKey || e.metaKey)) {
        e.preventDefault();
        void dictation.getState().toggle();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dictation]);

  const go = (id: PageId): void => {
    setPage(id);
    main.current?.focus();
  };

  // Ctrl+Enter writes the note (on Dictation from the dictated text); "?" opens the shortcuts sheet.
  const sheet = useRef<ShortcutsSheetHandle>(null);
  const keyboardGenerate = useRef<() => Promise<void>>(async () => undefined);
  keyboardGenerate.current = async () => {
    if (page === 'dictation') {
      if (dictation.getState().status !== 'idle') await dictation.getState().stop();
      const text = dictation.getState().text();
      if (!text.trim()) return;
      const share = dictationUnsureShare(dictation.getState().doc);
      notes.getState().set({ transcript: text, transcriptUnsureShare: share });
      go('notes');
      // Mostly unsure words: the physician reads the warning beside Generate first; Ctrl+Enter again writes the note.
      if (mostlyUnsure(share)) return;
    } else if (page !== 'notes') return;
    const busy = ['submitting', 'STATUS_PENDING', 'STATUS_PROCESSING'].includes(notes.getState().status);
    if (!busy) await notes.getState().generate();
  };
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key === 'Enter' && (e.ctrlKey || e.metaKey) && !e.shiftKey && !e.altKey) {
        e.preventDefault();
        void keyboardGenerate.current();
      } else if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !typingIn(e.target)) {
        e.preventDefault();
        sheet.current?.open();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="app">
      <a className="skip" href="#main">Skip to content</a>
      <header className="top">
        <h1>Clindoc</h1>
        <nav aria-label="Main">
          <ul>
            {PAGES.map((p) => (
              <li key={p.id}>
                <button type="button" className="nav" aria-current={page === p.id ? 'page' : undefined} onClick={() => go(p.id)}>
                  {p.label}
                  {p.id === 'dictation' && listening && <span className="dot" aria-label="(listening)" />}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        {/* Where notes go is always in sight: this computer, or the clinic server by name. */}
        <span className={`conn ${status}${clinic ? ' clinic' : ''}`} role="status" title={clinic ? `Notes go to ${clinic.baseUrl}` : 'Notes stay on this computer'}>
          {status === 'ready' ? (clinic ? `Clinic server ${serverLabel(clinic.baseUrl)}` : 'Local API connected')
            : status === 'loading' || status === 'checking' ? 'Connecting…' : status === 'missing' ? 'Not connected'
            : clinic ? `Clinic server ${serverLabel(clinic.baseUrl)}: connection problem` : 'Connection problem'}
        </span>
        <span className={`autosave ${saveStatus}`} role="status" data-testid="autosave">{SAVE_TEXT[saveStatus]}</span>
        {/* Signing out is always one press away (issue 27 point 7), not only in Settings. */}
        {status === 'ready' && !clinic && <button type="button" className="link sign-out" onClick={() => void signOut()}>Sign out</button>}
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        {signOutError && <ErrorMessage onDismiss={clearSignOutError}>{signOutError}</ErrorMessage>}
        {status === 'offline' && <ErrorMessage>{message ?? (clinic ? 'The clinic server cannot be reached.' : 'The local API cannot be reached.')} <button type="button" className="link" onClick={() => void connection.getState().load()}>Retry</button></ErrorMessage>}
        {status === 'loading' && <StatusMessage>{clinic ? 'Connecting to the clinic server…' : 'Connecting to the local API…'}</StatusMessage>}
        {(saveStatus === 'conflict' || saveStatus === 'error') && saveError && (
          <ErrorMessage>
            {saveError}{' '}
            {saveStatus === 'conflict' && (
              <>
                <button type="button" className="link" onClick={() => void visits.getState().keepTheirs()}>Show the other window’s version</button>{' '}
                <button type="button" className="link" onClick={() => void visits.getState().keepMine()}>Keep this window’s version</button>
              </>
            )}
          </ErrorMessage>
        )}
        {/* Who the visit is with, above every page of the visit; a new visit asks first. */}
        {(page === 'dictation' || page === 'notes') && (status === 'ready' || status === 'offline') && <VisitHeader canAsk={page === 'dictation'} />}
        {page === 'dictation' && (
          <DictationPage onUseAsTranscript={() => { notes.getState().set({ transcript: dictation.getState().text(), transcriptUnsureShare: dictationUnsureShare(dictation.getState().doc) }); go('notes'); }} />
        )}
        {page === 'notes' && <NotesPage />}
        {page === 'visits' && <VisitsPage onOpened={() => go('dictation')} />}
        {page === 'macros' && <MacrosPage />}
        {page === 'templates' && <TemplatesPage />}
        {page === 'settings' && <SettingsPage />}
      </main>
      <ShortcutsSheet ref={sheet} />
    </div>
  );
}
