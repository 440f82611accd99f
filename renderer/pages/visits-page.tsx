import { useEffect, useRef, useState } from 'react';
import type { VisitSummary } from '../../shared/api/visits.js';
import { EmptyState, ErrorMessage, StatusMessage } from '../components/messages.js';
import { showDay } from '../components/visit-header.js';
import { useConnection, useStores, useVisits } from '../state/stores.js';
import { Page } from '../components/page.js';

const sameDay = (a: Date, b: Date): boolean => a.getFullYear() === b.getFullYear() && a.getMonth() === b.getMonth() && a.getDate() === b.getDate();
const time = (ms: number): string => new Date(ms).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
const day = (ms: number): string => new Date(ms).toLocaleDateString(undefined, { dateStyle: 'medium' });
const who = (v: VisitSummary): string => v.patient.name?.trim() || 'No patient name';
const when = (ms: number, now: Date): string => (sameDay(new Date(ms), now) ? `today ${time(ms)}` : `${day(ms)}, ${time(ms)}`);

/** Where the visit's newest note stands, in words, with its date. */
function noteState(v: VisitSummary, now: Date): { text: string; kind: string } {
  const n = v.latestNote;
  if (!n) return v.notes > 0 ? { text: 'Note deleted', kind: 'none' } : { text: 'No note yet', kind: 'none' };
  const also = v.signedNotes > 0 && n.status !== 'signed' && n.status !== 'amended' ? ' (a signed note too)' : '';
  switch (n.status) {
    case 'signed': return { text: `Signed ${when(n.at, now)}`, kind: 'signed' };
    case 'amended': return { text: `Signed, amended ${when(n.at, now)}`, kind: 'signed' };
    case 'draft': return { text: `Draft note ${when(n.at, now)}${also}`, kind: 'draft' };
    case 'pending': return { text: `Note being written${also}`, kind: 'draft' };
    default: return { text: `Note failed${also}`, kind: 'failed' };
  }
}

