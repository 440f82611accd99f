import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useNotes, useStores, useVisits } from '../state/stores.js';

/** Today as the date input writes it (YYYY-MM-DD, the physician's local day). */
export function localDay(d = new Date()): string {
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** "14 Mar 1956" from "1956-03-14", read as a calendar day (no time zone shift). */
export function showDay(ymd: string): string {
  const [y, m, d] = ymd.split('-').map(Number);
  return new Date(y!, m! - 1, d!).toLocaleDateString(undefined, { dateStyle: 'medium' });
}

/** Whole years between a date of birth and a day (both YYYY-MM-DD). */
export function ageOn(dateOfBirth: string, day: string): number | undefined {
  const [by, bm, bd] = dateOfBirth.split('-').map(Number);
  const [y, m, d] = day.split('-').map(Number);
  if (!by || !y) return undefined;
  const age = y - by - (m! < bm! || (m === bm && d! < bd!) ? 1 : 0);
  return age >= 0 && age < 150 ? age : undefined;
}

/** The patient form: name, date of birth, encounter date (today unless changed). */
function PatientForm({ onDone, first }: { onDone(): void; first: boolean }) {
  const { visits, notes } = useStores();
  const n = notes.getState();
  const [name, setName] = useState(n.patientName);
  const [dateOfBirth, setDateOfBirth] = useState(n.dateOfBirth);
  const [encounterDate, setEncounterDate] = useState(n.date || localDay());
  const nameInput = useRef<HTMLInputElement>(null);
  // Opened by Edit patient: the name takes the focus. A new visit's form waits for the physician.
  useEffect(() => {
    if (!first) nameInput.current?.focus();
  }, [first]);
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    visits.getState().setPatient({ name, dateOfBirth, encounterDate });
    onDone();
  };
  return (
    <form className="patient-form" onSubmit={submit} aria-labelledby="patient-form-title">
      <h2 id="patient-form-title">{first ? 'New visit: who is the patient?' : 'Patient of this visit'}</h2>
      <div className="grid">
        <label>
          Patient name
          <input ref={nameInput} value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" maxLength={300} />
        </label>
        <label>
          Date of birth
          <input type="date" value={dateOfBirth} max={localDay()} onChange={(e) => setDateOfBirth(e.target.value)} />
        </label>
        <label>
          Encounter date
          <input type="date" value={encounterDate} onChange={(e) => setEncounterDate(e.target.value)} />
        </label>
      </div>
      <div className="toolbar">
        <button type="submit" className="primary">{first ? 'Start visit' : 'Save patient'}</button>
        <button type="button" onClick={() => { if (first) visits.getState().skipPatient(); onDone(); }}>{first ? 'Skip for now' : 'Cancel'}</button>
        <span className="hint">Kept with this visit, on every page and in its notes and exports.</span>
      </div>
    </form>
  );
}

/**
 * The visit's patient, above every page of the visit (Dictation, Note): name, date of birth with
 * age, encounter date. A new visit asks for them first where it opens (Dictation; `canAsk`),
 * skippable; elsewhere the header offers "Add patient", and "Edit patient" changes them.
 */
export function VisitHeader({ canAsk = true }: { canAsk?: boolean }) {
  const ask = useVisits((s) => s.askPatient) && canAsk;
  const name = useNotes((s) => s.patientName);
  const dateOfBirth = useNotes((s) => s.dateOfBirth);
  const date = useNotes((s) => s.date);
  const [editing, setEditing] = useState(false);
  if (ask) return <PatientForm first onDone={() => undefined} />;
  if (editing) return <PatientForm first={false} onDone={() => setEditing(false)} />;
  const age = dateOfBirth ? ageOn(dateOfBirth, date || localDay()) : undefined;
  return (
    <div className="visit-header" role="group" aria-label="Patient of this visit">
      <strong data-testid="visit-patient">{name.trim() || 'No patient named'}</strong>
      {dateOfBirth && <span>born {showDay(dateOfBirth)}{age !== undefined ? ` (${age})` : ''}</span>}
      <span>{date ? `visit of ${showDay(date)}` : 'no encounter date'}</span>
      <button type="button" className="link" onClick={() => setEditing(true)}>{name.trim() || dateOfBirth ? 'Edit patient' : 'Add patient'}</button>
    </div>
  );
}
