import { useState } from 'react';
import { attestedMarkdown, attestedPdfMarkdown, attestedPlainText, pdfFrame, type AttestedNote } from '../../shared/export/attestation.js';
import { buildNoteBundle } from '../../shared/export/fhir-bundle.js';
import { saveFile } from '../save-file.js';
import { useStore } from 'zustand';
import { useFields, usePrefs, useStores } from '../state/stores.js';
import { ErrorMessage, StatusMessage } from './messages.js';

const stamp = (): string => new Date().toISOString().slice(0, 10);

/**
 * Export of the (edited) note: markdown, plain text, PDF, clipboard and FHIR R4 DocumentReference.
 * The human-readable ones attest (`shared/export/attestation.ts`): patient, encounter, author,
 * PRELIMINARY or the electronic signature, addenda each signed, accepted codes, local times.
 */
export function ExportPanel() {
  const { bridge, visits, notes } = useStores();
  // Codes the physician accepted travel with the note: Conditions in FHIR, a Codes block in text.
  const codes = useStore(visits, (v) => v.codes);
  const { markdown, noteId, language, patientName, dateOfBirth, date, signature, addenda } =
    useFields(notes, 'markdown', 'noteId', 'language', 'patientName', 'dateOfBirth', 'date', 'signature', 'addenda');
  const signerName = usePrefs((p) => p.signerName);
  // What leaves the app is the document: the note, its status or signature, addenda, codes.
  const attested: AttestedNote = {
    markdown, signature, addenda, codes, author: signerName,
    patient: { ...(patientName ? { name: patientName } : {}), ...(dateOfBirth ? { dateOfBirth } : {}) },
    ...(date ? { encounterDate: date } : {}),
  };
  const [message, setMessage] = useState<string>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const base = `clinical-note-${date || stamp()}`;

  const run = async (label: string, work: () => Promise<boolean>): Promise<void> => {
    setBusy(true);
    setError(undefined);
    setMessage(undefined);
    try {
      if (await work()) setMessage(`${label} done.`);
    } catch (err) {
      setError(`${label} failed: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };
  const disabled = !markdown.trim() || busy;
  // Each way out of the app: its button, the words for its outcome, and what it writes.
  const exports: { button: string; label: string; make(): Promise<boolean> }[] = [
    { button: 'Export Markdown', label: 'Markdown export', make: () => saveFile(bridge, `${base}.md`, attestedMarkdown(attested), 'text/markdown') },
    { button: 'Export plain text', label: 'Text export', make: () => saveFile(bridge, `${base}.txt`, attestedPlainText(attested), 'text/plain') },
    {
      button: 'Export PDF', label: 'PDF export',
      make: async () => {
        const { noteToPdf } = await import('../../shared/export/pdf.js');
        return saveFile(bridge, `${base}.pdf`, await noteToPdf(attestedPdfMarkdown(attested), 'Clinical note', pdfFrame(attested)), 'application/pdf');
      },
    },
    {
      button: 'Export FHIR DocumentReference', label: 'FHIR export',
      make: () => {
        const doc = buildNoteBundle({
          markdown, title: 'Clinical note', language, signature, addenda,
          ...(noteId ? { noteId } : {}),
          ...(patientName || dateOfBirth ? { patient: { ...(patientName ? { name: patientName } : {}), ...(dateOfBirth ? { dateOfBirth } : {}) } } : {}),
          ...(date ? { encounterDate: date } : {}),
        }, codes);
        return saveFile(bridge, `${base}.fhir.json`, JSON.stringify(doc, null, 2), 'application/fhir+json');
      },
    },
    {
      button: 'Copy to clipboard', label: 'Copy',
      make: async () => {
        await navigator.clipboard.writeText(attestedPlainText(attested));
        return true;
      },
    },
  ];
  return (
    <section className="export" aria-labelledby="export-title">
      <h3 id="export-title">Export</h3>
      <div className="toolbar">
        {exports.map((x) => (
          <button key={x.button} type="button" disabled={disabled} onClick={() => void run(x.label, x.make)}>{x.button}</button>
        ))}
      </div>
      {message && <StatusMessage>{message}</StatusMessage>}
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </section>
  );
}
