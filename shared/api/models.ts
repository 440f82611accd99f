import { Type, type Static } from '@sinclair/typebox';
import { StringEnum } from './schemas.js';

/**
 * Wire schemas of the model manager (`/v1/models`), the engine status (`/v1/engines`) and the
 * model catalog shipped in `resources/models/catalog.json`. The catalog is data, checked against
 * {@link ModelCatalog} by the tests and again when Clindoc reads it.
 */

/** What a model is for: `speech` recognisers (dictation, uploads), `text` language models (notes). */
export const MODEL_TASKS = ['speech', 'text'] as const;
export type ModelTask = (typeof MODEL_TASKS)[number];

/** Engines that can run an installed model. */
export const MODEL_ENGINES = ['onnx-whisper', 'onnx-ctc', 'llama-cpp'] as const;
export type ModelEngine = (typeof MODEL_ENGINES)[number];

/** Catalog and installed-model ids: also usable as an upload's `engine` (lower case, digits, hyphens). */
export const MODEL_ID_PATTERN = '^[a-z0-9][a-z0-9-]{0,39}$';

/** A figure with where it comes from, so nothing in the catalog reads as measured when it was not. */
export const SourcedFigure = Type.Object({
  text: Type.String({ minLength: 1, description: 'The figure in words, e.g. "17 tokens/s generation, 68 tokens/s prompt".' }),
  source: Type.String({ minLength: 1, description: 'Where it comes from (publisher, a measurement with date and machine), or "not measured here".' }),
});
export type SourcedFigure = Static<typeof SourcedFigure>;

export const ModelCatalogFile = Type.Object({
  path: Type.String({ pattern: '^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$', description: 'Where the file goes inside the model folder.' }),
  url: Type.String({ pattern: '^https://[^\\s]+$', description: 'Download address (a mirror replaces its scheme and host: CLINDOC_MODEL_MIRROR).' }),
  bytes: Type.Optional(Type.Integer({ minimum: 1, description: 'Exact size when the publisher states it; a file of another size is refused.' })),
  approxBytes: Type.Integer({ minimum: 1, description: "Size from the publisher's rounded file listing; checked against free disk space before a download." }),
  listedSize: Type.String({ minLength: 1, description: 'The size as the publisher lists it, e.g. "2.02 GB".' }),
  sha256: Type.String({ pattern: '^[0-9a-f]{64}$', description: "The publisher's stated SHA-256; a file with another is refused. An entry whose publisher states none is left out of the catalog." }),
  sha256Source: Type.String({ minLength: 1, description: 'Page where the publisher states the hash and size.' }),
  listedOn: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$', description: 'The day the hash was read from that page.' }),
});
export type ModelCatalogFile = Static<typeof ModelCatalogFile>;

export const ModelCatalogEntry = Type.Object({
  id: Type.String({ pattern: MODEL_ID_PATTERN }),
  title: Type.String({ minLength: 1 }),
  description: Type.String({ minLength: 1 }),
  task: StringEnum(MODEL_TASKS),
  engine: StringEnum(MODEL_ENGINES),
  homepage: Type.String({ pattern: '^https://' }),
  licence: Type.Object({ name: Type.String({ minLength: 1 }), url: Type.String({ pattern: '^https://' }) }),
  languages: Type.Array(Type.String({ pattern: '^[a-z]{2,3}$' }), { minItems: 1 }),
  recommendedFor: Type.String({ description: 'The machine it suits, e.g. "8 GB of memory".' }),
  memory: SourcedFigure,
  speed: SourcedFigure,
  languagesSource: Type.Optional(Type.String({ description: 'Where the supported languages are stated (the model card).' })),
  folderConfig: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Written as clindoc.json in the model folder (e.g. {"dtype":"q8"}).' })),
  files: Type.Array(ModelCatalogFile, { minItems: 1 }),
});
export type ModelCatalogEntry = Static<typeof ModelCatalogEntry>;

