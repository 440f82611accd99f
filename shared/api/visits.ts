import { Type, type Static } from '@sinclair/typebox';

/**
 * Wire schemas of visits (`/v1/visits`, an extension recorded in OpenAPI): one patient encounter
 * with everything the physician dictated, recorded, typed and decided for it. The renderer
 * autosaves into a visit so a reload, a crash or a quit loses nothing.
 */

const DATE = '^(\\d{4}-\\d{2}-\\d{2})?$';

export const VisitPatient = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 300 })),
    dateOfBirth: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, or empty.' })),
  },
  { description: 'Who the visit is with. Patient data: encrypted at rest.' },
);

export const VisitDictation = Type.Object(
  {
    text: Type.String({ maxLength: 500_000, description: 'The dictated (and edited) text as shown.' }),
    pieces: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }), {
      maxItems: 20_000,
      description: 'The interface\'s editable form of the same text (macro marks and their undo, unsure words); opaque to the API.',
    })),
  },
  { description: 'Live dictation of the visit.' },
);

export const VisitNoteOptions = Type.Object(
  {
    kind: Type.Optional(Type.String({ maxLength: 40, description: 'soap, note_style or note_template.' })),
    language: Type.Optional(Type.String({ maxLength: 10 })),
    styleTemplate: Type.Optional(Type.String({ maxLength: 50_000 })),
    templateId: Type.Optional(Type.String({ maxLength: 200 })),
    medicationList: Type.Optional(Type.String({ maxLength: 20_000 })),
  },
  { description: 'How the note of this visit is to be written, as chosen in the interface.' },
);

/** Decision (issue 27): the share of unsure words travels with the transcript it describes. */
export const TranscriptUnsureShare = Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()], {
  description: 'Share of the transcript\'s words the recogniser was unsure of (0..1, from the live stream\'s word confidences or a transcription\'s), null when unknown '
    + '(typed or pasted text, or a visit saved before this field). Set by the client with the transcript it describes; a PATCH that changes `transcript` without it keeps the old share, '
    + 'so a client that replaces the transcript from another source sends null. From 0.3 the interface warns before a note is generated and sends it as POST /v1/notes `transcriptUnsureShare`.',
});

export const VisitRecording = Type.Object({
  transcriptionId: Type.String({ minLength: 1, maxLength: 200, description: 'A transcription of this account (`/v2/audio/transcriptions/{id}`).' }),
  name: Type.Optional(Type.String({ maxLength: 300 })),
  createdAt: Type.Optional(Type.Integer({ description: 'Milliseconds since the Unix epoch.' })),
});

export const VisitNoteRef = Type.Object({
  noteId: Type.String({ minLength: 1, maxLength: 200, description: 'A note of this account (`/v1/notes/{id}`).' }),
  version: Type.Integer({ minimum: 1, description: 'The note version the visit last saw (the note\'s ETag).' }),
});

export const VisitCode = Type.Object({
  system: Type.String({ minLength: 1, maxLength: 40, description: 'ICD-10-CM or CPT.' }),
  code: Type.String({ minLength: 1, maxLength: 20 }),
  display: Type.Optional(Type.String({ maxLength: 500 })),
});

const fields = {
  patient: Type.Optional(VisitPatient),
  encounterDate: Type.Optional(Type.String({ pattern: DATE, description: 'YYYY-MM-DD, or empty.' })),
  dictation: Type.Optional(VisitDictation),
  transcript: Type.Optional(Type.String({ maxLength: 500_000, description: 'The encounter transcript the note is written from.' })),
  transcriptUnsureShare: Type.Optional(TranscriptUnsureShare),
  noteOptions: Type.Optional(VisitNoteOptions),
  recordings: Type.Optional(Type.Array(VisitRecording, { maxItems: 200, description: 'Recordings of the encounter and their transcriptions.' })),
  notes: Type.Optional(Type.Array(VisitNoteRef, { maxItems: 200, description: 'Notes written for the visit, newest last.' })),
  codes: Type.Optional(Type.Array(VisitCode, { maxItems: 200, description: 'Codes the physician accepted.' })),
  rejectedCodes: Type.Optional(Type.Array(VisitCode, {
    maxItems: 500,
    description: 'Suggested codes the physician rejected, so a reload or another window does not offer them as undecided again. Not part of any export.',
  })),
};

export const VisitBody = Type.Object(fields, {
  description: 'Create: every field optional. Patch: each field sent replaces that field whole; fields not sent are kept.',
});
export type VisitBody = Static<typeof VisitBody>;

export const VisitView = Type.Object(
  {
    id: Type.String(),
    version: Type.Integer({ minimum: 1, description: 'Goes up with every change; also the ETag. Send it as If-Match to PATCH.' }),
    createdAt: Type.Integer({ description: 'Milliseconds since the Unix epoch.' }),
    updatedAt: Type.Integer({ description: 'Milliseconds since the Unix epoch.' }),
    patient: VisitPatient,
    encounterDate: Type.String(),
    dictation: VisitDictation,
    transcript: Type.String(),
    transcriptUnsureShare: TranscriptUnsureShare,
    noteOptions: VisitNoteOptions,
    recordings: Type.Array(VisitRecording),
    notes: Type.Array(VisitNoteRef),
    codes: Type.Array(VisitCode),
    rejectedCodes: Type.Array(VisitCode, { description: 'Empty for visits saved before this field.' }),
  },
  { description: 'A visit: one patient encounter and everything documented for it.' },
);
export type VisitView = Static<typeof VisitView>;

export const VisitSummary = Type.Object(
  {
    id: Type.String(),
    version: Type.Integer(),
    createdAt: Type.Integer(),
    updatedAt: Type.Integer(),
    patient: VisitPatient,
    encounterDate: Type.String(),
    preview: Type.String({ description: 'The first words of the dictation or transcript.' }),
    notes: Type.Integer({ description: 'How many notes the visit has.' }),
    recordings: Type.Integer({ description: 'How many recordings the visit has.' }),
    latestNote: Type.Union([
      Type.Object({
        noteId: Type.String(),
        status: Type.Unsafe<'pending' | 'failed' | 'draft' | 'signed' | 'amended'>({
          type: 'string', enum: ['pending', 'failed', 'draft', 'signed', 'amended'],
          description: '`pending`/`failed` while the note is not written; then `draft` until signed, `signed`, `amended` once it has an addendum.',
        }),
        at: Type.Integer({ description: 'When it was signed, else when it was written (else created): milliseconds since the Unix epoch.' }),
      }),
      Type.Null(),
    ], { description: 'The visit\'s newest note and where it stands, read from the note itself; null without one.' }),
    signedNotes: Type.Integer({ minimum: 0, description: 'How many of the visit\'s notes are signed or amended.' }),
  },
  { description: 'A visit in a list.' },
);
export type VisitSummary = Static<typeof VisitSummary>;

export const VisitListQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100, default 20).' })),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: 'Opaque cursor from a previous page\'s `nextCursor`.' })),
  q: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only visits whose patient name, dictation or transcript contains these words (any case, any accents).' })),
  dateOfBirth: Type.Optional(Type.String({
    pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'Only visits of a patient born on this day (YYYY-MM-DD, the whole date); with `q`, both must match.',
  })),
});
