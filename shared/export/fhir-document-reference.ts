import type { DocumentReference, Patient } from '@medplum/fhirtypes';
import { localTime, signatureLine } from './local-time.js';

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
  /**
   * Where the note stands: `draft` (default: not signed) exports as docStatus `preliminary`,
   * `signed` as `final`, `amended` (signed, then an addendum) as `amended`.
   */
  signature?: { status: 'draft' | 'signed' | 'amended'; signedBy?: string; signedAt?: number };
  /** Addenda of a signed note, oldest first; appended to the document's text. */
  addenda?: { text: string; author: string; createdAt: number }[];
}

const DOC_STATUS = { draft: 'preliminary', signed: 'final', amended: 'amended' } as const;

/**
 * The note as a document: its text, then each addendum under its own heading with its own
 * signature, in the physician's local time with the zone (`timeZone`: IANA, default the computer's).
 */
export function documentText(note: Pick<NoteForExport, 'markdown' | 'addenda'>, timeZone?: string): string {
  if (!note.addenda?.length) return note.markdown;
  const parts = note.addenda.map((a) =>
    `## Addendum, ${localTime(a.createdAt, timeZone)}\n\n${a.text.trim()}\n\n*Addendum ${signatureLine(a.author, a.createdAt, timeZone).replace(/^E/, 'e')}*\n`);
  return `${note.markdown.trimEnd()}\n\n${parts.join('\n')}`;
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
 * An HL7 FHIR R4 DocumentReference for a note: the markdown (with any addenda) as a base64
 * attachment, the patient (as a contained Patient) and the encounter date when known. An unsigned
 * note is `preliminary`, never `final`; the signer is the `authenticator`. Typed with Medplum's
 * maintained R4 definitions; tests validate it against the official R4 JSON schema.
 */
export function buildDocumentReference(note: NoteForExport): DocumentReference {
  const created = (note.created ?? new Date()).toISOString();
  const text = documentText(note);
  const bytes = new TextEncoder().encode(text).length;
  const signature = note.signature ?? { status: 'draft' };
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
    docStatus: DOC_STATUS[signature.status],
    ...(signature.status !== 'draft' && signature.signedBy ? { authenticator: { display: signature.signedBy } } : {}),
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
          data: utf8ToBase64(text),
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
