/**
 * Which speech recogniser transcribes an account's uploads. Precedence: the upload's `engine`
 * field, then the account's default (`PUT /v1/settings/engines`), then the device configuration
 * (CLINDOC_ASR_ENGINE). Only engines configured on this device can be chosen, so a bad name is a
 * 400 at upload or settings time rather than a failed job later.
 */
import { invalidRequest } from '../errors.js';

/** Storage of the per-account default (null: follow the device configuration). */
export interface EngineSettingsStore {
  getAsrEngine(accountId: string): string | null;
  setAsrEngine(accountId: string, engine: string | null): void;
}

/** Whether the embedded recogniser uses the clinical language model (decided by composition at start-up). */
export interface ClinicalLanguageModelView {
  loaded: boolean;
  /** Folder it is loaded from, or where it was looked for. */
  path?: string;
  /** Why it is not loaded. */
  reason?: 'disabled' | 'missing';
}

export interface EngineSettingsView {
  /** The recogniser an upload without `engine` uses. */
  asrEngine: string;
  /** `account` when the account chose it, `default` when it follows CLINDOC_ASR_ENGINE. */
  source: 'account' | 'default';
  /** Engines configured on this device, any of which may be chosen. */
  available: string[];
  /** The embedded recogniser's clinical language model: device state, the same for every account. */
  clinicalLanguageModel: ClinicalLanguageModelView;
}

export interface EngineSettingsService {
  get(accountId: string): EngineSettingsView;
  /** Sets the account default; null returns to the device default. 400 for an engine not configured here. */
  set(accountId: string, engine: string | null): EngineSettingsView;
  /** The engine for one upload: `requested` when given (validated), else the account default, else the device default. */
  resolve(accountId: string, requested?: string): string;
}

/**
 * Creates the engine-choice service. `available` lists the engines this device can run (from
 * configuration); `defaultEngine` is CLINDOC_ASR_ENGINE; `clinicalLanguageModel` is what the
 * embedded recogniser found at start-up (default: not loaded, reason unknown to this service).
 */
export function createEngineSettingsService(deps: {
  store: EngineSettingsStore;
  defaultEngine: string;
  available: readonly string[];
  clinicalLanguageModel?: ClinicalLanguageModelView;
}): EngineSettingsService {
  const available = [...new Set([deps.defaultEngine, ...deps.available])];
  const clinicalLanguageModel = deps.clinicalLanguageModel ?? { loaded: false };
  const check = (engine: string): string => {
    if (!available.includes(engine)) {
      throw invalidRequest(`engine: "${engine.slice(0, 40)}" is not configured on this device (available: ${available.join(', ')})`);
    }
    return engine;
  };
  const get = (accountId: string): EngineSettingsView => {
    const own = deps.store.getAsrEngine(accountId);
    // A stored choice whose engine was since unconfigured falls back rather than failing uploads.
    if (own !== null && available.includes(own)) return { asrEngine: own, source: 'account', available, clinicalLanguageModel };
    return { asrEngine: deps.defaultEngine, source: 'default', available, clinicalLanguageModel };
  };
  return {
    get,
    set(accountId, engine) {
      deps.store.setAsrEngine(accountId, engine === null ? null : check(engine));
      return get(accountId);
    },
    resolve: (accountId, requested) => (requested ? check(requested) : get(accountId).asrEngine),
  };
}
