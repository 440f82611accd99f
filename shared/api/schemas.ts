import { Type, type Static, type TSchema, type TString } from '@sinclair/typebox';
import { NOTE_LANGUAGES } from '../languages.js';
import { NOTE_TEMPLATE_SCHEMA } from '../note-template-schema.js';
import type { NoteTemplate } from '../note-template.js';
import { WEBHOOK_EVENTS } from './webhook-events.js';
import { AddendumView, SignatureView } from './signing.js';

/**
 * Request and response schemas of the local API, the one wire contract. The server validates
 * with them and publishes them in OpenAPI; the renderer takes its types from them with
 * `import type` (so TypeBox never enters the browser bundle) and `npm run typecheck` holds both
 * sides to the same shapes. Unknown fields are accepted and ignored (API-DECISIONS), hence no
 * `additionalProperties: false` on requests.
 */

const str = (description: string, opts: Record<string, unknown> = {}) => Type.String({ description, ...opts });

/**
 * A string limited to `values`. The JSON Schema is the plain `{type: 'string', enum}` that
 * `Type.String({enum})` writes (so validation and OpenAPI are unchanged), but the static type is
 * the union of the values rather than `string`, so the renderer cannot send a value the server
 * rejects.
 */
export const StringEnum = <const T extends readonly string[]>(values: T, options: Record<string, unknown> = {}) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

export const ErrorBody = Type.Object(
  { error: Type.Integer({ description: 'HTTP status code' }), message: Type.String() },
  { description: 'Error body: `error` is the HTTP status as an integer.' },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** Path parameter `name`: an id of 1-200 characters. */
export const IdParam = <const N extends string>(name: N) =>
  // A computed key widens to `string` in TypeScript; the record type keeps the parameter's name in `Static<>`.
  Type.Object({ [name]: Type.String({ minLength: 1, maxLength: 200 }) } as Record<N, TString>);

export const PageQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20, description: 'Page size (1-100, default 20).' })),
  cursor: Type.Optional(Type.String({ maxLength: 500, description: 'Opaque cursor from a previous page\'s `nextCursor`.' })),
});

