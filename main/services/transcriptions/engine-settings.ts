/**
 * Which engines answer an account: the speech recogniser of its dictation and uploads, and the
 * writer of its notes. Precedence for speech: the upload's `engine` field, then the account's
 * choice (`PUT /v1/settings/engines`), then the device configuration (CLINDOC_ASR_ENGINE); for
 * notes: the account's choice, then the configured language model, else the embedded writer.
 *
 * What can be chosen is read at each call (configured engines plus installed models), so a model
 * installed while Clindoc runs can be chosen at once. A choice takes effect for the next
 * dictation, upload and note: nothing restarts, and a live session keeps the engine it started
 * with. A chosen model is loaded before the choice is saved; one that cannot load is refused with
 * the reason, and the account keeps the engine it had.
 */
import { DomainError, invalidRequest } from '../errors.js';

/** Storage of the per-account choices (null: follow the device configuration). */
export interface EngineSettingsStore {
  getAsrEngine(accountId: string): Promise<string | null>;
  setAsrEngine(accountId: string, engine: string | null): Promise<void>;
  getNoteEngine(accountId: string): Promise<string | null>;
  setNoteEngine(accountId: string, engine: string | null): Promise<void>;
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
  /** The recogniser an upload without `engine`, and a live session, uses. */
  asrEngine: string;
  /** `account` when the account chose it, `default` when it follows CLINDOC_ASR_ENGINE. */
  source: 'account' | 'default';
  /** Speech engines and installed speech models on this device, any of which may be chosen. */
  available: string[];
  /** The embedded recogniser's clinical language model: device state, the same for every account. */
  clinicalLanguageModel: ClinicalLanguageModelView;
  /** The engine or installed model that writes the account's notes. */
  noteEngine: string;
  noteSource: 'account' | 'default';
  /** Note engines and installed language models on this device. */
  noteAvailable: string[];
}

export interface EngineChoice {
  /** A speech engine or model; null returns to the device default; absent leaves it as it is. */
  asrEngine?: string | null;
  /** A note engine or language model; null returns to the device default; absent leaves it. */
  noteEngine?: string | null;
}

export interface EngineSettingsService {
  get(accountId: string): Promise<EngineSettingsView>;
  /** Sets the account's recogniser without loading it; null returns to the device default. 400 for an engine not here. */
  set(accountId: string, engine: string | null): Promise<EngineSettingsView>;
  /**
   * Sets the account's engines after loading each chosen one (400 for a name not here, 503 with
   * the reason when it cannot load; nothing changes then).
   */
  choose(accountId: string, choice: EngineChoice): Promise<EngineSettingsView>;
  /** The recogniser for one upload or live session: `requested` when given (validated), else the account's, else the device's. */
  resolve(accountId: string, requested?: string): Promise<string>;
  /** The note engine of an account. */
  resolveNotes(accountId: string): Promise<string>;
}

type Names = readonly string[] | (() => readonly string[]);
const listOf = (names: Names): string[] => [...(typeof names === 'function' ? names() : names)];

/**
 * Creates the engine-choice service. `available` lists what this device can run for speech (a
 * function when models may be installed at run time); `defaultEngine` is CLINDOC_ASR_ENGINE;
 * `notes` does the same for note writing (default: only the embedded writer); `warm` loads an
 * engine so a choice can be refused before it is saved.
 */
export function createEngineSettingsService(deps: {
  store: EngineSettingsStore;
  defaultEngine: string;
  available: Names;
  clinicalLanguageModel?: ClinicalLanguageModelView;
  notes?: { defaultEngine: string; available: Names };
  warm?: (task: 'speech' | 'text', engine: string) => Promise<void>;
}): EngineSettingsService {
  const clinicalLanguageModel = deps.clinicalLanguageModel ?? { loaded: false };
  const notes = deps.notes ?? { defaultEngine: 'embedded', available: ['embedded'] };
  const speechNames = (): string[] => [...new Set([deps.defaultEngine, ...listOf(deps.available)])];
  const noteNames = (): string[] => [...new Set([notes.defaultEngine, ...listOf(notes.available)])];
  const check = (engine: string, names: string[], field: string): string => {
    if (!names.includes(engine)) {
      throw invalidRequest(`${field}: "${engine.slice(0, 40)}" is not configured or installed on this device (available: ${names.join(', ')})`);
    }
    return engine;
  };
  const get = async (accountId: string): Promise<EngineSettingsView> => {
    const [own, ownNotes] = await Promise.all([deps.store.getAsrEngine(accountId), deps.store.getNoteEngine(accountId)]);
    const available = speechNames();
    const noteAvailable = noteNames();
    // A stored choice whose engine was since removed falls back rather than failing uploads and notes.
    const speech = own !== null && available.includes(own) ? { asrEngine: own, source: 'account' as const } : { asrEngine: deps.defaultEngine, source: 'default' as const };
    const text = ownNotes !== null && noteAvailable.includes(ownNotes)
      ? { noteEngine: ownNotes, noteSource: 'account' as const }
      : { noteEngine: notes.defaultEngine, noteSource: 'default' as const };
    return { ...speech, available, clinicalLanguageModel, ...text, noteAvailable };
  };
  const load = async (task: 'speech' | 'text', engine: string, previous: string): Promise<void> => {
    try {
      await deps.warm?.(task, engine);
    } catch (err) {
      const why = err instanceof DomainError ? err.message : 'it could not be loaded';
      throw new DomainError('engine_unavailable', `${engine} could not be loaded, so ${previous} stays in use: ${why}`);
    }
  };
  return {
    get,
    async set(accountId, engine) {
      await deps.store.setAsrEngine(accountId, engine === null ? null : check(engine, speechNames(), 'asrEngine'));
      return get(accountId);
    },
    async choose(accountId, choice) {
      const before = await get(accountId);
      const asr = choice.asrEngine ? check(choice.asrEngine, speechNames(), 'asrEngine') : choice.asrEngine;
      const note = choice.noteEngine ? check(choice.noteEngine, noteNames(), 'noteEngine') : choice.noteEngine;
      // Both load before either is saved: a refused choice changes nothing.
      if (asr && asr !== before.asrEngine) await load('speech', asr, before.asrEngine);
      if (note && note !== before.noteEngine) await load('text', note, before.noteEngine);
      if (asr !== undefined) await deps.store.setAsrEngine(accountId, asr);
      if (note !== undefined) await deps.store.setNoteEngine(accountId, note);
      return get(accountId);
    },
    resolve: async (accountId, requested) => (requested ? check(requested, speechNames(), 'engine') : (await get(accountId)).asrEngine),
    resolveNotes: async (accountId) => (await get(accountId)).noteEngine,
  };
}
