/**
 * Part of the one composition: the engines of this device (compose-engines.ts) and each account's
 * choice among them (the engine settings of the Settings page), with the voice activity detectors
 * they share. Styles, extraction and coding follow an account's note engine (issue 26 point 5).
 */
import type { Logger } from 'pino';
import type { ClindocConfig } from './config.js';
import { composeEngines, type EngineRegistry } from './compose-engines.js';
import type { ComposedModels } from './compose-models.js';
import { createEngineSettingsService, type EngineSettingsService, type EngineSettingsStore } from './services/transcriptions/engine-settings.js';
import type { SpeechRecognizer } from './services/transcriptions/ports.js';
import type { TextEngineOf } from './services/compute/offloaded.js';
import { clinicalModelStatus } from './engines/speech/pocketsphinx/index.js';
import { createRobustVad, createSileroVad, type RobustVad, type SileroVad } from './engines/vad/index.js';

export interface ComposedEngines {
  /** Engines by name (configured ones and installed models), built on first use and unloaded when idle. */
  registry: EngineRegistry;
  /** Each account's engines: speech, notes, its own servers, what to do when one fails. */
  settings: EngineSettingsService;
  /** The recogniser answering to a name (default the device's, CLINDOC_ASR_ENGINE). */
  recognizer(engine?: string): SpeechRecognizer;
  /** Live endpointing: Silero, loaded at first use. */
  liveVad(): SileroVad;
  /** Batch segmentation and diarization: Silero plus an energy detector, loaded at first use. */
  batchVad(): RobustVad;
  /** The text engine an account's notes, styles, extraction and coding follow. */
  textEngineOf: TextEngineOf;
}

/** The two detectors, each made at its first use. */
function voiceActivity(config: ClindocConfig): Pick<ComposedEngines, 'liveVad' | 'batchVad'> {
  let silero: SileroVad | undefined;
  const liveVad = (): SileroVad => (silero ??= createSileroVad({ threshold: config.vadThreshold }));
  // Batch work uses Silero plus an energy detector, so speech Silero does not hear (narrow-band,
  // codec-processed) is still recognised and attributed; live endpointing keeps Silero.
  let robust: RobustVad | undefined;
  const batchVad = (): RobustVad => (robust ??= createRobustVad({ model: liveVad(), minCoverage: config.vadMinCoverage }));
  return { liveVad, batchVad };
}

export function composeEngineChoice(config: ClindocConfig, logger: Logger, store: EngineSettingsStore, models: Pick<ComposedModels, 'service' | 'engines'>): ComposedEngines {
  const { liveVad, batchVad } = voiceActivity(config);
  // Bundled files are found from the installation, not the working directory; an absent one is a
  // warning with a fallback, never a failed start or a failed transcription.
  const pocketsphinxFiles = { medical: config.asrMedical, resourcesDir: config.resources.asrDir };
  // Each account's choice applies to its next dictation, upload and note.
  const registry = composeEngines(config, { logger, installedModels: () => models.service.installed(), batchVad, pocketsphinxFiles });
  models.engines.bind(registry);
  const clinicalLanguageModel = clinicalModelStatus(pocketsphinxFiles);
  if (clinicalLanguageModel.reason === 'missing') {
    logger.warn({ path: clinicalLanguageModel.path }, 'clinical language model missing: the embedded recogniser uses the general English model');
  }
  const settings = createEngineSettingsService({
    store, defaultEngine: config.asrEngine,
    available: () => registry.speechNames(),
    clinicalLanguageModel,
    notes: { defaultEngine: registry.defaultTextEngine, available: () => registry.textNames() },
    warm: (task, name) => registry.warm(task, name),
    defaultFailurePolicy: config.engineFailure,
    testServer: (task, server) => registry.testServer(task, server),
  });
  // Servers accounts set up in Settings are engines too, found by name at each use.
  registry.useAccountServers((name, task) => settings.serverByName(name, task));
  // An account that chose the embedded writer sends nothing to a language model; one that chose a
  // model or server has its templates, text-to-JSON and code proposals from that engine.
  const textEngineOf: TextEngineOf = async (accountId) => {
    const name = accountId ? await settings.resolveNotes(accountId) : registry.defaultTextEngine;
    return { name, engine: registry.describe('text', name)?.engine ?? name };
  };
  return { registry, settings, recognizer: (engine = config.asrEngine) => registry.recognizer(engine), liveVad, batchVad, textEngineOf };
}
