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
import { createHash } from 'node:crypto';
import { DomainError, invalidRequest } from '../errors.js';
import type { EngineSettingsBody } from '../../../shared/api/schemas.js';

/** What an account wants when its chosen engine fails: the embedded engine's work (marked), or a failure. */
export type EngineFailurePolicy = 'embedded' | 'fail';

/** An OpenAI-compatible server an account chose for one task (its key is sealed at rest by the store). */
export interface EngineServer {
  url: string;
  model: string;
  apiKey?: string;
}
/** The servers an account chose, by task: `notes` (language model) and `speech` (transcription). */
export interface EngineServers {
  notes?: EngineServer;
  speech?: EngineServer;
}

/** The engine name an account's own server goes by in its settings (`noteEngine`, `asrEngine`). */
export const ACCOUNT_SERVER = 'account-server';

/** Storage of the per-account choices (null: follow the device configuration). */
export interface EngineSettingsStore {
  getAsrEngine(accountId: string): Promise<string | null>;
  setAsrEngine(accountId: string, engine: string | null): Promise<void>;
  getNoteEngine(accountId: string): Promise<string | null>;
  setNoteEngine(accountId: string, engine: string | null): Promise<void>;
  getFailurePolicy(accountId: string): Promise<EngineFailurePolicy | null>;
  setFailurePolicy(accountId: string, policy: EngineFailurePolicy | null): Promise<void>;
  /** The account's servers; the store seals them (keys included) at rest. */
  getServers(accountId: string): Promise<EngineServers | null>;
  setServers(accountId: string, servers: EngineServers | null): Promise<void>;
}

/** The registry name of an account's server: changes whenever its address, model or key does, so a switch takes effect at once. */
export function accountServerName(accountId: string, server: EngineServer): string {
  const print = createHash('sha256').update(`${server.url}\n${server.model}\n${server.apiKey ?? ''}`).digest('hex').slice(0, 12);
  return `${ACCOUNT_SERVER}@${accountId}@${print}`;
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
  /** When a chosen engine fails: `embedded` (the embedded engine does the work, marked) or `fail`. */
  onEngineFailure: EngineFailurePolicy;
  failureSource: 'account' | 'default';
  /** The account's own servers, by task; keys are never shown, only whether one is kept. */
  servers: { notes?: ServerView; speech?: ServerView };
}

export interface ServerView {
  url: string;
  model: string;
  hasKey: boolean;
}

/**
 * A change of engines, as `PUT /v1/settings/engines` validates it (the API schema's type): each
 * engine or model null to return to the device default, absent to leave it; a server per task is
 * tested with a real call before it is saved and chosen (`account-server`), null removes it.
 */
export type EngineChoice = EngineSettingsBody;

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
  /** The note engine of an account (its own server by its registry name). */
  resolveNotes(accountId: string): Promise<string>;
  /** The account's wish when a chosen engine fails. */
  failurePolicy(accountId: string): Promise<EngineFailurePolicy>;
  /** The server a registry name of {@link accountServerName} stands for, from the settings last read (sync: engines ask at each use). */
  serverByName(name: string, task: 'speech' | 'text'): EngineServer | undefined;
}

type Names = readonly string[] | (() => readonly string[]);
const listOf = (names: Names): string[] => [...(typeof names === 'function' ? names() : names)];

type Task = 'speech' | 'text';

/** Loads a newly chosen model before it is saved; one that cannot load is refused and the previous one stays. */
async function warmChoice(warm: ((task: Task, engine: string) => Promise<void>) | undefined, task: Task, engine: string, previous: string): Promise<void> {
  try {
    await warm?.(task, engine);
  } catch (err) {
    const why = err instanceof DomainError ? err.message : 'it could not be loaded';
    throw new DomainError('engine_unavailable', `${engine} could not be loaded, so ${previous} stays in use: ${why}`);
  }
}

