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
import { basename } from 'node:path';
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import { DomainError, engineUnavailable, invalidRequest } from './services/errors.js';
import { createEnginePool, type Lease } from './services/engines/engine-pool.js';
import { createEngineHealth, type EngineHealth, type EngineHealthView } from './services/engines/engine-health.js';
import { withNoteFallback, withSpeechFallback, type EngineFailurePolicy } from './services/engines/fallback.js';
import { ACCOUNT_SERVER, type EngineServer } from './services/transcriptions/engine-settings.js';
import { serverModel, serverRecognizer, startServerChecks, testServer } from './compose-engine-servers.js';
import { loadModelCatalog } from './compose-models.js';
import { withLanguageNotice } from './services/engines/language-notice.js';
import { createUtteranceStream } from './services/live/utterance-stream.js';
import type { InstalledModelRecord } from './services/models/ports.js';
import type { EngineUsed, NoteWriter } from './services/notes/ports.js';
import type { LanguageModel } from './services/language-model.js';
import type { SpeechRecognizer, SpeechStream } from './services/transcriptions/ports.js';
import type { RobustVad } from './engines/vad/index.js';
import { clinicalModelStatus, createPocketsphinxRecognizer } from './engines/speech/pocketsphinx/index.js';
import { createOpenAiCompatibleRecognizer } from './engines/speech/openai-compatible.js';
import { createOnnxCtcRecognizer, createOnnxWhisperRecognizer } from './engines/speech/onnx/index.js';
import { createOpenAiCompatibleModel } from './engines/llm/openai-compatible.js';
import { createLlamaCppModel } from './engines/llm/llama-cpp.js';
import { createLlmNoteWriter } from './engines/text/llm/note-writer.js';
import { createEmbeddedNoteWriter } from './engines/text/embedded/index.js';

export type EngineTask = 'speech' | 'text';

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
  noteWriter(name: string, options?: { policy?: () => Promise<EngineFailurePolicy> | EngineFailurePolicy }): NoteWriter;
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

interface Spec<T> {
  engine: string;
  model?: string;
  kind: EngineDescription['kind'];
  make(): T;
}

/** A live stream that gives its engine lease back once closed and its last recognition settled. */
function leasedStream(inner: SpeechStream, lease: Lease<unknown>): SpeechStream {
  let pending: Promise<unknown> = Promise.resolve();
  const track = <R>(p: Promise<R>): Promise<R> => {
    pending = Promise.allSettled([pending, p]);
    return p;
  };
  return {
    accept: (pcm) => inner.accept(pcm),
    partial: () => inner.partial(),
    finalizeUtterance: () => inner.finalizeUtterance(),
    ...(inner.acceptAsync ? { acceptAsync: (pcm: Int16Array) => track(inner.acceptAsync!(pcm)) } : {}),
    ...(inner.finalizeUtteranceAsync ? { finalizeUtteranceAsync: () => track(inner.finalizeUtteranceAsync!()) } : {}),
    close() {
      inner.close();
      void pending.then(() => lease.release());
    },
  };
}

