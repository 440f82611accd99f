import { createStore, type StoreApi } from 'zustand/vanilla';
import { ApiError, createApiClient, type ApiClient } from '../api/client.js';
import { forgetCredentials, resolveConnection, SignInLinkError, storeCredentials, type ConnectionEnv, type ConnectionSource } from '../api/connection.js';
import type { Connection } from '../api/types.js';

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
  forget(): void;
}

export interface ConnectionDeps {
  env: ConnectionEnv;
  fetch?: typeof fetch;
}

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
  const store = createStore<ConnectionState>()(() => ({
    status: 'loading',
    async load() {
      try {
        const found = await resolveConnection(deps.env, deps.fetch);
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
      await check({ baseUrl: store.getState().connection?.baseUrl ?? '', ...creds }, 'stored');
    },
    forget() {
      forgetCredentials(deps.env);
      store.setState({ status: 'missing', connection: undefined, client: undefined, source: undefined, message: undefined });
    },
  }));
  return store;
}