/** Tests a server with a real call; a failure is refused with what happened and nothing is saved. */
async function testChoice(testServer: ((task: Task, server: EngineServer) => Promise<void>) | undefined, task: Task, field: string, server: EngineServer): Promise<void> {
  let host: string;
  try {
    host = new URL(server.url).host;
  } catch {
    host = '';
  }
  if (!/^https?:\/\/[^\s/]+/.test(server.url) || host === '') throw invalidRequest(`${field}.url: must be an http:// or https:// address`);
  try {
    await testServer?.(task, server);
  } catch (err) {
    const why = err instanceof DomainError ? err.message : 'it could not be reached';
    throw new DomainError('invalid_request', `${field}: the server at ${host} failed a test request, so nothing was saved: ${why}`);
  }
}

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
  /** CLINDOC_ENGINE_FAILURE: what accounts that chose nothing get. Default `embedded`. */
  defaultFailurePolicy?: EngineFailurePolicy;
  /** Makes one real call to a server before it is saved; throws a DomainError saying what went wrong. */
  testServer?: (task: 'speech' | 'text', server: EngineServer) => Promise<void>;
}): EngineSettingsService {
  const clinicalLanguageModel = deps.clinicalLanguageModel ?? { loaded: false };
  const notes = deps.notes ?? { defaultEngine: 'embedded', available: ['embedded'] };
  // The servers each account had when its settings were last read, so engines can find them without waiting.
  const known = new Map<string, EngineServers>();
  const serversOf = async (accountId: string): Promise<EngineServers> => {
    const servers = (await deps.store.getServers(accountId)) ?? {};
    known.set(accountId, servers);
    return servers;
  };
  const speechNames = (own?: EngineServer): string[] => [...new Set([deps.defaultEngine, ...listOf(deps.available), ...(own ? [ACCOUNT_SERVER] : [])])];
  const noteNames = (own?: EngineServer): string[] => [...new Set([notes.defaultEngine, ...listOf(notes.available), ...(own ? [ACCOUNT_SERVER] : [])])];
  const check = (engine: string, names: string[], field: string): string => {
    if (!names.includes(engine)) {
      throw invalidRequest(`${field}: "${engine.slice(0, 40)}" is not configured or installed on this device (available: ${names.join(', ')})`);
    }
    return engine;
  };
  const serverView = (server: EngineServer | undefined): ServerView | undefined => (server ? { url: server.url, model: server.model, hasKey: Boolean(server.apiKey) } : undefined);
  const get = async (accountId: string): Promise<EngineSettingsView> => {
    const [own, ownNotes, policy, servers] = await Promise.all([
      deps.store.getAsrEngine(accountId), deps.store.getNoteEngine(accountId), deps.store.getFailurePolicy(accountId), serversOf(accountId),
    ]);
    const available = speechNames(servers.speech);
    const noteAvailable = noteNames(servers.notes);
    // A stored choice whose engine was since removed falls back rather than failing uploads and notes.
    const speech = own !== null && available.includes(own) ? { asrEngine: own, source: 'account' as const } : { asrEngine: deps.defaultEngine, source: 'default' as const };
    const text = ownNotes !== null && noteAvailable.includes(ownNotes)
      ? { noteEngine: ownNotes, noteSource: 'account' as const }
      : { noteEngine: notes.defaultEngine, noteSource: 'default' as const };
    const failure = policy ? { onEngineFailure: policy, failureSource: 'account' as const } : { onEngineFailure: deps.defaultFailurePolicy ?? 'embedded', failureSource: 'default' as const };
    const shown = { ...(servers.notes ? { notes: serverView(servers.notes)! } : {}), ...(servers.speech ? { speech: serverView(servers.speech)! } : {}) };
    return { ...speech, available, clinicalLanguageModel, ...text, noteAvailable, ...failure, servers: shown };
  };
  const load = (task: 'speech' | 'text', engine: string, previous: string): Promise<void> => warmChoice(deps.warm, task, engine, previous);
  const tryServer = (task: 'speech' | 'text', field: string, server: EngineServer): Promise<void> => testChoice(deps.testServer, task, field, server);
  const nameOf = (accountId: string, engine: string, server: EngineServer | undefined): string =>
    engine === ACCOUNT_SERVER && server ? accountServerName(accountId, server) : engine;
  return {
    get,
    async set(accountId, engine) {
      const servers = await serversOf(accountId);
      await deps.store.setAsrEngine(accountId, engine === null ? null : check(engine, speechNames(servers.speech), 'asrEngine'));
      return get(accountId);
    },
    async choose(accountId, choice) {
      const before = await get(accountId);
      const servers = { ...(await serversOf(accountId)) };
      // Servers first: each is tested with a real call before anything is saved.
      const changed = choice.servers ?? {};
      if (changed.notes) await tryServer('text', 'servers.notes', changed.notes);
      if (changed.speech) await tryServer('speech', 'servers.speech', changed.speech);
      for (const task of ['notes', 'speech'] as const) {
        if (changed[task] === null) delete servers[task];
        else if (changed[task]) servers[task] = { url: changed[task]!.url.replace(/\/+$/, ''), model: changed[task]!.model, ...(changed[task]!.apiKey ? { apiKey: changed[task]!.apiKey } : {}) };
      }
      // A server just given is chosen for its task unless the request chooses something else.
      let asr = choice.asrEngine ?? (changed.speech ? ACCOUNT_SERVER : changed.speech === null && before.asrEngine === ACCOUNT_SERVER ? null : undefined);
      let note = choice.noteEngine ?? (changed.notes ? ACCOUNT_SERVER : changed.notes === null && before.noteEngine === ACCOUNT_SERVER ? null : undefined);
      if (choice.asrEngine === null) asr = null;
      if (choice.noteEngine === null) note = null;
      if (asr) check(asr, speechNames(servers.speech), 'asrEngine');
      if (note) check(note, noteNames(servers.notes), 'noteEngine');
      // Models load before anything is saved: a refused choice changes nothing. A server was tested above.
      if (asr && asr !== ACCOUNT_SERVER && asr !== before.asrEngine) await load('speech', asr, before.asrEngine);
      if (note && note !== ACCOUNT_SERVER && note !== before.noteEngine) await load('text', note, before.noteEngine);
      if (choice.servers) await deps.store.setServers(accountId, Object.keys(servers).length ? servers : null);
      if (asr !== undefined) await deps.store.setAsrEngine(accountId, asr);
      if (note !== undefined) await deps.store.setNoteEngine(accountId, note);
      if (choice.onEngineFailure !== undefined) await deps.store.setFailurePolicy(accountId, choice.onEngineFailure);
      return get(accountId);
    },
    async resolve(accountId, requested) {
      const view = await get(accountId);
      const engine = requested ? check(requested, view.available, 'engine') : view.asrEngine;
      return nameOf(accountId, engine, known.get(accountId)?.speech);
    },
    async resolveNotes(accountId) {
      const view = await get(accountId);
      return nameOf(accountId, view.noteEngine, known.get(accountId)?.notes);
    },
    failurePolicy: async (accountId) => (await get(accountId)).onEngineFailure,
    serverByName(name, task) {
      const [, accountId] = name.split('@');
      const server = accountId ? known.get(accountId)?.[task === 'text' ? 'notes' : 'speech'] : undefined;
      return server && accountServerName(accountId!, server) === name ? server : undefined;
    },
  };
}
