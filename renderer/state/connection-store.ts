import { createStore, type StoreApi } from 'zustand/vanilla';
import { ApiError, createApiClient, type ApiClient } from '../api/client.js';
import { clearClinicServer, maskKey, normalizeServerUrl, readClinicServer, saveClinicServer, type ClinicServer } from '../api/clinic-server.js';
import { CREDENTIALS_KEY, resolveConnection, SIGNED_OUT_KEY, signedOut, signOut, SignInLinkError, storeCredentials, type ConnectionEnv, type ConnectionSource } from '../api/connection.js';
import type { Connection } from '../api/types.js';

/** What Settings shows of the saved clinic server: never the whole key. */
export interface ClinicServerView {
  baseUrl: string;
  accountId: string;
  keyHint: string;
}

/** A clinic server as typed in Settings; an empty key means the saved one (same address and account). */
export interface ClinicServerInput {
  baseUrl: string;
  accountId: string;
  apiKey: string;
}

/** The outcome of testing or choosing a clinic server, worded for the physician. */
export type ClinicResult = { ok: true; message: string } | { ok: false; message: string };

export interface ConnectionState {
  status: 'loading' | 'missing' | 'checking' | 'ready' | 'rejected' | 'offline';
  source?: ConnectionSource;
  connection?: Connection;
  client?: ApiClient;
  message?: string;
  /** Looks for credentials (bridge, link, storage) and checks them against the API. */
  load(): Promise<void>;
  /** Uses credentials the user typed; `remember` keeps them on this computer. */
  enter(accountId: string, apiKey: string, remember: boolean): Promise<void>;
  /** "Sign out": forgets the credentials on this computer; the key form (or, in the desktop app, "Sign in") comes back. */
  signOut(): void;
  /** Whether the physician signed out here; the desktop app then waits for "Sign in". */
  signedOut: boolean;
  /** Whether this browser keeps the sign-in after the tab closes (localStorage), as Settings says. */
  remembered: boolean;
  /** Desktop app, after "Sign out": signs in again with this computer's own account. */
  signInAgain(): Promise<void>;
  /**
   * Asks the API whether it is up every `everyMs` (default 3 s) while the page is open: a server
   * that stops answering turns the header red within seconds, and one that answers again is used
   * again (credentials checked) so what said it was unreachable can clear. Returns the stop.
   */
  watch(everyMs?: number): () => void;
  /** The clinic server chosen in Settings, when one is (then every call goes there). */
  clinic?: ClinicServerView;
  /** Calls the clinic server with these credentials (an authenticated read) and says how it went; changes nothing. */
  testClinic(input: ClinicServerInput): Promise<ClinicResult>;
  /** Tests the clinic server and, when it answers, saves it and sends every call there. */
  useClinic(input: ClinicServerInput): Promise<ClinicResult>;
  /** Forgets the clinic server and goes back to this computer's local API. */
  useLocal(): Promise<ClinicResult>;
}

export interface ConnectionDeps {
  env: ConnectionEnv;
  fetch?: typeof fetch;
  /**
   * Runs before the server changes; a message refuses the change. The app saves and closes the
   * open visit here, so what belongs to one server is never written to the other.
   */
  beforeSwitch?: () => Promise<string | undefined>;
}

const view = (server: ClinicServer | undefined): ClinicServerView | undefined =>
  server && { baseUrl: server.baseUrl, accountId: server.accountId, keyHint: maskKey(server.apiKey) };