/** One page of a list: `items` and the cursor of the next page. */
export const pageOf = <T extends TSchema>(item: T) =>
  Type.Object({ items: Type.Array(item), nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Cursor of the next page, null on the last.' }) });
/** The static type of `pageOf(schema)` for any item type. */
export type Page<T> = { items: T[]; nextCursor: string | null };

/** Reference to the NoteTemplate model; the registry's validator and the OpenAPI builder resolve it. */
export const NoteTemplateSchema = Type.Unsafe<NoteTemplate>({ $ref: NOTE_TEMPLATE_SCHEMA.$id });

export const NOTE_KINDS = ['note_style', 'soap', 'note_template'] as const;
export type NoteKind = (typeof NOTE_KINDS)[number];

export const CreateNoteBody = Type.Object({
  transcript: str('The raw medical transcript text to be turned into a clinical note.', { minLength: 1, maxLength: 500_000 }),
  noteType: Type.Optional(
    Type.Object({
      description: Type.Optional(Type.String({ maxLength: 2000 })),
      type: Type.Optional(
        StringEnum(NOTE_KINDS, { default: 'soap', description: 'note_style (free-text template), soap (built-in), note_template (NoteTemplate object or stored id).' }),
      ),
      template: Type.Optional(str('Free-text instruction describing the sections the note must have (note_style).', { maxLength: 50_000 })),
      includeJson: Type.Optional(Type.Boolean({ description: 'Also produce payload.json, the note as structured data.' })),
      noteTemplate: Type.Optional(NoteTemplateSchema),
      templateId: Type.Optional(str('Id of a stored note template (note_template).', { maxLength: 200 })),
    }),
  ),
  date: Type.Optional(str('Encounter date: YYYY-MM-DD or YYYY-MM-DDTHH:mm:ssZ.', { maxLength: 20, format: 'encounter-date' })),
  language: Type.Optional(StringEnum(NOTE_LANGUAGES, { default: 'en', description: 'Output language of the note.' })),
  patientInfo: Type.Optional(
    Type.Object({ name: Type.Optional(Type.String({ maxLength: 500 })), dateOfBirth: Type.Optional(str('YYYY-MM-DD', { maxLength: 10, format: 'date' })) }),
  ),
  previousNote: Type.Optional(Type.String({ maxLength: 200_000 })),
  context: Type.Optional(Type.String({ maxLength: 50_000 })),
  instructions: Type.Optional(Type.Array(Type.String({ maxLength: 5000 }), { maxItems: 50 })),
  medicationList: Type.Optional(str('Up to 50 medications, comma separated.', { maxLength: 10_000 })),
  transcriptUnsureShare: Type.Optional(Type.Number({
    minimum: 0, maximum: 1,
    description: 'Extension (issue 27): the share of the transcript\'s words the recogniser was unsure of (0..1), as the visit keeps it (`transcriptUnsureShare`). '
      + 'From 0.3 the note\'s review list (`payload.json.review`) opens with a `transcript` item saying the note was written from a mostly unsure transcript; '
      + 'the note itself is written as without it. Sent by the client because a note is not tied to a visit; omitted means unknown (no item).',
  })),
});
export type CreateNoteBody = Static<typeof CreateNoteBody>;

export const NoteCreated = Type.Object({ noteId: Type.String() });
export type NoteCreated = Static<typeof NoteCreated>;

export const NOTE_STATUSES = ['STATUS_PENDING', 'STATUS_PROCESSING', 'STATUS_DONE', 'STATUS_FAILED'] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];

/** Which engine and model made a note or a transcript (extension; recorded with it). */
export const EngineUsed = Type.Object({
  engine: Type.String({ description: '`embedded`, `llama-cpp`, `openai-compatible`, `pocketsphinx`, `onnx-whisper`, `onnx-ctc`.' }),
  model: Type.Optional(Type.String({ description: 'The installed model\'s id (see /v1/models), the model file or folder, or the server\'s model name.' })),
  fallbackFrom: Type.Optional(Type.Object({
    engine: Type.String(), model: Type.Optional(Type.String()), reason: Type.String({ description: 'Why the chosen engine failed (no patient data).' }),
  }, { description: 'Present when the chosen engine failed and this one wrote it instead (the account did not ask to fail instead).' })),
}, { description: 'The engine and model that made it.' });
export type EngineUsed = Static<typeof EngineUsed>;

/** One fact of a written note its sources do not support (`payload.json.review`). */
export const FidelityReviewItem = Type.Object({
  kind: StringEnum(['number', 'dose', 'unit', 'frequency', 'laterality', 'negation', 'medication', 'date', 'diagnosis', 'vital', 'order', 'register', 'engine', 'transcript'] as const, { description: '`transcript`: the transcript was mostly words the recogniser was unsure of (request `transcriptUnsureShare` from 0.3); the whole note is to be checked against the recording or the physician\'s memory. `diagnosis`: a condition stated as confirmed that the encounter holds as possible, rules out or never discusses; `vital`: a vital sign measured elsewhere (home, emergency room) given as today\'s; `order`: a test, imaging study or referral the transcript does not give; `register`: a sentence that reads as conversation (first or second person, a question, a disfluency, filler, a dictation command, a fragment), marked at its end. `engine`: the chosen engine failed and the embedded writer wrote the note instead (generatedBy.fallbackFrom); the whole note is to be read with that in mind.' }),
  text: Type.String({ description: 'The fact as the writer wrote it.' }),
  reason: Type.String({ description: 'What is wrong, as the marker says it.' }),
  action: StringEnum(['removed', 'marked'] as const, { description: 'removed: taken out of the note, the marker stands in its place; marked: kept, the marker follows it.' }),
  position: Type.Object({ start: Type.Integer(), end: Type.Integer(), line: Type.Integer() }, { description: 'UTF-16 offsets of the marked words and their marker in payload.markdown; 1-based line.' }),
  section: Type.Optional(Type.String({ description: 'Heading of the section it is in.' })),
});
export type FidelityReviewItem = Static<typeof FidelityReviewItem>;

export const NoteView = Type.Object(
  {
    id: Type.String(),
    status: StringEnum(NOTE_STATUSES),
    payload: Type.Optional(Type.Object({
      markdown: Type.String({ description: 'The note. A fact its sources do not support is removed or marked with a visible review marker `⚠[check: <reason>]` (docs/notes.md, "Fact fidelity").' }),
      json: Type.Optional(Type.Object({
        review: Type.Optional(Type.Array(FidelityReviewItem, { description: 'Every fact the fidelity check removed or marked, in note order; present with includeJson, or alone whenever something was flagged.' })),
        unplaced: Type.Optional(Type.Array(Type.Object({
          text: Type.String({ description: 'The sentence as said, cleaned of disfluencies.' }),
          section: Type.Optional(Type.String({ description: 'Where it would most likely go (hpi, exam, plan...).' })),
          reason: Type.String({ description: 'Why the writer did not place it.' }),
        }, { additionalProperties: true }), { description: 'Said but not in the note: what the embedded writer could not place with confidence, for the physician to add; present with includeJson, or alone whenever there is any. Beside `review`, not inside it, because `review` is a list.' })),
      }, { additionalProperties: true, description: 'The note as structured data (includeJson), plus `review` and `unplaced`.' })),
      generatedBy: Type.Optional(EngineUsed),
    })),

    timestamp: Type.Object({ start: Type.Integer(), complete: Type.Optional(Type.Integer()) }),
    error: Type.Optional(Type.Object({ message: Type.String() })),
    version: Type.Integer({ minimum: 1, description: 'Goes up with every edit, signature and addendum; also the ETag. Send it as If-Match to change the note.' }),
    signature: SignatureView,
    addenda: Type.Array(AddendumView, { description: 'Additions made after signing, oldest first.' }),
  },
  { description: 'A note. `payload` is present only when status is STATUS_DONE; `error` only when STATUS_FAILED. `version`, `signature` and `addenda` are extensions (draft, sign, amend).' },
);
export type NoteView = Static<typeof NoteView>;

export const NoteStyleBody = Type.Object({
  sampleNote: str('A sample note whose structure and style the template should reproduce.', { minLength: 1, maxLength: 200_000 }),
  instructions: Type.Optional(Type.Array(Type.String({ maxLength: 5000 }), { maxItems: 50, description: 'May be empty.' })),
});
export type NoteStyleBody = Static<typeof NoteStyleBody>;
export const NoteStyleResult = Type.Object({ template: Type.String() });
export type NoteStyleResult = Static<typeof NoteStyleResult>;

export const TextToJsonBody = Type.Object({
  text: str('Unstructured text to transform.', { maxLength: 200_000 }),
  schema: Type.Object({}, { description: 'A JSON Schema describing the structure to extract.' }),
});

/** The text-to-JSON answer: the value, the engine that read it, and what the check flagged in a model's answer (extension). */
export const TextToJsonResult = Type.Object({
  data: Type.Unknown({ description: 'Conforms to the request schema.' }),
  engine: Type.String({ description: 'Who read the text: `embedded`, or the language model\'s engine (`openai-compatible`, `llama-cpp`, an installed model) when the account\'s note engine is one and its answer could be used. An account that chose `embedded` for notes sends no text to a model.' }),
  review: Type.Array(Type.Object({
    path: Type.String({ description: 'JSON Pointer of the value in `data` (as the model gave it).' }),
    kind: Type.String({ description: 'As in a note\'s review list: number, dose, unit, frequency, laterality, negation, medication, date, diagnosis, vital, order.' }),
    text: Type.String({ description: 'The value, or the part of it that failed.' }),
    reason: Type.String(),
    action: StringEnum(['removed', 'marked'] as const, { description: 'removed: left out of `data` (null, or the item dropped from its list); marked: kept in `data`, listed here for review.' }),
  }), { description: 'Values of a language model\'s answer the text does not support, checked as a note is (docs/notes.md, "Fact fidelity"); empty for the embedded reader.' }),
});
export type TextToJsonResult = Static<typeof TextToJsonResult>;

/** When a macro fires: on its phrase alone, or only when commanded (extension). */
const MacroTrigger = Type.Optional(
  Type.Union([Type.Literal('auto'), Type.Literal('insert')], {
    description: '`auto` (default): the phrase alone expands. `insert`: only when commanded ("insert normal cardiac exam", "dot …", "expand …", "… macro"); otherwise reported in `skipped` with reason `trigger_required`.',
  }),
);

export const MacroBody = Type.Object({
  text: str('Text to analyse.'),
  macros: Type.Array(
    Type.Object({
      id: str('Unique macro identifier.'),
      examples: Type.Array(Type.String(), { description: 'Text forms that stand for the macro.' }),
      expansion_text: str('Replacement text.'),
      trigger: MacroTrigger,
    }),
  ),
  min_confidence: Type.Optional(Type.Number({ minimum: 0, maximum: 1, description: 'Detections below this confidence are dropped.' })),
});
export type MacroBody = Static<typeof MacroBody>;

const MacroDetection = Type.Object({
  macro_id: Type.String(),
  text_span: Type.Object({ start_char: Type.Integer(), end_char: Type.Integer(), text: Type.String() }),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
});
export type MacroDetection = Static<typeof MacroDetection>;

const TextSpan = Type.Object({ start_char: Type.Integer(), end_char: Type.Integer(), text: Type.String() });

/** A phrase that matched a macro but was left as spoken (extension; the contract's fields are unchanged). */
const MacroSkip = Type.Object({
  macro_id: Type.String(),
  reason: Type.Union([Type.Literal('negated'), Type.Literal('exception'), Type.Literal('trigger_required')], {
    description: '`negated`: said inside a negation ("this was not a normal cardiac exam"); `exception`: followed by an exception ("normal cardiac exam except for a murmur": the whole phrase stays, since the expansion would contradict the exception); `trigger_required`: an `insert` macro said without its command.',
  }),
  text_span: TextSpan,
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  trigger: Type.Optional(Type.Object(TextSpan.properties, { description: 'The words that decided it ("not", "except for").' })),
});
export type MacroSkip = Static<typeof MacroSkip>;

export const MacroResult = Type.Object({
  detections: Type.Array(MacroDetection),
  expanded_text: Type.String(),
  skipped: Type.Array(MacroSkip, { description: 'Matches not expanded, and why. Not part of `detections`, and left as spoken in `expanded_text`.' }),
});
export type MacroResult = Static<typeof MacroResult>;

/** A saved macro (`/v1/macro-library`); the same shape as one entry of `MacroBody.macros`. */
export const MacroDefinitionSchema = Type.Object({
  id: Type.String({ minLength: 1, maxLength: 200 }),
  examples: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 1, maxItems: 50 }),
  expansion_text: Type.String({ maxLength: 20_000 }),
  trigger: MacroTrigger,
});
export type MacroDefinition = Static<typeof MacroDefinitionSchema>;

