import type { DocumentReference, Patient } from '@medplum/fhirtypes';

export interface NoteForExport {
  markdown: string;
  /** Id of the note in the local API; becomes the DocumentReference identifier. */
  noteId?: string;
  title?: string;
  language?: string;
  patient?: { name?: string; dateOfBirth?: string };
  /** Encounter date, YYYY-MM-DD or YYYY-MM-DDTHH:mm:ssZ. */
  encounterDate?: string;
  /** When the document was made; default now. */
  created?: Date;
}

/** UTF-8 text to base64 in both Node and browsers (no Buffer in the renderer). */
export function utf8ToBase64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

const LOINC_CLINICAL_NOTE = { system: 'http://loinc.org', code: '11506-3', display: 'Progress note' };

/**
 * An HL7 FHIR R4 DocumentReference for a finished note: the markdown as a base64 attachment,
 * the patient (as a contained Patient) and the encounter date when known. Typed with Medplum's
 * maintained R4 definitions; tests validate it against the official R4 JSON schema.
 */
export function buildDocumentReference(note: NoteForExport): DocumentReference {
  const created = (note.created ?? new Date()).toISOString();
  const bytes = new TextEncoder().encode(note.markdown).length;
  const patient: Patient | undefined =
    note.patient && (note.patient.name || note.patient.dateOfBirth)
      ? {
          resourceType: 'Patient',
          id: 'patient',
          ...(note.patient.name ? { name: [{ text: note.patient.name }] } : {}),
          ...(note.patient.dateOfBirth ? { birthDate: note.patient.dateOfBirth } : {}),
        }
      : undefined;
  const period = note.encounterDate ? { start: note.encounterDate } : undefined;
  return {
    resourceType: 'DocumentReference',
    ...(patient ? { contained: [patient] } : {}),
    ...(note.noteId ? { identifier: [{ system: 'urn:clindoc:note', value: note.noteId }] } : {}),
    status: 'current',
    docStatus: 'final',
    type: { coding: [LOINC_CLINICAL_NOTE], text: note.title ?? 'Clinical note' },
    category: [{ coding: [{ system: 'http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category', code: 'clinical-note', display: 'Clinical Note' }] }],
    ...(patient ? { subject: { reference: '#patient', ...(note.patient?.name ? { display: note.patient.name } : {}) } } : {}),
    date: created,
    description: note.title ?? 'Clinical note',
    content: [
      {
        attachment: {
          contentType: 'text/markdown; charset=utf-8',
          ...(note.language ? { language: note.language } : {}),
          data: utf8ToBase64(note.markdown),
          size: bytes,
          title: `${note.title ?? 'Clinical note'}.md`,
          creation: created,
        },
        format: { system: 'urn:ietf:bcp:13', code: 'text/markdown', display: 'Markdown' },
      },
    ],
    ...(period ? { context: { period } } : {}),
  };
}
