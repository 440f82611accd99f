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
  bytes: Type.Optional(Type.Integer({ minimum: 1, description: 'Exact size when the publisher states it.' })),
  approxBytes: Type.Optional(Type.Integer({ minimum: 1, description: "Size from the publisher's rounded file listing; checked against free disk space before a download." })),
  sha256: Type.Optional(Type.String({ pattern: '^[0-9a-f]{64}$', description: "The publisher's stated SHA-256. Absent: the first download's hash is shown and pinned." })),
  sha256Source: Type.Optional(Type.String({ description: 'Page where the publisher states the hash.' })),
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
  verified: Type.Boolean({ description: 'True when every file has the publisher\'s SHA-256; false: hashes are pinned at the first download.' }),
  folderConfig: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Written as clindoc.json in the model folder (e.g. {"dtype":"q8"}).' })),
  files: Type.Array(ModelCatalogFile, { minItems: 1 }),
});
export type ModelCatalogEntry = Static<typeof ModelCatalogEntry>;

export const ModelCatalog = Type.Object({
  version: Type.Literal(1),
  updated: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  notes: Type.Optional(Type.Array(Type.String())),
  entries: Type.Array(ModelCatalogEntry),
});
export type ModelCatalog = Static<typeof ModelCatalog>;
