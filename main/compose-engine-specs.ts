/**
 * What an engine name stands for on this device (compose-engines.ts builds the registry from it):
 * the device's configured engines, the servers accounts set up, and installed models, each with
 * how to make it. Read at each use, so a model installed a moment ago is there.
 */
import { basename } from 'node:path';
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import { DomainError, invalidRequest } from './services/errors.js';
import type { EngineHealth } from './services/engines/engine-health.js';
import type { EngineFailurePolicy } from './services/engines/fallback.js';
import { ACCOUNT_SERVER, type EngineServer } from './services/transcriptions/engine-settings.js';
import { serverModel, serverRecognizer, startServerChecks } from './compose-engine-servers.js';
import type { InstalledModelRecord } from './services/models/ports.js';
import type { LanguageModel } from './services/language-model.js';
import type { SpeechRecognizer } from './services/transcriptions/ports.js';
import type { RobustVad } from './engines/vad/index.js';
import { clinicalModelStatus, createPocketsphinxRecognizer, type PocketsphinxOptions } from './engines/speech/pocketsphinx/index.js';
import { createOpenAiCompatibleRecognizer } from './engines/speech/openai-compatible.js';
import { createOnnxCtcRecognizer, createOnnxWhisperRecognizer } from './engines/speech/onnx/index.js';
import { createOpenAiCompatibleModel } from './engines/llm/openai-compatible.js';
import { createLlamaCppModel } from './engines/llm/llama-cpp.js';

export type EngineTask = 'speech' | 'text';

/** An engine name's engine, model, kind (embedded, a downloaded model or a server) and maker. */
export interface Spec<T> {
  engine: string;
  model?: string;
  kind: 'embedded' | 'model' | 'server';
  make(): T;
}

export interface EngineDeps {
  logger: Pick<Logger, 'info'>;
  /** Installed models (read at each use, so a model installed a moment ago is there). */
  installedModels: () => Array<InstalledModelRecord & { location: string }>;
  batchVad: () => RobustVad;
  pocketsphinxFiles: { medical: boolean; resourcesDir: string };
  /** What to do when a chosen engine fails: the embedded engine's work, marked (default), or fail. */
  failurePolicy?: () => EngineFailurePolicy | Promise<EngineFailurePolicy>;
  health?: EngineHealth;
}

export type Policy = () => Promise<EngineFailurePolicy> | EngineFailurePolicy;
export type TextSpec = Spec<LanguageModel> | { engine: 'embedded'; kind: 'embedded' };

export const notHere = (name: string): DomainError => invalidRequest(`engine: "${name.slice(0, 40)}" is not configured or installed on this device`);

/**
 * The servers engines talk to (configured ones and those accounts set up), checked in the background
 * so a server that went down is known before the next note waits on it.
 */
export function createServerBook(config: ClindocConfig, health: EngineHealth) {
  let accountServers: (name: string, task: EngineTask) => EngineServer | undefined = () => undefined;
  // Servers engines were asked for, by health key, for the background checks.
  const servers = new Map<string, EngineServer>();
  if (config.llmBaseUrl && config.llmModel) servers.set('text:openai-compatible', { url: config.llmBaseUrl, model: config.llmModel, ...(config.llmApiKey ? { apiKey: config.llmApiKey } : {}) });
  if (config.asrBaseUrl) servers.set('speech:openai-compatible', { url: config.asrBaseUrl, model: config.asrModel ?? 'whisper-1', ...(config.asrApiKey ? { apiKey: config.asrApiKey } : {}) });
  const stopChecks = startServerChecks({
    servers: () => [...servers].map(([key, server]) => ({ key, server })), health,
    everyMs: config.engineCheckSeconds * 1000, timeoutMs: Math.min(config.llmTimeoutMs, 10_000),
  });
  return {
    /** An account's own server, when `name` is one of the `account-server@…` names. */
    ownServer(task: EngineTask, name: string): EngineServer | undefined {
      if (!name.startsWith(`${ACCOUNT_SERVER}@`)) return undefined;
      const server = accountServers(name, task);
      if (server) servers.set(`${task}:${name}`, server);
      return server;
    },
    useAccountServers(lookup: (name: string, task: EngineTask) => EngineServer | undefined): void {
      accountServers = lookup;
    },
    stopChecks,
  };
}

export type ServerBook = ReturnType<typeof createServerBook>;

