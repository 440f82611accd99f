/**
 * The engine registry: which recogniser or note writer answers to a name, built when first used
 * and unloaded when idle (main/services/engines/engine-pool.ts). Names are the device's configured
 * engines (pocketsphinx, openai-compatible, onnx-ctc/onnx-whisper with CLINDOC_ASR_MODEL_DIR,
 * llama-cpp with CLINDOC_LLM_MODEL_PATH, embedded) and the ids of installed models, so a model
 * installed while Clindoc runs can be chosen at once, without a restart.
 *
 * Every recogniser and language model handed out is a handle: each recognition, note or live
 * session leases the real engine for as long as it works, so a switch or an idle unload never
 * takes an engine from under running work, and a live session keeps its engine until it ends.
 */
import { DomainError, engineUnavailable } from './services/errors.js';
import { createEnginePool, type EnginePool as Pool, type Lease } from './services/engines/engine-pool.js';
import { createEngineHealth, type EngineHealth, type EngineHealthView } from './services/engines/engine-health.js';
import { withNoteFallback, withSpeechFallback, type EngineFailurePolicy } from './services/engines/fallback.js';
import type { EngineServer } from './services/transcriptions/engine-settings.js';
import { testServer } from './compose-engine-servers.js';
import { loadModelCatalog } from './compose-models.js';
import { createServerBook, notHere, speechSpecs, textSpecs, type EngineDeps, type EngineTask, type Policy, type Spec, type TextSpec } from './compose-engine-specs.js';
import type { ClindocConfig } from './config.js';
import { withLanguageNotice } from './services/engines/language-notice.js';
import { createUtteranceStream } from './services/live/utterance-stream.js';
import type { EngineUsed, NoteWriter } from './services/notes/ports.js';
import type { LanguageModel } from './services/language-model.js';
import type { SpeechRecognizer, SpeechStream } from './services/transcriptions/ports.js';
import { createLlmNoteWriter } from './engines/text/llm/note-writer.js';
import { createEmbeddedNoteWriter } from './engines/text/embedded/index.js';

export type { EngineDeps, EngineTask } from './compose-engine-specs.js';

/** What a name stands for: the engine, its model, and whether it is embedded, a downloaded model or a server. */
export interface EngineDescription {
  name: string;
  task: EngineTask;
  engine: string;
  model?: string;
  kind: 'embedded' | 'model' | 'server';
  /** In memory now (models are loaded on first use and unloaded when idle). */
  loaded: boolean;
  /** Speech: recognises while the speaker talks (partial words); the others answer each utterance when it ends. */
  streaming?: boolean;
}

export interface NoteWriterOptions {
  /** The account's wish when the engine fails (default the device's, CLINDOC_ENGINE_FAILURE). */
  policy?: () => Promise<EngineFailurePolicy> | EngineFailurePolicy;
  /** The embedded writer a failed model's or server's note falls back to (default: one in this thread; the server hands in the compute pool's). */
  fallback?: NoteWriter;
}

export interface EngineRegistry {
  /** Names that can be chosen for speech (dictation and uploads) and for notes. */
  speechNames(): string[];
  textNames(): string[];
  /** The note engine of accounts that chose none: the configured language model, else the embedded writer. */
  readonly defaultTextEngine: string;
  describe(task: EngineTask, name: string): EngineDescription | undefined;
  /** The recogniser answering to `name` (400 when nothing on this device does). */
  recognizer(name: string): SpeechRecognizer;
  /**
   * The note writer answering to `name`; its notes carry `generatedBy`. `policy` is the account's
   * wish when the engine fails (default the device's, CLINDOC_ENGINE_FAILURE).
   */
  noteWriter(name: string, options?: NoteWriterOptions): NoteWriter;
  /** Where engines find the servers accounts set up (`account-server@…` names): the engine settings. */
  useAccountServers(lookup: (name: string, task: EngineTask) => EngineServer | undefined): void;
  /** One real call to a server an account offers, before it is saved; throws what went wrong. */
  testServer(task: EngineTask, server: EngineServer): Promise<void>;
  /**
   * The language model answering to a text engine name (the account's note engine: styles,
   * extraction and coding follow it too); undefined for the embedded writer. 400 for a name not here.
   */
  languageModel(name: string): LanguageModel | undefined;
  /** Loads an engine now; throws why it cannot run (a choice is refused then, the previous engine stays). */
  warm(task: EngineTask, name: string): Promise<void>;
  inUse(name: string): boolean;
  unload(name: string): Promise<boolean>;
  /** How the engine's recent calls went (last success, last failure and why, latency). */
  health(task: EngineTask, name: string): EngineHealthView;
  /** The record every call is written to (background checks add theirs). */
  readonly healthRecord: EngineHealth;
  close(): Promise<void>;
}

