import type { Bundle, Condition, DocumentReference, Patient } from '@medplum/fhirtypes';
import { buildDocumentReference, type NoteForExport } from './fhir-document-reference.js';

/** A code the physician accepted for the visit (the visit's `codes`). */
export interface AcceptedCode {
  system: string;
  code: string;
  display?: string;
}

/** The FHIR code system URI of ICD-10-CM (HL7 terminology). */
export const ICD10CM_SYSTEM = 'http://hl7.org/fhir/sid/icd-10-cm';

const CONDITION_CLINICAL = 'http://terminology.hl7.org/CodeSystem/condition-clinical';
const CONDITION_VERIFICATION = 'http://terminology.hl7.org/CodeSystem/condition-ver-status';
const CONDITION_CATEGORY = 'http://terminology.hl7.org/CodeSystem/condition-category';

const randomId = (): string => globalThis.crypto.randomUUID();

/**
 * The note and its accepted ICD-10-CM codes as one FHIR R4 `collection` Bundle: the Patient, the
 * DocumentReference and one `Condition` (active, confirmed, encounter-diagnosis) per code. A
 * Condition cannot point into another resource's `contained`, so the Patient becomes an entry of
 * its own and every subject references its `urn:uuid:` full URL. Codes of other systems (the
 * CPT E/M level) are not diagnoses and are left out. Without ICD-10-CM codes the export stays the
 * plain DocumentReference.
 */
export function buildNoteBundle(
  note: NoteForExport,
  codes: readonly AcceptedCode[],
  newId: () => string = randomId,
): Bundle | DocumentReference {
  const doc = buildDocumentReference(note);
  const diagnoses = codes.filter((c) => c.system === 'ICD-10-CM');
  if (diagnoses.length === 0) return doc;
  const contained = doc.contained?.find((r): r is Patient => r.resourceType === 'Patient');
  const { contained: _inline, ...rest } = doc;
  // The contained Patient's local id (`#patient`) means nothing outside its container.
  const { id: _localId, ...patient }: Patient = contained ?? { resourceType: 'Patient' };
  const patientUrl = `urn:uuid:${newId()}`;
  const subject = { reference: patientUrl, ...(note.patient?.name ? { display: note.patient.name } : {}) };
  const documentReference: DocumentReference = { ...rest, subject };
  const recorded = (note.created ?? new Date()).toISOString();
  const conditions: Condition[] = diagnoses.map((c) => ({
    resourceType: 'Condition',
    clinicalStatus: { coding: [{ system: CONDITION_CLINICAL, code: 'active', display: 'Active' }] },
    verificationStatus: { coding: [{ system: CONDITION_VERIFICATION, code: 'confirmed', display: 'Confirmed' }] },
    category: [{ coding: [{ system: CONDITION_CATEGORY, code: 'encounter-diagnosis', display: 'Encounter Diagnosis' }] }],
    code: { coding: [{ system: ICD10CM_SYSTEM, code: c.code, ...(c.display ? { display: c.display } : {}) }], ...(c.display ? { text: c.display } : {}) },
    subject,
    recordedDate: recorded,
  }));
  return {
    resourceType: 'Bundle',
    type: 'collection',
    timestamp: recorded,
    entry: [
      { fullUrl: patientUrl, resource: patient },
      { fullUrl: `urn:uuid:${newId()}`, resource: documentReference },
      ...conditions.map((resource) => ({ fullUrl: `urn:uuid:${newId()}`, resource })),
    ],
  };
}

/**
 * The accepted codes as a plain-text block for an EHR field: a `Codes` heading, then one code per
 * line, code then display (`E11.9 Type 2 diabetes mellitus without complications`). Empty when
 * nothing was accepted, so the copied note is unchanged.
 */
export function codesPlainText(codes: readonly AcceptedCode[]): string {
  if (codes.length === 0) return '';
  return `CODES\n${codes.map((c) => `${c.code}${c.display ? ` ${c.display}` : ''}`).join('\n')}\n`;
}

/** The note's plain text with the Codes block appended (after one blank line) when codes were accepted. */
export function withCodesBlock(plainText: string, codes: readonly AcceptedCode[]): string {
  const block = codesPlainText(codes);
  return block ? `${plainText.trimEnd()}\n\n${block}` : plainText;
}
