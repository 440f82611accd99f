// @vitest-environment happy-dom
/**
 * "Copy as plain text keeps one item per line": what a physician pastes into an EHR field must
 * keep the note's header items (patient, birth date, service date) and list items on lines of
 * their own, for notes as both note writers write them.
 */
import { describe, it, expect, afterEach } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { createEmbeddedNoteWriter } from '../../main/engines/text/embedded/index.js';
import { markdownToPlainText } from '../../shared/export/markdown.js';
import { ExportPanel } from '../../renderer/components/export-panel.js';
import { createAppStores, StoresProvider } from '../../renderer/state/stores.js';
import { ENCOUNTER } from '../notes/fixtures.js';

afterEach(cleanup);

/** The header exactly as the language-model renderer writes it (markdown hard breaks). */
const LLM_NOTE = '**Patient:** Ana Garcia  \n**Date of birth:** 1970-02-03  \n**Date of service:** 2024-05-06\n\n## Plan\n- Rest\n- Fluids, 2 L/day\n1. Paracetamol 1 g\n';

describe('plain text keeps one item per line', () => {
  it('puts each header item of an embedded-writer note on its own line, without markup', async () => {
    const { markdown } = await createEmbeddedNoteWriter().write({
      transcript: ENCOUNTER,
      noteType: { type: 'soap' },
      language: 'en',
      patientInfo: { name: 'Ana Garcia', dateOfBirth: '1970-02-03' },
      date: '2024-05-06T10:00:00Z',
    });
    const lines = markdownToPlainText(markdown).split('\n');
    const at = lines.findIndex((l) => l.startsWith('Patient:'));
    expect(lines.slice(at, at + 3)).toEqual(['Patient: Ana Garcia', 'Date of birth: 1970-02-03', 'Date: 2024-05-06']);
    expect(lines).not.toContainEqual(expect.stringMatching(/\*\*/));
  });

  it('keeps the language-model header lines and every list item apart', () => {
    expect(markdownToPlainText(LLM_NOTE)).toBe(
      'Patient: Ana Garcia\nDate of birth: 1970-02-03\nDate of service: 2024-05-06\n\nPLAN\n\n- Rest\n- Fluids, 2 L/day\n\n1. Paracetamol 1 g\n',
    );
  });

  it('still joins a list item continued on an indented line into one item', () => {
    expect(markdownToPlainText('- Amoxicillin 500 mg\n  three times a day\n- Rest\n')).toBe('- Amoxicillin 500 mg three times a day\n- Rest\n');
  });

  it('copies the note from the Export panel with one item per line', async () => {
    const storage = new Map<string, string>();
    const mem = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) };
    const app = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: mem, local: mem, clearHash: () => undefined }, local: mem });
    app.notes.setState({ markdown: LLM_NOTE });
    render(<StoresProvider stores={app}><ExportPanel /></StoresProvider>);
    fireEvent.click(screen.getByRole('button', { name: 'Copy to clipboard' }));
    await screen.findByText('Copy done.');
    // The copy starts with its attestation header (export-attestation.test.ts), then the note's own lines, one item each.
    await waitFor(async () => {
      const lines = (await navigator.clipboard.readText()).split('\n');
      const at = lines.indexOf('Patient: Ana Garcia');
      expect(lines.slice(at, at + 3)).toEqual(['Patient: Ana Garcia', 'Date of birth: 1970-02-03', 'Date of service: 2024-05-06']);
    });
  });
});