/** A live stream that gives its engine lease back once closed and its last recognition settled. */
function leasedStream(inner: SpeechStream, lease: Lease<unknown>): SpeechStream {
  let pending: Promise<unknown> = Promise.resolve();
  const track = <R>(p: Promise<R>): Promise<R> => {
    pending = Promise.allSettled([pending, p]);
    return p;
  };
  const { acceptAsync, finalizeUtteranceAsync } = inner;
  return {
    accept: (pcm) => inner.accept(pcm),
    partial: () => inner.partial(),
    finalizeUtterance: () => inner.finalizeUtterance(),
    ...(acceptAsync ? { acceptAsync: (pcm: Int16Array) => track(acceptAsync.call(inner, pcm)) } : {}),
    ...(finalizeUtteranceAsync ? { finalizeUtteranceAsync: () => track(finalizeUtteranceAsync.call(inner)) } : {}),
    close() {
      inner.close();
      void pending.then(() => lease.release());
    },
  };
}

type EnginePool = Pool<SpeechRecognizer | LanguageModel>;

/** Recognisers by name: handles that lease the pooled engine for each recognition or live session, and hand a failed model's or server's work to the embedded recogniser. */
function createRecognizers(pool: EnginePool, speechSpec: (name: string) => Spec<SpeechRecognizer> | undefined, fallback: { health: EngineHealth; policy: Policy }) {
  const recognizers = new Map<string, SpeechRecognizer>();
  const recognizer = (name: string): SpeechRecognizer => {
    const spec = speechSpec(name);
    if (!spec) throw notHere(name);
    const cached = recognizers.get(name);
    if (cached && cached.name === spec.engine && cached.model === spec.model) return cached;
    const key = `speech:${name}`;
    const handle: SpeechRecognizer = {
      name: spec.engine, sampleRate: 16000, ...(spec.model ? { model: spec.model } : {}),
      async transcribe(pcm, options) {
        const lease = pool.acquire(key) as Lease<SpeechRecognizer>;
        try {
          return await lease.instance.transcribe(pcm, options);
        } finally {
          lease.release();
        }
      },
      createStream(options) {
        const lease = pool.acquire(key) as Lease<SpeechRecognizer>;
        try {
          const inner = lease.instance.createStream ? lease.instance.createStream(options) : createUtteranceStream(lease.instance, options);
          return leasedStream(inner, lease);
        } catch (err) {
          lease.release();
          throw err;
        }
      },
    };
    // A model or server that fails hands the recording to the embedded recogniser, marked (fallback.ts).
    const guarded = spec.kind === 'embedded' ? handle : withSpeechFallback(handle, recognizer('pocketsphinx'), {
      name: key, chosen: { engine: spec.engine, ...(spec.model ? { model: spec.model } : {}) }, ...fallback,
    });
    recognizers.set(name, guarded);
    return guarded;
  };
  return recognizer;
}

/** A language model handle that leases the pooled model for each completion. */
function modelHandle(pool: EnginePool, name: string, engine: string): LanguageModel {
  return {
    name: engine,
    async complete(request) {
      const lease = pool.acquire(`text:${name}`) as Lease<LanguageModel>;
      try {
        return await lease.instance.complete(request);
      } finally {
        lease.release();
      }
    },
  };
}

function withProvenance(writer: NoteWriter, by: EngineUsed): NoteWriter {
  return {
    name: writer.name,
    write: async (input) => ({ ...(await writer.write(input)), generatedBy: by }),
  };
}

/** Note writers by name: each marks its notes with the engine that wrote them, says when a model does not list the note's language, and falls back to the embedded writer when its model or server fails. */
function createNoteWriters(config: ClindocConfig, pool: EnginePool, textSpec: (name: string) => TextSpec | undefined, fallback: { health: EngineHealth; policy: Policy }) {
  // The note languages each catalog model supports (data: the catalog's `languages`, from its model card).
  const catalogLanguages = new Map(loadModelCatalog(config, () => undefined).entries.map((e) => [e.id, e.languages]));
  const writers = new Map<string, NoteWriter>();
  return (name: string, options: NoteWriterOptions = {}): NoteWriter => {
    const spec = textSpec(name);
    if (!spec) throw notHere(name);
    const model = 'model' in spec ? spec.model : undefined;
    const chosen = { engine: spec.engine, ...(model ? { model } : {}) };
    const id = `${name}|${model ?? ''}`;
    let writer = writers.get(id);
    if (!writer) {
      writer = spec.engine === 'embedded'
        ? withProvenance(createEmbeddedNoteWriter(), { engine: 'embedded' })
        : withProvenance(createLlmNoteWriter(modelHandle(pool, name, spec.engine), { promptsDir: config.resources.promptsDir }), chosen);
      writers.set(id, writer);
    }
    if (spec.engine === 'embedded') return writer;
    const languages = model ? catalogLanguages.get(model) : undefined;
    if (model && languages) writer = withLanguageNotice(writer, model, languages);
    // A model or server that fails hands the note to the embedded writer, marked, unless the account asked to fail (fallback.ts).
    return withNoteFallback(writer, options.fallback ?? createEmbeddedNoteWriter(), { engine: 'embedded' }, {
      name: `text:${name}`, chosen, health: fallback.health, policy: options.policy ?? fallback.policy,
    });
  };
}