export function composeEngines(config: ClindocConfig, deps: {
  logger: Pick<Logger, 'info'>;
  /** Installed models (read at each use, so a model installed a moment ago is there). */
  installedModels: () => Array<InstalledModelRecord & { location: string }>;
  batchVad: () => RobustVad;
  pocketsphinxFiles: { medical: boolean; resourcesDir: string };
  /** The embedded writer notes fall back to when a chosen model or server fails (default: in this thread). */
  fallbackNoteWriter?: () => NoteWriter;
  /** What to do when a chosen engine fails: the embedded engine's work, marked (default), or fail. */
  failurePolicy?: () => EngineFailurePolicy | Promise<EngineFailurePolicy>;
  health?: EngineHealth;
}): EngineRegistry {
  const health = deps.health ?? createEngineHealth({ coolDownMs: config.engineRetryAfterSeconds * 1000 });
  const policy = deps.failurePolicy ?? ((): EngineFailurePolicy => config.engineFailure);
  let accountServers: (name: string, task: EngineTask) => EngineServer | undefined = () => undefined;
  // Servers engines were asked for, by health key, for the background checks.
  const servers = new Map<string, EngineServer>();
  if (config.llmBaseUrl && config.llmModel) servers.set('text:openai-compatible', { url: config.llmBaseUrl, model: config.llmModel, ...(config.llmApiKey ? { apiKey: config.llmApiKey } : {}) });
  if (config.asrBaseUrl) servers.set('speech:openai-compatible', { url: config.asrBaseUrl, model: config.asrModel ?? 'whisper-1', ...(config.asrApiKey ? { apiKey: config.asrApiKey } : {}) });
  /** An account's own server, when `name` is one of {@link accountServerName}'s. */
  const ownServer = (task: EngineTask, name: string): EngineServer | undefined => {
    if (!name.startsWith(`${ACCOUNT_SERVER}@`)) return undefined;
    const server = accountServers(name, task);
    if (server) servers.set(`${task}:${name}`, server);
    return server;
  };
  const stopChecks = startServerChecks({
    servers: () => [...servers].map(([key, server]) => ({ key, server })), health,
    everyMs: config.engineCheckSeconds * 1000, timeoutMs: Math.min(config.llmTimeoutMs, 10_000),
  });
  const threads = config.asrThreads ? { threads: config.asrThreads } : {};
  const clinicalLoaded = clinicalModelStatus(deps.pocketsphinxFiles).loaded;
  const installed = (task: EngineTask, name: string) => deps.installedModels().find((m) => m.id === name && m.task === task);

  const speechSpec = (name: string): Spec<SpeechRecognizer> | undefined => {
    const own = ownServer('speech', name);
    if (own) return { engine: 'openai-compatible', kind: 'server', model: own.model, make: () => serverRecognizer(config, own) };
    if (name === 'pocketsphinx') {
      return {
        engine: 'pocketsphinx', kind: 'embedded', model: clinicalLoaded ? 'en-us + clinical' : 'en-us',
        make: () => createPocketsphinxRecognizer({
          ...deps.pocketsphinxFiles, clinicalWeight: config.asrClinicalWeight, vad: deps.batchVad(), ...threads,
          libraries: { ...(config.pocketsphinxLib ? { pocketsphinx: config.pocketsphinxLib } : {}), ...(config.sphinxbaseLib ? { sphinxbase: config.sphinxbaseLib } : {}) },
        }),
      };
    }
    if (name === 'openai-compatible' && config.asrBaseUrl) {
      const model = config.asrModel ?? 'whisper-1';
      return {
        engine: name, kind: 'server', model,
        make: () => createOpenAiCompatibleRecognizer({
          baseUrl: config.asrBaseUrl!, model, timeoutMs: config.asrTimeoutMs, maxRetries: config.asrMaxRetries, ...(config.asrApiKey ? { apiKey: config.asrApiKey } : {}),
        }),
      };
    }
    if ((name === 'onnx-ctc' || name === 'onnx-whisper') && config.asrModelDir) {
      const onnx = { modelDir: config.asrModelDir, ...threads };
      return { engine: name, kind: 'model', model: basename(config.asrModelDir), make: () => (name === 'onnx-ctc' ? createOnnxCtcRecognizer(onnx) : createOnnxWhisperRecognizer(onnx)) };
    }
    const m = installed('speech', name);
    if (m && (m.engine === 'onnx-ctc' || m.engine === 'onnx-whisper')) {
      const onnx = { modelDir: m.location, ...threads };
      return { engine: m.engine, kind: 'model', model: m.id, make: () => (m.engine === 'onnx-ctc' ? createOnnxCtcRecognizer(onnx) : createOnnxWhisperRecognizer(onnx)) };
    }
    return undefined;
  };

  const llama = (modelPath: string): LanguageModel => createLlamaCppModel({
    modelPath, ...(config.llmThreads ? { threads: config.llmThreads } : {}), ...(config.llmContextSize ? { contextSize: config.llmContextSize } : {}),
  });
  const textSpec = (name: string): Spec<LanguageModel> | { engine: 'embedded'; kind: 'embedded' } | undefined => {
    const own = ownServer('text', name);
    if (own) return { engine: 'openai-compatible', kind: 'server', model: own.model, make: () => serverModel(config, own) };
    if (name === 'embedded') return { engine: 'embedded', kind: 'embedded' };
    if (name === 'openai-compatible' && config.llmBaseUrl && config.llmModel) {
      return {
        engine: name, kind: 'server', model: config.llmModel,
        make: () => createOpenAiCompatibleModel({
          baseUrl: config.llmBaseUrl!, model: config.llmModel!, timeoutMs: config.llmTimeoutMs, ...(config.llmApiKey ? { apiKey: config.llmApiKey } : {}),
          ...(config.llmMaxRetries !== undefined ? { maxRetries: config.llmMaxRetries } : {}), stream: config.llmStream,
        }),
      };
    }
    if (name === 'llama-cpp' && config.llmModelPath) return { engine: name, kind: 'model', model: basename(config.llmModelPath), make: () => llama(config.llmModelPath!) };
    const m = installed('text', name);
    if (m?.engine === 'llama-cpp') return { engine: 'llama-cpp', kind: 'model', model: m.id, make: () => llama(m.location) };
    return undefined;
  };

  const specOf = (key: string): Spec<SpeechRecognizer | LanguageModel> => {
    const [task, name] = [key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1)];
    const spec = task === 'speech' ? speechSpec(name) : textSpec(name);
    if (!spec || !('make' in spec)) throw invalidRequest(`engine: "${name.slice(0, 40)}" is not configured or installed on this device`);
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

  const recognizers = new Map<string, SpeechRecognizer>();
  const recognizer = (name: string): SpeechRecognizer => {
    const spec = speechSpec(name);
    if (!spec) throw invalidRequest(`engine: "${name.slice(0, 40)}" is not configured or installed on this device`);
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
      name: key, chosen: { engine: spec.engine, ...(spec.model ? { model: spec.model } : {}) }, health, policy,
    });
    recognizers.set(name, guarded);
    return guarded;
  };

  const modelHandle = (name: string, engine: string): LanguageModel => ({
    name: engine,
    async complete(request) {
      const lease = pool.acquire(`text:${name}`) as Lease<LanguageModel>;
      try {
        return await lease.instance.complete(request);
      } finally {
        lease.release();
      }
    },
  });
  const withProvenance = (writer: NoteWriter, by: EngineUsed): NoteWriter => ({
    name: writer.name,
    write: async (input) => ({ ...(await writer.write(input)), generatedBy: by }),
  });
  // The note languages each catalog model supports (data: the catalog's `languages`, from its model card).
  const catalogLanguages = new Map(loadModelCatalog(config, () => undefined).entries.map((e) => [e.id, e.languages]));
  const writers = new Map<string, NoteWriter>();
  const noteWriter = (name: string, options: { policy?: () => Promise<EngineFailurePolicy> | EngineFailurePolicy } = {}): NoteWriter => {
    const spec = textSpec(name);
    if (!spec) throw invalidRequest(`engine: "${name.slice(0, 40)}" is not configured or installed on this device`);
    const id = `${name}|${'model' in spec ? spec.model : ''}`;
    let writer = writers.get(id);
    if (!writer) {
      const chosen = { engine: spec.engine, ...('model' in spec && spec.model ? { model: spec.model } : {}) };
      writer = spec.engine === 'embedded'
        ? withProvenance(createEmbeddedNoteWriter(), { engine: 'embedded' })
        : withProvenance(createLlmNoteWriter(modelHandle(name, spec.engine), { promptsDir: config.resources.promptsDir }), chosen);
      writers.set(id, writer);
    }
    if (spec.engine === 'embedded') return writer;
    const model = 'model' in spec ? spec.model : undefined;
    const languages = model ? catalogLanguages.get(model) : undefined;
    if (model && languages) writer = withLanguageNotice(writer, model, languages);
    // A model or server that fails hands the note to the embedded writer, marked, unless the account asked to fail (fallback.ts).
    const chosen = { engine: spec.engine, ...('model' in spec && spec.model ? { model: spec.model } : {}) };
    return withNoteFallback(writer, deps.fallbackNoteWriter?.() ?? createEmbeddedNoteWriter(), { engine: 'embedded' }, {
      name: `text:${name}`, chosen, health, policy: options.policy ?? policy,
    });
  };

  const defaultTextEngine = config.llmBaseUrl && config.llmModel ? 'openai-compatible' : config.llmModelPath ? 'llama-cpp' : 'embedded';
  const loadedNames = (): Set<string> => new Set(pool.loaded());
  return {
    speechNames: () => [
      'pocketsphinx', ...(config.asrBaseUrl ? ['openai-compatible'] : []), ...(config.asrModelDir ? ['onnx-ctc', 'onnx-whisper'] : []),
      ...deps.installedModels().filter((m) => m.task === 'speech').map((m) => m.id),
    ],
    textNames: () => [
      'embedded', ...(config.llmBaseUrl && config.llmModel ? ['openai-compatible'] : []), ...(config.llmModelPath ? ['llama-cpp'] : []),
      ...deps.installedModels().filter((m) => m.task === 'text').map((m) => m.id),
    ],
    defaultTextEngine,
    describe(task, name) {
      const spec = task === 'speech' ? speechSpec(name) : textSpec(name);
      if (!spec) return undefined;
      const model = 'model' in spec ? spec.model : undefined;
      return {
        name, task, engine: spec.engine, ...(model ? { model } : {}), kind: spec.kind,
        loaded: spec.kind === 'embedded' && task === 'text' ? true : loadedNames().has(`${task}:${name}`),
        ...(task === 'speech' ? { streaming: spec.engine === 'pocketsphinx' } : {}),
      };
    },
    recognizer,
    noteWriter,
    languageModel(name) {
      const spec = textSpec(name);
      if (!spec) throw invalidRequest(`engine: "${name.slice(0, 40)}" is not configured or installed on this device`);
      return spec.engine === 'embedded' ? undefined : modelHandle(name, spec.engine);
    },
    async warm(task, name) {
      const spec = task === 'speech' ? speechSpec(name) : textSpec(name);
      if (!spec) throw invalidRequest(`engine: "${name.slice(0, 40)}" is not configured or installed on this device`);
      if ('make' in spec) await pool.warm(`${task}:${name}`);
    },
    inUse: (name) => pool.inUse(`speech:${name}`) || pool.inUse(`text:${name}`),
    health: (task, name) => health.view(`${task}:${name}`),
    healthRecord: health,
    useAccountServers(lookup) {
      accountServers = lookup;
    },
    testServer: (task, server) => testServer(config, task, server).catch((err: unknown) => {
      throw err instanceof DomainError ? err : engineUnavailable('the test request failed');
    }),
    unload: async (name) => (await pool.unload(`speech:${name}`)) && (await pool.unload(`text:${name}`)),
    close: () => {
      stopChecks();
      return pool.close();
    },
  };
}