/** The connection to the local API: where it is, the credentials, and whether they work. */
export function createConnectionStore(deps: ConnectionDeps): StoreApi<ConnectionState> {
  const check = async (connection: Connection, source: ConnectionSource): Promise<void> => {
    const client = createApiClient(connection, deps.fetch);
    store.setState({ status: 'checking', connection, source, client, message: undefined });
    try {
      // Any authenticated read proves the pair; webhooks is the smallest list.
      await client.listWebhooks();
      store.setState({ status: 'ready' });
    } catch (err) {
      const rejected = err instanceof ApiError && (err.status === 401 || err.status === 403);
      store.setState({ status: rejected ? 'rejected' : 'offline', message: (err as Error).message });
    }
  };
  /** The typed server as credentials, or why it cannot be used; a blank key reuses the saved one. */
  const clinicFrom = (input: ClinicServerInput): ClinicServer | string => {
    const url = normalizeServerUrl(input.baseUrl);
    if ('error' in url) return url.error;
    const accountId = input.accountId.trim();
    const saved = readClinicServer(deps.env.local);
    const apiKey = input.apiKey.trim() || (saved && saved.baseUrl === url.baseUrl && saved.accountId === accountId ? saved.apiKey : '');
    if (!accountId || !apiKey) return 'Type the account id and the API key the clinic gave you.';
    return { baseUrl: url.baseUrl, accountId, apiKey };
  };
  const probe = async (server: ClinicServer): Promise<ClinicResult> => {
    try {
      await createApiClient({ ...server, clinic: true }, deps.fetch).listWebhooks();
      return { ok: true, message: `The clinic server at ${new URL(server.baseUrl).host} accepted these credentials.` };
    } catch (err) {
      return { ok: false, message: (err as Error).message };
    }
  };
  const switchTo = async (change: () => void): Promise<string | undefined> => {
    const refused = await deps.beforeSwitch?.();
    if (refused) return refused;
    change();
    store.setState({ clinic: view(readClinicServer(deps.env.local)) });
    await store.getState().load();
    return undefined;
  };
  const store = createStore<ConnectionState>()(() => ({
    status: 'loading',
    clinic: view(readClinicServer(deps.env.local)),
    async testClinic(input) {
      const server = clinicFrom(input);
      return typeof server === 'string' ? { ok: false, message: server } : probe(server);
    },
    async useClinic(input) {
      const server = clinicFrom(input);
      if (typeof server === 'string') return { ok: false, message: server };
      const tested = await probe(server);
      if (!tested.ok) return tested;
      const refused = await switchTo(() => saveClinicServer(deps.env.local, server));
      return refused ? { ok: false, message: refused } : { ok: true, message: `Notes now go to the clinic server at ${new URL(server.baseUrl).host}.` };
    },
    async useLocal() {
      const refused = await switchTo(() => clearClinicServer(deps.env.local));
      return refused ? { ok: false, message: refused } : { ok: true, message: 'Notes now stay on this computer.' };
    },
    async load() {
      try {
        const found = await resolveConnection(deps.env, deps.fetch);
        store.setState({ signedOut: signedOut(deps.env), remembered: Boolean(deps.env.local.getItem(CREDENTIALS_KEY)) });
        if (!found) {
          store.setState({ status: 'missing', message: undefined });
          return;
        }
        await check(found.connection, found.source);
      } catch (err) {
        // A spent sign-in link is not an outage: the connect form says what to do instead.
        store.setState({ status: err instanceof SignInLinkError ? 'missing' : 'offline', message: (err as Error).message });
      }
    },
    async enter(accountId, apiKey, remember) {
      const creds = { accountId: accountId.trim(), apiKey: apiKey.trim() };
      storeCredentials(deps.env, creds, remember);
      store.setState({ signedOut: false, remembered: remember });
      await check({ baseUrl: store.getState().connection?.baseUrl ?? '', ...creds }, 'stored');
    },
    signedOut: signedOut(deps.env),
    remembered: false,
    signOut() {
      signOut(deps.env);
      store.setState({ status: 'missing', connection: undefined, client: undefined, source: undefined, message: undefined, signedOut: true, remembered: false });
    },
    async signInAgain() {
      deps.env.local.removeItem(SIGNED_OUT_KEY);
      store.setState({ signedOut: false });
      await store.getState().load();
    },
    watch(everyMs = 3_000) {
      const fetchImpl = deps.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
      let busy = false;
      // A clinic's proxy may not pass /healthz; then the API itself is asked (any HTTP answer means it is up).
      let viaApi = false;
      const answers = async (s: ConnectionState): Promise<boolean> => {
        if (!viaApi) {
          const base = s.connection?.baseUrl ?? s.clinic?.baseUrl ?? '';
          const ok = await fetchImpl(`${base}/healthz`, { cache: 'no-store' }).then((r) => r.ok, () => false);
          if (ok || !s.client) return ok;
        }
        if (!s.client) return false;
        try {
          await s.client.listWebhooks();
        } catch (err) {
          if (!(err instanceof ApiError) || err.status === 0) return false;
        }
        viaApi = true;
        return true;
      };
      const tick = async (): Promise<void> => {
        const s = store.getState();
        // Nothing to watch before credentials are found, while they are checked, or after sign-out.
        if (busy || (s.status !== 'ready' && s.status !== 'offline')) return;
        busy = true;
        try {
          const up = await answers(s);
          const now = store.getState();
          if (!up && now.status === 'ready') {
            store.setState({
              status: 'offline',
              message: now.clinic ? 'The clinic server stopped answering. Clindoc keeps trying.' : 'The local API stopped answering. Is Clindoc still running? Clindoc keeps trying.',
            });
          } else if (up && now.status === 'offline') {
            await now.load();
          }
        } finally {
          busy = false;
        }
      };
      const timer = setInterval(() => void tick(), everyMs);
      return () => clearInterval(timer);
    },
  }));
  return store;
}
