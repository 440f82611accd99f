import { createContext, useContext, type ReactNode } from 'react';
import { useStore, type StoreApi } from 'zustand';
import { useShallow } from 'zustand/shallow';
import { saidUnreachable } from '../api/client.js';
import type { ConnectionEnv, DesktopBridge } from '../api/connection.js';
import { listMicrophones, startCapture } from '../audio/capture.js';
import { createStreamClient } from '../audio/stream-client.js';
import { createCodesStore, type CodesState } from './codes-store.js';
import { createConnectionStore, type ConnectionState } from './connection-store.js';
import { createDictationStore, type DictationDeps, type DictationState } from './dictation-store.js';
import { createNoteStore, type NoteState } from './note-store.js';
import { createPrefsStore, type PrefsState } from './prefs-store.js';
import { createVisitStore, type VisitState } from './visit-store.js';
import { createVoiceStore, type VoiceState } from './voice-store.js';

export interface AppStores {
  connection: StoreApi<ConnectionState>;
  dictation: StoreApi<DictationState>;
  notes: StoreApi<NoteState>;
  prefs: StoreApi<PrefsState>;
  visits: StoreApi<VisitState>;
  /** Coding suggestions for the note on screen; accepted codes are saved with the visit. */
  codes: StoreApi<CodesState>;
  /** The voice enrollment and the adapted recogniser of the account (issue 27 point 9). */
  voice: StoreApi<VoiceState>;
  bridge: DesktopBridge | undefined;
}

export interface AppEnv {
  bridge: DesktopBridge | undefined;
  connectionEnv: ConnectionEnv;
  local: Pick<Storage, 'getItem' | 'setItem'> & Partial<Pick<Storage, 'removeItem'>>;
  fetch?: typeof fetch;
  /** Autosave delay of the open visit (tests shorten it). */
  autosaveMs?: number;
  /** Audio and socket seams; the browser's by default. */
  dictation?: Partial<Omit<DictationDeps, 'client'>>;
  /** How often a running voice adaptation is read again (ms; tests shorten it). */
  voicePollMs?: number;
}

/** Wires the app's stores together. No module-level singletons: tests build their own. */
export function createAppStores(env: AppEnv): AppStores {
  const prefs = createPrefsStore(env.local);
  // Before the interface moves between this computer and a clinic server, the open visit is saved
  // where it belongs and closed, so nothing of one server is autosaved into the other.
  const beforeSwitch = async (): Promise<string | undefined> => {
    if (dictation.getState().status !== 'idle') await dictation.getState().stop();
    await visits.getState().flush();
    const { save, saveError } = visits.getState();
    if (save === 'conflict' || save === 'error') return `The open visit is not saved yet (${saveError ?? 'not saved'}). Save it, or start a new visit, before changing servers.`;
    await visits.getState().startNew();
    // Lists read from the other server go too; each page reads its own again from the new one.
    visits.setState({ items: [], nextCursor: null, query: '', listError: undefined });
    dictation.setState({ macros: [] });
    notes.setState({ templates: [] });
    return undefined;
  };
  const connection = createConnectionStore({ env: env.connectionEnv, beforeSwitch, ...(env.fetch ? { fetch: env.fetch } : {}) });
  const client = () => (connection.getState().status === 'ready' ? connection.getState().client : undefined);
  const dictation = createDictationStore({
    client,
    startCapture,
    listMicrophones,
    createStream: createStreamClient,
    now: () => performance.now(),
    ...env.dictation,
  });
  const { formatting, language, insertion, micProcessing } = prefs.getState();
  dictation.setState({ formatting, language, insertion, micProcessing });
  // Recordings follow the account's recogniser (Settings > Engines, stored by the local API), so
  // every integration and this window agree on it.
  const notes = createNoteStore({ client, storage: env.local, defaultLanguage: prefs.getState().language });
  // Everything typed or dictated autosaves into the open visit; once connected, the visit this
  // browser was working on (before a reload, a crash or a quit) is opened again.
  const visits = createVisitStore({ client, dictation, notes, storage: env.local, ...(env.autosaveMs !== undefined ? { debounceMs: env.autosaveMs } : {}) });
  let outage = false;
  connection.subscribe((s, prev) => {
    if (s.status === 'ready' && prev.status !== 'ready') void visits.getState().restore();
    if (s.status === 'offline') outage = true;
    // Back after an outage (offline, then checking, then ready): what said the server could not be
    // reached is no longer true, and what waited to be saved is saved now rather than at the next retry.
    if (s.status === 'ready' && outage) {
      outage = false;
      dictation.setState((d) => ({ errors: d.errors.filter((e) => !saidUnreachable(e.message)) }));
      if (notes.getState().error && saidUnreachable(notes.getState().error!)) notes.setState({ error: undefined });
      if (visits.getState().listError) visits.setState({ listError: undefined });
      if (visits.getState().save === 'error') void visits.getState().flush();
    }
  });
  const codes = createCodesStore({ client, visits });
  // The enrollment records through the same capture and microphone as dictation.
  const voice = createVoiceStore({
    client, startCapture: env.dictation?.startCapture ?? startCapture, deviceId: () => dictation.getState().deviceId || undefined,
    ...(env.voicePollMs !== undefined ? { pollMs: env.voicePollMs } : {}),
  });
  return { connection, dictation, notes, prefs, visits, codes, voice, bridge: env.bridge };
}

const StoresContext = createContext<AppStores | undefined>(undefined);

export function StoresProvider({ stores, children }: { stores: AppStores; children: ReactNode }) {
  return <StoresContext.Provider value={stores}>{children}</StoresContext.Provider>;
}

/** The app's stores (inside StoresProvider). */
export function useStores(): AppStores {
  const stores = useContext(StoresContext);
  if (!stores) throw new Error('useStores outside StoresProvider');
  return stores;
}

export const useConnection = <T,>(pick: (s: ConnectionState) => T): T => useStore(useStores().connection, pick);
export const useDictation = <T,>(pick: (s: DictationState) => T): T => useStore(useStores().dictation, pick);
export const useNotes = <T,>(pick: (s: NoteState) => T): T => useStore(useStores().notes, pick);
export const usePrefs = <T,>(pick: (s: PrefsState) => T): T => useStore(useStores().prefs, pick);
export const useCodes = <T,>(pick: (s: CodesState) => T): T => useStore(useStores().codes, pick);
export const useVisits = <T,>(pick: (s: VisitState) => T): T => useStore(useStores().visits, pick);
export const useVoice = <T,>(pick: (s: VoiceState) => T): T => useStore(useStores().voice, pick);

/**
 * Several fields of one store at once: `const { markdown, date } = useFields(notes, 'markdown', 'date')`.
 * The fields are compared one by one (a shallow compare), so the component re-renders when one of
 * them changes, as it would with one selector per field, and not on every change of the store.
 */
export function useFields<S, K extends keyof S>(store: StoreApi<S>, ...keys: K[]): Pick<S, K> {
  return useStore(store, useShallow((s: S) => {
    const picked = {} as Pick<S, K>;
    for (const key of keys) picked[key] = s[key];
    return picked;
  }));
}