/** The embedded recogniser's options on this device; an account's adapted recogniser adds its own `hmmDir`. */
export function pocketsphinxOptions(config: ClindocConfig, deps: Pick<EngineDeps, 'pocketsphinxFiles' | 'batchVad'>): PocketsphinxOptions {
  return {
    ...deps.pocketsphinxFiles, clinicalWeight: config.asrClinicalWeight, vad: deps.batchVad(), ...(config.asrThreads ? { threads: config.asrThreads } : {}),
    libraries: { ...(config.pocketsphinxLib ? { pocketsphinx: config.pocketsphinxLib } : {}), ...(config.sphinxbaseLib ? { sphinxbase: config.sphinxbaseLib } : {}) },
  };
}

/** What a speech engine name stands for on this device, and how to make it. */
export function speechSpecs(config: ClindocConfig, deps: EngineDeps, book: ServerBook): (name: string) => Spec<SpeechRecognizer> | undefined {
  const threads = config.asrThreads ? { threads: config.asrThreads } : {};
  const clinicalLoaded = clinicalModelStatus(deps.pocketsphinxFiles).loaded;
  const onnx = (engine: string, modelDir: string): SpeechRecognizer =>
    engine === 'onnx-ctc' ? createOnnxCtcRecognizer({ modelDir, ...threads }) : createOnnxWhisperRecognizer({ modelDir, ...threads });
  return (name) => {
    const own = book.ownServer('speech', name);
    if (own) return { engine: 'openai-compatible', kind: 'server', model: own.model, make: () => serverRecognizer(config, own) };
    if (name === 'pocketsphinx') {
      return {
        engine: 'pocketsphinx', kind: 'embedded', model: clinicalLoaded ? 'en-us + clinical' : 'en-us',
        make: () => createPocketsphinxRecognizer(pocketsphinxOptions(config, deps)),
      };
    }
    const { asrBaseUrl, asrModelDir } = config;
    if (name === 'openai-compatible' && asrBaseUrl) {
      const model = config.asrModel ?? 'whisper-1';
      return {
        engine: name, kind: 'server', model,
        make: () => createOpenAiCompatibleRecognizer({
          baseUrl: asrBaseUrl, model, timeoutMs: config.asrTimeoutMs, maxRetries: config.asrMaxRetries, ...(config.asrApiKey ? { apiKey: config.asrApiKey } : {}),
        }),
      };
    }
    if ((name === 'onnx-ctc' || name === 'onnx-whisper') && asrModelDir) {
      return { engine: name, kind: 'model', model: basename(asrModelDir), make: () => onnx(name, asrModelDir) };
    }
    const m = deps.installedModels().find((i) => i.id === name && i.task === 'speech');
    if (m && (m.engine === 'onnx-ctc' || m.engine === 'onnx-whisper')) return { engine: m.engine, kind: 'model', model: m.id, make: () => onnx(m.engine, m.location) };
    return undefined;
  };
}

/** What a text engine name stands for on this device, and how to make its language model (none for the embedded writer). */
export function textSpecs(config: ClindocConfig, deps: EngineDeps, book: ServerBook): (name: string) => TextSpec | undefined {
  const llama = (modelPath: string): LanguageModel => createLlamaCppModel({
    modelPath, ...(config.llmThreads ? { threads: config.llmThreads } : {}), ...(config.llmContextSize ? { contextSize: config.llmContextSize } : {}),
  });
  return (name) => {
    const own = book.ownServer('text', name);
    if (own) return { engine: 'openai-compatible', kind: 'server', model: own.model, make: () => serverModel(config, own) };
    if (name === 'embedded') return { engine: 'embedded', kind: 'embedded' };
    const { llmBaseUrl, llmModel, llmModelPath } = config;
    if (name === 'openai-compatible' && llmBaseUrl && llmModel) {
      return {
        engine: name, kind: 'server', model: llmModel,
        make: () => createOpenAiCompatibleModel({
          baseUrl: llmBaseUrl, model: llmModel, timeoutMs: config.llmTimeoutMs, ...(config.llmApiKey ? { apiKey: config.llmApiKey } : {}),
          ...(config.llmMaxRetries !== undefined ? { maxRetries: config.llmMaxRetries } : {}), stream: config.llmStream,
        }),
      };
    }
    if (name === 'llama-cpp' && llmModelPath) return { engine: name, kind: 'model', model: basename(llmModelPath), make: () => llama(llmModelPath) };
    const m = deps.installedModels().find((i) => i.id === name && i.task === 'text');
    if (m?.engine === 'llama-cpp') return { engine: 'llama-cpp', kind: 'model', model: m.id, make: () => llama(m.location) };
    return undefined;
  };
}

