// @vitest-environment happy-dom
/**
 * Accepted codes leave the app with the note: the FHIR export becomes a Bundle of the Patient,
 * the DocumentReference and one Condition per ICD-10-CM code (valid against the official R4
 * schema, subjects consistent), and plain text ends with a Codes block, one code per line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { r4Validator } from '../support/fhir-r4.js';
import type { Bundle, Condition, DocumentReference, Patient } from '@medplum/fhirtypes';
import { buildNoteBundle, codesPlainText, withCodesBlock, ICD10CM_SYSTEM } from '../../shared/export/fhir-bundle.js';
import { markdownToPlainText } from '../../shared/export/markdown.js';
import { ExportPanel } from '../../renderer/components/export-panel.js';
import { createAppStores, StoresProvider } from '../../renderer/state/stores.js';

afterEach(cleanup);

const NOTE = '## Assessment\n- Type 2 diabetes mellitus with diabetic chronic kidney disease\n- Left knee osteoarthritis\n';
const CODES = [
  { system: 'ICD-10-CM', code: 'E11.22', display: 'Type 2 diabetes mellitus with diabetic chronic kidney disease' },
  { system: 'ICD-10-CM', code: 'M17.12', display: 'Unilateral primary osteoarthritis, left knee' },
  { system: 'CPT', code: '99214', display: 'Office E/M, established patient, level 4' },
];

const validate = r4Validator({ resourcesOnlyInBundles: true });

describe('FHIR export with accepted codes', () => {
  it('is a collection Bundle of Patient, DocumentReference and one Condition per ICD-10-CM code, valid R4', () => {
    const bundle = buildNoteBundle({ markdown: NOTE, noteId: 'note_1', patient: { name: 'Ana Test', dateOfBirth: '1980-02-03' }, encounterDate: '2026-11-20' }, CODES) as Bundle;
    expect(validate(bundle), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    const resources = bundle.entry!.map((e) => e.resource!);
    expect(resources.map((r) => r.resourceType)).toEqual(['Patient', 'DocumentReference', 'Condition', 'Condition']);
    const patientUrl = bundle.entry![0]!.fullUrl!;
    expect(patientUrl).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(resources[0] as Patient).toMatchObject({ name: [{ text: 'Ana Test' }], birthDate: '1980-02-03' });
    const doc = resources[1] as DocumentReference;
    expect(doc.contained).toBeUndefined();
    expect(doc.subject?.reference).toBe(patientUrl);
    expect(Buffer.from(doc.content[0]!.attachment.data!, 'base64').toString('utf8')).toBe(NOTE);
    const conditions = resources.slice(2) as Condition[];
    expect(conditions.map((c) => c.code?.coding?.[0])).toEqual([
      { system: ICD10CM_SYSTEM, code: 'E11.22', display: CODES[0]!.display },
      { system: ICD10CM_SYSTEM, code: 'M17.12', display: CODES[1]!.display },
    ]);
    for (const c of conditions) {
      expect(c.subject.reference).toBe(patientUrl);
      expect(c.clinicalStatus?.coding?.[0]?.code).toBe('active');
      expect(c.verificationStatus?.coding?.[0]?.code).toBe('confirmed');
      expect(c.category?.[0]?.coding?.[0]?.code).toBe('encounter-diagnosis');
    }
    expect(new Set(bundle.entry!.map((e) => e.fullUrl)).size).toBe(4);
  });

  it('gives the Conditions a Patient to point at even without patient details, and the schema catches a broken Condition', () => {
    const bundle = buildNoteBundle({ markdown: NOTE }, CODES.slice(0, 1)) as Bundle;
    expect(validate(bundle), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
    const [patient, doc, condition] = bundle.entry!;
    expect(patient!.resource).toEqual({ resourceType: 'Patient' });
    expect((doc!.resource as DocumentReference).subject?.reference).toBe(patient!.fullUrl);
    expect((condition!.resource as Condition).subject.reference).toBe(patient!.fullUrl);
    const broken = structuredClone(bundle);
    delete (broken.entry![2]!.resource as unknown as Record<string, unknown>).subject; // a Condition must name its subject
    expect(validate(broken)).toBe(false);
  });

  it('stays the plain DocumentReference when no diagnosis code was accepted', () => {
    expect(buildNoteBundle({ markdown: NOTE }, []).resourceType).toBe('DocumentReference');
    expect(buildNoteBundle({ markdown: NOTE }, CODES.slice(2)).resourceType).toBe('DocumentReference');
  });
});

describe('plain text with accepted codes', () => {
  it('appends a Codes block, one code and its title per line', () => {
    expect(codesPlainText(CODES.slice(0, 2))).toBe(
      'CODES\nE11.22 Type 2 diabetes mellitus with diabetic chronic kidney disease\nM17.12 Unilateral primary osteoarthritis, left knee\n',
    );
    const text = withCodesBlock(markdownToPlainText(NOTE), [{ system: 'ICD-10-CM', code: 'E11.9', display: 'Type 2 diabetes mellitus without complications' }]);
    expect(text.endsWith('\n\nCODES\nE11.9 Type 2 diabetes mellitus without complications\n')).toBe(true);
    expect(withCodesBlock('Note\n', [])).toBe('Note\n');
  });

  it('copies the note with its accepted codes from the Export panel', async () => {
    const storage = new Map<string, string>();
    const mem = { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v), removeItem: (k: string) => void storage.delete(k) };
    const app = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: mem, local: mem, clearHash: () => undefined }, local: mem });
    app.notes.setState({ markdown: NOTE });
    app.visits.setState({ codes: CODES.slice(0, 2) });
    render(<StoresProvider stores={app}><ExportPanel /></StoresProvider>);
    fireEvent.click(screen.getByRole('button', { name: 'Copy to clipboard' }));
    await screen.findByText('Copy done.');
    await waitFor(async () => expect((await navigator.clipboard.readText()).split('\n').slice(-4)).toEqual([
      'CODES', 'E11.22 Type 2 diabetes mellitus with diabetic chronic kidney disease', 'M17.12 Unilateral primary osteoarthritis, left knee', '',
    ]));
  });
});