export const TranscriptionV1View = Type.Object({
  id: Type.String(),
  payload: Type.Object({ transcription: Type.String() }),
  timestamp: Type.Object({ start: Type.Integer(), complete: Type.Optional(Type.Integer()) }),
});
export type TranscriptionV1View = Static<typeof TranscriptionV1View>;

const Word = Type.Object({
  word: Type.String(),
  punctuated_word: Type.String(),
  start: Type.Number(),
  end: Type.Number(),
  confidence: Type.Number({ minimum: 0, maximum: 1 }),
  speaker: Type.Union([Type.Integer(), Type.Null()]),
});

export const TRANSCRIPTION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type TranscriptionStatus = (typeof TRANSCRIPTION_STATUSES)[number];

export const TranscriptionV2View = Type.Object({
  id: Type.String(),
  status: StringEnum(TRANSCRIPTION_STATUSES),
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
  generatedBy: Type.Optional(EngineUsed),
});
export type TranscriptionV2View = Static<typeof TranscriptionV2View>;


export const TranscriptionAccepted = Type.Object({
  id: Type.String(),
  status: Type.Literal('pending'),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export type TranscriptionAccepted = Static<typeof TranscriptionAccepted>;

export const StreamToken = Type.Object({ token: Type.String(), expiresAt: Type.String({ format: 'date-time' }) });
export type StreamToken = Static<typeof StreamToken>;

export const WebhookBody = Type.Object({
  url: str('HTTPS URL, or http on a loopback address, that receives events.', { minLength: 1, maxLength: 2000 }),
  events: Type.Optional(
    Type.Array(StringEnum(WEBHOOK_EVENTS), { minItems: 1, uniqueItems: true, description: 'Events to receive; all when omitted.' }),
  ),
});
export type WebhookBody = Static<typeof WebhookBody>;
export const WebhookView = Type.Object({
  id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  created_at: Type.String({ format: 'date-time' }),
  secret: Type.Optional(Type.String({ description: 'Signing secret (whsec_...), returned only when the webhook is created.' })),
});
export type WebhookView = Static<typeof WebhookView>;

const Usage = Type.Object({ count: Type.Integer({ minimum: 0 }), bytes: Type.Integer({ minimum: 0 }) });
/** Count and bytes of one kind of stored object. */
export type KindUsage = Static<typeof Usage>;
export const StorageReport = Type.Object(
  {
    notes: Usage, transcriptions: Usage, audio: Usage, templates: Usage, macros: Usage, webhooks: Usage, visits: Usage,
    totalBytes: Type.Integer({ minimum: 0, description: 'Sum of the bytes above.' }),
  },
  { description: "The account's stored objects and the bytes they take (database rows as stored, encrypted where sealed, plus audio files)." },
);
export type StorageReport = Static<typeof StorageReport>;
export const DeletedCounts = Type.Object({
  notes: Type.Integer({ minimum: 0 }), transcriptions: Type.Integer({ minimum: 0 }), templates: Type.Integer({ minimum: 0 }),
  macros: Type.Integer({ minimum: 0 }), webhooks: Type.Integer({ minimum: 0 }), visits: Type.Integer({ minimum: 0 }),
});
export type DeletedCounts = Static<typeof DeletedCounts>;

/** An account's own server as settings show it: the key is kept (sealed) but never sent back. */
export const EngineServerView = Type.Object({
  url: Type.String(), model: Type.String(), hasKey: Type.Boolean({ description: 'Whether a key is kept for it.' }),
});
/** An OpenAI-compatible server offered for a task: tested with a real call before it is saved. */
export const EngineServerInput = Type.Object({
  url: Type.String({ pattern: '^https?://[^\\s]+$', maxLength: 500, description: 'Base address including the version path, e.g. `http://10.0.0.5:8000/v1`.' }),
  model: Type.String({ minLength: 1, maxLength: 200, description: 'The model name the server knows.' }),
  apiKey: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: 'Bearer key; sealed at rest with the data key, never shown again.' })),
}, { additionalProperties: false });

