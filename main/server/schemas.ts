import { Type, type TSchema } from '@sinclair/typebox';
import { NOTE_LANGUAGES } from '../../shared/languages.js';
import { NOTE_TEMPLATE_SCHEMA } from '../../shared/note-template-schema.js';

/**
 * Request and response schemas of the local API. Routes validate with these and the OpenAPI
 * document publishes them, so the two cannot drift. Unknown fields are accepted and ignored
 * (API-DECISIONS), hence no `additionalProperties: false` on requests.
 */

const str = (description: string, opts: Record<string, unknown> = {}) => Type.String({ description, ...opts });

export const ErrorBody = Type.Object(
  { error: Type.Integer({ description: 'HTTP status code' }), message: Type.String() },
  { description: 'Error body: `error` is the HTTP status as an integer.' },
);

export const IdParam = (name: string) => Type.Object({ [name]: Type.String({ minLength: 1, maxLength: 200 }) });

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100, default 20).' })),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: 'Opaque cursor from a previous page\'s `nextCursor`.' })),
});

export const pageOf = (item: TSchema) =>
  Type.Object({ items: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Cursor of the next page, null on the last.' }) });

/** Reference to the NoteTemplate model; the registry's validator and the OpenAPI builder resolve it. */
export const NoteTemplateSchema = Type.Unsafe<Record<string, unknown>>({ $ref: NOTE_TEMPLATE_SCHEMA.$id });

export const CreateNoteBody = Type.Object({
  transcript: str('The raw medical transcript text to be turned into a clinical note.', { minLength: 1, maxLength: 500_000 }),
  noteType: Type.Optional(
    Type.Object({
      description: Type.Optional(Type.String({ maxLength: 2000 })),
      type: Type.Optional(
        Type.String({ enum: ['note_style', 'soap', 'note_template'], default: 'soap', description: 'note_style (free-text template), soap (built-in), note_template (NoteTemplate object or stored id).' }),
      ),
      template: Type.Optional(str('Free-text instruction describing the sections the note must have (note_style).', { maxLength: 50_000 })),
      includeJson: Type.Optional(Type.Boolean({ description: 'Also produce payload.json, the note as structured data.' })),
      noteTemplate: Type.Optional(NoteTemplateSchema),
      templateId: Type.Optional(str('Id of a stored note template (note_template).', { maxLength: 200 })),
    }),
  ),
  date: Type.Optional(str('Encounter date: YYYY-MM-DD or YYYY-MM-DDTHH:mm:ssZ.', { maxLength: 20 })),
  language: Type.Optional(Type.String({ enum: [...NOTE_LANGUAGES], default: 'en', description: 'Output language of the note.' })),
  patientInfo: Type.Optional(
    Type.Object({ name: Type.Optional(Type.String({ maxLength: 500 })), dateOfBirth: Type.Optional(str('YYYY-MM-DD', { maxLength: 10 })) }),
  ),
  previousNote: Type.Optional(Type.String({ maxLength: 200_000 })),
  context: Type.Optional(Type.String({ maxLength: 50_000 })),
  instructions: Type.Optional(Type.Array(Type.String({ maxLength: 5000 }), { maxItems: 50 })),
  medicationList: Type.Optional(str('Up to 50 medications, comma separated.', { maxLength: 10_000 })),
});

export const NoteCreated = Type.Object({ noteId: Type.String() });

export const NoteView = Type.Object(
  {
    id: Type.String(),
    status: Type.String({ enum: ['STATUS_PENDING', 'STATUS_PROCESSING', 'STATUS_DONE', 'STATUS_FAILED'] }),
    payload: Type.Optional(Type.Object({ markdown: Type.String(), json: Type.Optional(Type.Record(Type.String(), Type.Unknown())) })),
    timestamp: Type.Object({ start: Type.Integer(), complete: Type.Optional(Type.Integer()) }),
    error: Type.Optional(Type.Object({ message: Type.String() })),
  },
  { description: 'A note. `payload` is present only when status is STATUS_DONE; `error` only when STATUS_FAILED.' },
);

export const NoteStyleBody = Type.Object({
  sampleNote: str('A sample note whose structure and style the template should reproduce.', { minLength: 1, maxLength: 200_000 }),
  instructions: Type.Optional(Type.Array(Type.String({ maxLength: 5000 }), { maxItems: 50, description: 'May be empty.' })),
});
export const NoteStyleResult = Type.Object({ template: Type.String() });

export const TextToJsonBody = Type.Object({
  text: str('Unstructured text to transform.', { maxLength: 200_000 }),
  schema: Type.Object({}, { description: 'A JSON Schema describing the structure to extract.' }),
});

export const MacroBody = Type.Object({
  text: str('Text to analyse.'),
  macros: Type.Array(
    Type.Object({
      id: str('Unique macro identifier.'),
      examples: Type.Array(Type.String(), { description: 'Text forms that stand for the macro.' }),
      expansion_text: str('Replacement text.'),
    }),
  ),
  min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Detections below this confidence are dropped.' })),
});

export const MacroResult = Type.Object({
  detections: Type.Array(
    Type.Object({
      macro_id: Type.String(),
      text_span: Type.Object({ start_char: Type.Integer(), end_char: Type.Integer(), text: Type.String() }),
      confidence: Type.Number({ minimum: 0, maximum: 1 }),
    }),
  ),
  expanded_text: Type.String(),
});

export const TranscriptionV1View = Type.Object({
  id: Type.String(),
  payload: Type.Object({ transcription: Type.String() }),
  timestamp: Type.Object({ start: Type.Integer(), complete: Type.Optional(Type.Integer()) }),
});

const Word = Type.Object({
  word: Type.String(),
  punctuated_word: Type.String(),
  start: Type.Number(),
  end: Type.Number(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  speaker: Type.Union([Type.Integer(), Type.Null()]),
});

export const TranscriptionV2View = Type.Object({
  id: Type.String(),
  status: Type.String({ enum: ['pending', 'processing', 'completed', 'failed'] }),
  language: Type.String(),
  duration: Type.Union([Type.Number(), Type.Null()], { description: 'Seconds of audio, once known.' }),
  text: Type.Union([Type.String(), Type.Null()]),
  confidence: Type.Union([Type.Number(), Type.Null()]),
  speakers: Type.Union([Type.Integer(), Type.Null()]),
  utterances: Type.Array(
    Type.Object({ speaker: Type.Union([Type.Integer(), Type.Null()]), start: Type.Number(), end: Type.Number(), text: Type.String(), confidence: Type.Number() }),
  ),
  words: Type.Array(Word),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  completed_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const TranscriptionAccepted = Type.Object({
  id: Type.String(),
  status: Type.Literal('pending'),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});

export const StreamToken = Type.Object({ token: Type.String(), expiresAt: Type.String({ format: 'date-time' }) });

export const WebhookBody = Type.Object({
  url: str('HTTPS URL, or http on a loopback address, that receives events.', { minLength: 1, maxLength: 2000 }),
  events: Type.Optional(
    Type.Array(Type.String({ enum: ['audio_transcription.succeeded', 'audio_transcription.failed', 'note_generation.succeeded', 'note_generation.failed'] }), {
      minItems: 1, uniqueItems: true, description: 'Events to receive; all when omitted.',
    }),
  ),
});
export const WebhookView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  secret: Type.Optional(Type.String({ description: 'Signing secret (whsec_...), returned only when the webhook is created.' })),
});

export const MacroDefinitionSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  examples: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 50 }),
  expansion_text: Type.String({ maxLength: 20_000 }),
});

export const CodingBody = Type.Object({
  text: Type.Optional(Type.String({ maxLength: 200_000 })),
  noteId: Type.Optional(Type.String({ maxLength: 200 })),
});