/** The engine registry of this device (see the top of this file). */
export function composeEngines(config: ClindocConfig, deps: EngineDeps): EngineRegistry {
  const health = deps.health ?? createEngineHealth({ coolDownMs: config.engineRetryAfterSeconds * 1000 });
  const fallback = { health, policy: deps.failurePolicy ?? ((): EngineFailurePolicy => config.engineFailure) };
  const book = createServerBook(config, health);
  const speechSpec = speechSpecs(config, deps, book);
  const textSpec = textSpecs(config, deps, book);
  const specOf = (key: string): Spec<SpeechRecognizer | LanguageModel> => {
    const [task, name] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
    const spec = task === 'speech' ? speechSpec(name) : textSpec(name);
    if (!spec || !('make' in spec)) throw notHere(name);
    return spec;
  };
  const pool = createEnginePool<SpeechRecognizer | LanguageModel>({
    create: (key) => specOf(key).make(),
    load: (_key, instance) => instance.load?.() ?? Promise.resolve(),
    dispose: async (_key, instance) => void (await instance.close?.()),
    // Embedded engines and servers hold little; models go when unused for CLINDOC_MODEL_IDLE_SECONDS.
    idleMs: (key) => (specOf(key).kind === 'model' ? config.models.idleSeconds * 1000 : 0),
    onUnload: (key) => deps.logger.info({ engine: key }, 'model unloaded after being unused'),
  });
  const specFor = (task: EngineTask, name: string): Spec<unknown> | TextSpec | undefined => (task === 'speech' ? speechSpec(name) : textSpec(name));
  const defaultTextEngine = config.llmBaseUrl && config.llmModel ? 'openai-compatible' : config.llmModelPath ? 'llama-cpp' : 'embedded';
  const installedNames = (task: EngineTask): string[] => deps.installedModels().filter((m) => m.task === task).map((m) => m.id);
  return {
    speechNames: () => ['pocketsphinx', ...(config.asrBaseUrl ? ['openai-compatible'] : []), ...(config.asrModelDir ? ['onnx-ctc', 'onnx-whisper'] : []), ...installedNames('speech')],
    textNames: () => ['embedded', ...(config.llmBaseUrl && config.llmModel ? ['openai-compatible'] : []), ...(config.llmModelPath ? ['llama-cpp'] : []), ...installedNames('text')],
    defaultTextEngine,
    describe(task, name) {
      const spec = specFor(task, name);
      if (!spec) return undefined;
      const model = 'model' in spec ? spec.model : undefined;
      return {
        name, task, engine: spec.engine, ...(model ? { model } : {}), kind: spec.kind,
        loaded: spec.kind === 'embedded' && task === 'text' ? true : new Set(pool.loaded()).has(`${task}:${name}`),
        ...(task === 'speech' ? { streaming: spec.engine === 'pocketsphinx' } : {}),
      };
    },
    recognizer: createRecognizers(pool, speechSpec, fallback),
    noteWriter: createNoteWriters(config, pool, textSpec, fallback),
    languageModel(name) {
      const spec = textSpec(name);
      if (!spec) throw notHere(name);
      return spec.engine === 'embedded' ? undefined : modelHandle(pool, name, spec.engine);
    },
    async warm(task, name) {
      const spec = specFor(task, name);
      if (!spec) throw notHere(name);
      if ('make' in spec) await pool.warm(`${task}:${name}`);
    },
    inUse: (name) => pool.inUse(`speech:${name}`) || pool.inUse(`text:${name}`),
    health: (task, name) => health.view(`${task}:${name}`),
    healthRecord: health,
    useAccountServers: (lookup) => book.useAccountServers(lookup),
    testServer: (task, server) => testServer(config, task, server).catch((err: unknown) => {
      throw err instanceof DomainError ? err : engineUnavailable('the test request failed');
    }),
    unload: async (name) => (await pool.unload(`speech:${name}`)) && (await pool.unload(`text:${name}`)),
    close: () => {
      book.stopChecks();
      return pool.close();
    },
  };
}