export const EngineSettings = Type.Object({
  asrEngine: Type.String({ description: 'Recogniser for live dictation and for uploads that do not name an `engine`.' }),
  source: StringEnum(['account', 'default'], { description: '`default` when the account follows CLINDOC_ASR_ENGINE.' }),
  available: Type.Array(Type.String(), { description: 'Recognisers configured on this device (pocketsphinx, onnx-ctc, onnx-whisper, openai-compatible) and installed speech models by id.' }),
  noteEngine: Type.String({ description: 'What writes the account\'s notes: `embedded`, a configured language model (`llama-cpp`, `openai-compatible`) or an installed language model by id.' }),
  noteSource: StringEnum(['account', 'default'], { description: '`default` when the account follows the device configuration.' }),
  noteAvailable: Type.Array(Type.String(), { description: 'Note engines configured on this device and installed language models by id; `account-server` when the account set up its own server.' }),
  onEngineFailure: StringEnum(['embedded', 'fail'], { description: 'When a chosen model or server fails: `embedded` writes the note with the embedded writer, marked in generatedBy.fallbackFrom and the review list; `fail` fails it.' }),
  failureSource: StringEnum(['account', 'default'], { description: '`default` when the account follows CLINDOC_ENGINE_FAILURE.' }),
  servers: Type.Object({ notes: Type.Optional(EngineServerView), speech: Type.Optional(EngineServerView) }, { description: 'The account\'s own OpenAI-compatible servers by task (chosen as `account-server`); keys are never shown.' }),

  clinicalLanguageModel: Type.Object({
    loaded: Type.Boolean({ description: 'True when the embedded recogniser mixes the clinical language model into its general English one.' }),
    path: Type.Optional(Type.String({ description: 'Folder the model is loaded from, or where it was looked for.' })),
    reason: Type.Optional(StringEnum(['disabled', 'missing'], { description: 'Why it is not loaded: `disabled` (CLINDOC_ASR_MEDICAL=0) or `missing` from the installation (a warning at start-up; the general model transcribes instead).' })),
  }, { description: 'State of the clinical language model of the embedded recogniser (pocketsphinx), decided at start-up.' }),
});
export type EngineSettings = Static<typeof EngineSettings>;
export const EngineSettingsBody = Type.Object({
  asrEngine: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Null()], { description: 'One of `available`; null returns to the device default; absent leaves it.' })),
  noteEngine: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Null()], { description: 'One of `noteAvailable`; null returns to the device default; absent leaves it.' })),
  onEngineFailure: Type.Optional(Type.Union([StringEnum(['embedded', 'fail']), Type.Null()], { description: 'What to do when a chosen model or server fails; null follows CLINDOC_ENGINE_FAILURE.' })),
  servers: Type.Optional(Type.Object({
    notes: Type.Optional(Type.Union([EngineServerInput, Type.Null()], { description: 'A language-model server for notes: tested, saved and chosen (`account-server`); null removes it.' })),
    speech: Type.Optional(Type.Union([EngineServerInput, Type.Null()], { description: 'A transcription server for dictation and uploads: tested, saved and chosen; null removes it.' })),
  }, { additionalProperties: false })),
});

export type EngineSettingsBody = Static<typeof EngineSettingsBody>;