export const ModelCatalog = Type.Object({
  version: Type.Literal(1),
  updated: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  notes: Type.Optional(Type.Array(Type.String())),
  entries: Type.Array(ModelCatalogEntry),
  leftOut: Type.Optional(Type.Array(Type.Object({
    id: Type.String(), title: Type.String(), reason: Type.String({ minLength: 1 }),
  }), { description: 'Models considered but not listed, with why (no publisher SHA-256 for every file).' })),
});
export type ModelCatalog = Static<typeof ModelCatalog>;

export const MODEL_PULL_STATUSES = ['queued', 'running', 'done', 'failed', 'cancelled'] as const;

export const ModelPullView = Type.Object({
  id: Type.String(),
  modelId: Type.String(),
  status: StringEnum(MODEL_PULL_STATUSES, { description: '`queued` → `running` → `done`, `failed` (see `error`) or `cancelled`. A failed or cancelled pull resumes where it stopped when pulled again.' }),
  receivedBytes: Type.Integer({ description: 'Bytes on disk so far, across the model\'s files.' }),
  totalBytes: Type.Union([Type.Integer(), Type.Null()], { description: 'Bytes expected in all (publisher figures), null when unknown.' }),
  file: Type.Union([Type.String(), Type.Null()], { description: 'The file being fetched while running.' }),
  error: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  completedAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
}, { description: 'A model download, run as a durable background job.' });
export type ModelPullView = Static<typeof ModelPullView>;

export const ModelFileView = Type.Object({
  path: Type.String(),
  bytes: Type.Integer(),
  sha256: Type.String(),
  hashSource: StringEnum(['publisher', 'pinned'] as const, { description: '`publisher`: matches the publisher\'s stated hash; `pinned`: the hash this device recorded at the first download or import.' }),
});
export type ModelFileView = Static<typeof ModelFileView>;

/** What an import found inside the model's own header before accepting it (GGUF metadata, ONNX graph). */
export const ModelInspection = Type.Object({
  format: StringEnum(['gguf', 'onnx'] as const),
  architecture: Type.String({ description: 'e.g. "llama" (GGUF general.architecture) or "whisper" (config.json model_type).' }),
  parameters: Type.Union([Type.Integer(), Type.Null()], { description: 'Parameter count summed over the tensors; null when the format does not say.' }),
  quantisation: Type.Union([Type.String(), Type.Null()], { description: 'e.g. "Q4_K_M" (GGUF file type) or "8-bit" (quantised ONNX); null when not stated.' }),
}, { description: 'Shown when a model is imported.' });
export type ModelInspection = Static<typeof ModelInspection>;

export const ModelView = Type.Object({
  id: Type.String({ description: 'Catalog id; also the engine name to choose in `/v1/settings/engines` once installed.' }),
  title: Type.String(),
  task: StringEnum(MODEL_TASKS),
  engine: StringEnum(MODEL_ENGINES),
  origin: StringEnum(['catalog', 'import'] as const, { description: '`import`: a model from a file or folder that the catalog does not list.' }),
  installed: Type.Boolean(),
  catalog: Type.Optional(Type.Omit(ModelCatalogEntry, ['files', 'id', 'title', 'task', 'engine'])),
  approxBytes: Type.Optional(Type.Integer({ description: 'Download size from the publisher\'s figures.' })),
  bytes: Type.Optional(Type.Integer({ description: 'Size on disk, once installed.' })),
  installedAt: Type.Optional(Type.String({ format: 'date-time' })),
  verifiedAt: Type.Optional(Type.Union([Type.String({ format: 'date-time' }), Type.Null()])),
  files: Type.Optional(Type.Array(ModelFileView)),
  inspected: Type.Optional(ModelInspection),
  pull: Type.Optional(ModelPullView),
});
export type ModelView = Static<typeof ModelView>;

export const ModelList = Type.Object({ items: Type.Array(ModelView) });
export type ModelList = Static<typeof ModelList>;

export const ModelImportBody = Type.Object({
  path: Type.String({ minLength: 1, maxLength: 4096, description: 'A file (.gguf) or folder on this computer (a USB stick, a share) to copy in.' }),
  id: Type.Optional(Type.String({ pattern: MODEL_ID_PATTERN, description: 'The catalog entry these files are (checked against its hashes), or the id to give a model the catalog does not list. Default: found from the hashes or the name.' })),
});
export type ModelImportBody = Static<typeof ModelImportBody>;

