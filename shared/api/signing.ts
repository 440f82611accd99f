import { Type, type Static } from '@sinclair/typebox';

/**
 * Wire schemas of draft, sign and amend (`PUT /v1/notes/{noteId}`, `POST /v1/notes/{noteId}/sign`,
 * `POST /v1/notes/{noteId}/addenda`): extensions of the contract's note, recorded in OpenAPI.
 */

export const SIGNATURE_STATUSES = ['draft', 'signed', 'amended'] as const;

export const SignatureView = Type.Object(
  {
    status: Type.Unsafe<(typeof SIGNATURE_STATUSES)[number]>({
      type: 'string', enum: [...SIGNATURE_STATUSES],
      description: '`draft` until signed (editable; FHIR docStatus `preliminary`); `signed` (read-only; `final`); `amended` once an addendum was added (`amended`).',
    }),
    signedBy: Type.Optional(Type.String({ description: 'The name the note was signed with.' })),
    signedAt: Type.Optional(Type.Integer({ description: 'Milliseconds since the Unix epoch.' })),
  },
  { description: 'Where the note stands as a document. Signing and each addendum are also in the audit trail with the signer and time.' },
);
export type SignatureView = Static<typeof SignatureView>;

export const AddendumView = Type.Object({
  id: Type.String(),
  text: Type.String(),
  author: Type.String({ description: 'Who wrote and signed the addendum.' }),
  createdAt: Type.Integer({ description: 'Milliseconds since the Unix epoch.' }),
});
export type AddendumView = Static<typeof AddendumView>;

export const NoteEditBody = Type.Object({
  markdown: Type.String({ minLength: 1, maxLength: 200_000, description: 'The edited note (markdown). Replaces the draft; the version goes up by one.' }),
});
export type NoteEditBody = Static<typeof NoteEditBody>;

export const SignBody = Type.Object({
  signer: Type.String({ minLength: 1, maxLength: 200, description: 'The signing clinician\'s name, as it should appear on the note.' }),
});
export type SignBody = Static<typeof SignBody>;

export const AddendumBody = Type.Object({
  text: Type.String({ minLength: 1, maxLength: 50_000, description: 'The addendum (markdown).' }),
  author: Type.String({ minLength: 1, maxLength: 200, description: 'Who writes and signs the addendum.' }),
});
export type AddendumBody = Static<typeof AddendumBody>;

/** `If-Match` of the change operations: the version from the ETag of the last read. */
export const IfMatchHeader = {
  name: 'If-Match', in: 'header', required: true, schema: { type: 'string' },
  description: 'The note\'s current version, as the ETag of the last read gives it (e.g. `"3"`). A stale version is a 412; a missing one a 428.',
} as const;