/** The physician's visits: today's first, with patient, date of birth and note status; search by patient, words or date of birth; reopen, delete with confirmation. */
export function VisitsPage({ onOpened }: { onOpened(): void }) {
  const { visits } = useStores();
  const ready = useConnection((s) => s.status === 'ready');
  const offline = useConnection((s) => s.status === 'offline');
  const items = useVisits((s) => s.items);
  const currentId = useVisits((s) => s.currentId);
  const listing = useVisits((s) => s.listing);
  const listError = useVisits((s) => s.listError);
  const nextCursor = useVisits((s) => s.nextCursor);
  const [query, setQuery] = useState(visits.getState().query);
  const [born, setBorn] = useState(visits.getState().dateOfBirth);
  const filtered = useVisits((s) => Boolean(s.query || s.dateOfBirth));
  const [confirming, setConfirming] = useState<string>();
  const [message, setMessage] = useState<string>();
  const confirmButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (ready) void visits.getState().search(visits.getState().query);
  }, [visits, ready, currentId]);
  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  if (!ready) {
    return (
      <section className="page"><h2>Visits</h2>
        {offline ? <StatusMessage>The visits are listed again as soon as the server answers.</StatusMessage> : <ErrorMessage>Connect to the local API in Settings first.</ErrorMessage>}
      </section>
    );
  }

  const now = new Date();
  const today = items.filter((v) => sameDay(new Date(v.createdAt), now));
  const earlier = items.filter((v) => !sameDay(new Date(v.createdAt), now));
  const open = async (id: string): Promise<void> => {
    await visits.getState().open(id);
    onOpened();
  };
  const remove = async (v: VisitSummary): Promise<void> => {
    await visits.getState().remove(v.id);
    setConfirming(undefined);
    setMessage(`Deleted the visit of ${who(v)}.`);
  };
  const row = (v: VisitSummary) => {
    const state = noteState(v, now);
    return (
      <li key={v.id} className={v.id === currentId ? 'visit current' : 'visit'}>
        <div className="visit-head">
          <strong>{who(v)}</strong>
          <span data-testid="visit-born">{v.patient.dateOfBirth ? `born ${showDay(v.patient.dateOfBirth)}` : 'date of birth not given'}</span>
          <span className={`note-state ${state.kind}`} data-testid="visit-note-state">{state.text}</span>
        </div>
        <div className="hint">
          <span>
            {v.encounterDate ? `Visit of ${showDay(v.encounterDate)}` : 'No encounter date'}
            {' · started '}{sameDay(new Date(v.createdAt), now) ? time(v.createdAt) : `${day(v.createdAt)}, ${time(v.createdAt)}`}
            {v.notes > 0 && ` · ${v.notes} note${v.notes === 1 ? '' : 's'}`}
            {v.recordings > 0 && ` · ${v.recordings} recording${v.recordings === 1 ? '' : 's'}`}
            {v.id === currentId && ' · open now'}
          </span>
        </div>
        {v.preview && <p className="preview">{v.preview}</p>}
        {confirming === v.id ? (
          <div className="confirm" role="alertdialog" aria-labelledby={`confirm-${v.id}`}>
            <p id={`confirm-${v.id}`}>Delete the visit of {who(v)}? Its dictation and transcript are deleted; its notes and recordings are kept.</p>
            <div className="toolbar">
              <button ref={confirmButton} type="button" className="danger" onClick={() => void remove(v)}>Delete visit</button>
              <button type="button" onClick={() => setConfirming(undefined)}>Cancel</button>
            </div>
          </div>
        ) : (
          <div className="toolbar">
            <button type="button" onClick={() => void open(v.id)} aria-label={`Open the visit of ${who(v)}`}>Open</button>
            <button type="button" className="link" onClick={() => setConfirming(v.id)} aria-label={`Delete the visit of ${who(v)}`}>Delete</button>
          </div>
        )}
      </li>
    );
  };
  return (
    <Page id="visits" title="Visits">
      <div className="toolbar">
        <button type="button" className="primary" onClick={() => void visits.getState().startNew().then(onOpened)}>New visit</button>
        <span className="hint">Everything you dictate or type is saved into the open visit as you go.</span>
      </div>
      <form role="search" className="toolbar" onSubmit={(e) => { e.preventDefault(); void visits.getState().search(query, born); }}>
        <label>
          Search visits
          <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} placeholder="Patient name or words said" />
        </label>
        <label>
          Date of birth
          <input type="date" value={born} onChange={(e) => setBorn(e.target.value)} />
        </label>
        <button type="submit">Search</button>
        {filtered && <button type="button" onClick={() => { setQuery(''); setBorn(''); void visits.getState().search('', ''); }}>Show all</button>}
      </form>
      {message && <StatusMessage>{message}</StatusMessage>}
      {listError && <ErrorMessage>{listError}</ErrorMessage>}
      {listing === 'loading' && items.length === 0 ? <p role="status">Loading visits…</p> : items.length === 0 ? (
        <EmptyState title={filtered ? 'No visit matches.' : 'No visits yet.'}>
          {filtered ? 'Try the patient’s last name, a word from the dictation, or check the date of birth.' : 'Start dictating: the visit is saved as you go.'}
        </EmptyState>
      ) : (
        <>
          {today.length > 0 && (
            <section aria-labelledby="visits-today">
              <h3 id="visits-today">Today</h3>
              <ul className="visits">{today.map(row)}</ul>
            </section>
          )}
          {earlier.length > 0 && (
            <section aria-labelledby="visits-earlier">
              <h3 id="visits-earlier">Earlier</h3>
              <ul className="visits">{earlier.map(row)}</ul>
            </section>
          )}
          {nextCursor && <button type="button" onClick={() => void visits.getState().more()} disabled={listing === 'loading'}>Show more visits</button>}
        </>
      )}
    </Page>
  );
}