export const ModelVerifyResult = Type.Object({
  id: Type.String(),
  ok: Type.Boolean({ description: 'True when every file is present with its recorded size and hash.' }),
  files: Type.Array(Type.Object({
    path: Type.String(),
    ok: Type.Boolean(),
    expected: Type.String({ description: 'Recorded SHA-256.' }),
    actual: Type.Union([Type.String(), Type.Null()], { description: 'SHA-256 now on disk; null when the file is missing.' }),
  })),
  verifiedAt: Type.String({ format: 'date-time' }),
});
export type ModelVerifyResult = Static<typeof ModelVerifyResult>;

/** One measured quality figure of an engine, with where and when it was measured. */
export const EngineMeasurement = Type.Object({
  task: StringEnum(['speech', 'text', 'extraction', 'coding'] as const),
  engine: Type.String(),
  model: Type.Optional(Type.String()),
  mode: StringEnum(['batch', 'streaming'] as const),
  metric: Type.String({ description: 'WER (lower is better), ROUGE-1, field accuracy, F1...' }),
  value: Type.Number(),
  unit: Type.String(),
  set: Type.String({ description: 'What it was measured on.' }),
  script: Type.String({ description: 'The repository script that measures it.' }),
  date: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  machine: Type.String(),
});
export type EngineMeasurement = Static<typeof EngineMeasurement>;

/** `resources/models/quality.json`: the figures the engine status shows. */
export const EngineQualityFile = Type.Object({
  version: Type.Literal(1),
  notes: Type.Optional(Type.Array(Type.String())),
  measurements: Type.Array(EngineMeasurement),
});
export type EngineQualityFile = Static<typeof EngineQualityFile>;

export const ENGINE_STATUS_TASKS = ['dictation', 'transcription', 'notes', 'extraction', 'coding'] as const;

/** How an engine's recent calls went (every call is recorded; servers are also checked in the background). */
export const EngineHealth = Type.Object({
  status: StringEnum(['up', 'down', 'unknown'] as const, { description: '`down`: its latest call or check failed; `unknown`: not used or checked yet.' }),
  lastSuccessAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastFailureAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  lastFailure: Type.Union([Type.String(), Type.Null()], { description: 'Why the latest failure happened (no patient data).' }),
  latencyMs: Type.Union([Type.Integer(), Type.Null()], { description: 'How long the latest call or check took.' }),
});
export type EngineHealth = Static<typeof EngineHealth>;

export const EngineTaskStatus = Type.Object({
  task: StringEnum(ENGINE_STATUS_TASKS, { description: 'dictation (live), transcription (uploads), notes, extraction (text to JSON), coding.' }),
  engine: Type.String({ description: 'The engine answering this task for this account now.' }),
  model: Type.Optional(Type.String({ description: 'Its model: an installed model\'s id, a file or folder, or a server\'s model name.' })),
  kind: StringEnum(['embedded', 'model', 'server'] as const, { description: '`embedded`: ships with Clindoc, no download; `model`: a downloaded model on this computer; `server`: a configured server.' }),
  choice: StringEnum(['account', 'default', 'device'] as const, { description: '`account`: chosen in /v1/settings/engines; `default`: the device default of a choosable task; `device`: not choosable per account (configured at start).' }),
  loaded: Type.Optional(Type.Boolean({ description: 'For a downloaded model: in memory now (loaded on first use, unloaded when idle).' })),
  partials: Type.Optional(Type.Boolean({ description: 'Dictation: whether words appear while speaking (false: each utterance appears when it ends).' })),
  quality: Type.Array(EngineMeasurement, { description: 'Figures measured by the repository\'s evaluation scripts for this engine; empty when none were measured here.' }),
  warnings: Type.Array(Type.String(), { description: 'What a physician should know before trusting the output.' }),
  health: Type.Optional(EngineHealth),
});
export type EngineTaskStatus = Static<typeof EngineTaskStatus>;

export const EnginesStatus = Type.Object({
  tasks: Type.Array(EngineTaskStatus),
});
export type EnginesStatus = Static<typeof EnginesStatus>;
