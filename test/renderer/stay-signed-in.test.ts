/**
 * Issue 27 point 7 and the header of point 8, against real local APIs: after the one-time link the
 * browser stays signed in across a restart of the browser (a new page over the same localStorage,
 * a new sessionStorage) and the desktop app with its bridge; "Sign out" brings back the key form
 * (or the desktop's "Sign in"); the connection watch turns offline within its interval when the
 * local API stops, and ready again, with the unreachable errors cleared, when it is back.
 */
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { createConnectionStore } from '../../renderer/state/connection-store.js';
import { createAppStores } from '../../renderer/state/stores.js';
import { CREDENTIALS_KEY } from '../../renderer/api/connection.js';
import { MemoryStorage } from '../support/memory-storage.js';

/** The page's own requests, as a browser sends them: relative paths on the app's origin, with that Origin on every POST. */
const pageFetch = (base: () => string) => (input: RequestInfo | URL, init?: RequestInit) => {
  const headers = new Headers(init?.headers);
  const url = typeof input === 'string' && input.startsWith('/') ? `${base()}${input}` : input;
  if ((init?.method ?? 'GET').toUpperCase() !== 'GET') headers.set('Origin', base());
  return fetch(url, { ...init, headers });
};

const freePort = (): Promise<number> => new Promise((resolve, reject) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  }).on('error', reject);
});

describe('staying signed in', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => server?.close());

  it('keeps the link\'s sign-in for the next browser start, until Sign out; the key form then comes back', async () => {
    const local = new MemoryStorage();
    const fetchImpl = pageFetch(() => server.base);
    const first = createConnectionStore({ env: { hash: new URL(server.clindoc.signInLink()).hash, session: new MemoryStorage(), local, clearHash: () => undefined }, fetch: fetchImpl });
    await first.getState().load();
    expect(first.getState()).toMatchObject({ status: 'ready', source: 'link', remembered: true, signedOut: false });

    // The browser closed and opened again: a new tab (empty sessionStorage), no link.
    const reopened = createConnectionStore({ env: { hash: '', session: new MemoryStorage(), local, clearHash: () => undefined }, fetch: fetchImpl });
    await reopened.getState().load();
    expect(reopened.getState()).toMatchObject({ status: 'ready', source: 'stored', remembered: true });

    reopened.getState().signOut();
    expect(reopened.getState()).toMatchObject({ status: 'missing', signedOut: true, client: undefined });
    expect(local.getItem(CREDENTIALS_KEY)).toBeNull();
    const afterSignOut = createConnectionStore({ env: { hash: '', session: new MemoryStorage(), local, clearHash: () => undefined }, fetch: fetchImpl });
    await afterSignOut.getState().load();
    expect(afterSignOut.getState()).toMatchObject({ status: 'missing', signedOut: true });

    // Pasted credentials with Remember unticked: this tab only, and the sign-out is over.
    const session = new MemoryStorage();
    const typed = createConnectionStore({ env: { hash: '', session, local, clearHash: () => undefined }, fetch: fetchImpl });
    await typed.getState().enter(server.creds.accountId, server.creds.apiKey, false);
    expect(typed.getState()).toMatchObject({ status: 'ready', remembered: false, signedOut: false });
    expect(local.getItem(CREDENTIALS_KEY)).toBeNull();
    expect(JSON.parse(session.getItem(CREDENTIALS_KEY)!)).toEqual(server.creds);
  });

  it('desktop app: signed in by its bridge every start; after Sign out the bridge is not used until Sign in', async () => {
    const local = new MemoryStorage();
    let asked = 0;
    const bridge = { connection: async () => (asked++, { baseUrl: server.base, ...server.creds }) } as never;
    const env = () => ({ bridge, hash: '', session: new MemoryStorage(), local, clearHash: () => undefined });
    const app = createConnectionStore({ env: env(), fetch: pageFetch(() => server.base) });
    await app.getState().load();
    expect(app.getState()).toMatchObject({ status: 'ready', source: 'desktop' });
    app.getState().signOut();
    const restarted = createConnectionStore({ env: env(), fetch: pageFetch(() => server.base) });
    await restarted.getState().load();
    expect(restarted.getState()).toMatchObject({ status: 'missing', signedOut: true });
    expect(asked).toBe(1);
    await restarted.getState().signInAgain();
    expect(restarted.getState()).toMatchObject({ status: 'ready', source: 'desktop', signedOut: false });
    expect(asked).toBe(2);
  });
});

describe('the connection watch', () => {
  it('asks the API itself when a proxy does not pass /healthz, and stays connected', async () => {
    const server = await startServer();
    const asked: string[] = [];
    const local = new MemoryStorage();
    local.setItem(CREDENTIALS_KEY, JSON.stringify(server.creds));
    const store = createConnectionStore({
      env: { hash: '', session: new MemoryStorage(), local, clearHash: () => undefined },
      fetch: (input, init) => {
        const path = new URL(String(input), server.base).pathname;
        asked.push(path);
        // The clinic's proxy answers 404 for the ops paths; the API goes through.
        return path === '/healthz' ? Promise.resolve(new Response('not here', { status: 404 })) : pageFetch(() => server.base)(input, init);
      },
    });
    const stop = store.getState().watch(20);
    try {
      await store.getState().load();
      expect(store.getState().status).toBe('ready');
      const seen: string[] = [];
      store.subscribe((s) => seen.push(s.status));
      // Two API reads after the last /healthz: the watch switched to asking the API.
      await waitFor(() => {
        const last = asked.lastIndexOf('/healthz');
        return last >= 0 && asked.slice(last + 1).filter((p) => p === '/v1/webhooks').length >= 2 ? true : undefined;
      }, 20_000, 10);
      expect(asked.filter((p) => p === '/healthz')).toHaveLength(1);
      expect(seen).not.toContain('offline');
      expect(store.getState().status).toBe('ready');
    } finally {
      stop();
      await server.close();
    }
  });

  it('turns offline when the local API stops and ready again when it is back; unreachable errors clear', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-watch-'));
    const port = await freePort();
    const env = { CLINDOC_DATA_DIR: dataDir, CLINDOC_PORT: String(port) };
    let server = await startServer(env);
    const base = `http://127.0.0.1:${port}`;
    const local = new MemoryStorage();
    local.setItem(CREDENTIALS_KEY, JSON.stringify(server.creds));
    const stores = createAppStores({
      bridge: undefined, connectionEnv: { hash: '', session: new MemoryStorage(), local, clearHash: () => undefined }, local, fetch: pageFetch(() => base),
    });
    const { connection, visits, dictation } = stores;
    const stop = connection.getState().watch(50);
    try {
      await connection.getState().load();
      expect(connection.getState().status).toBe('ready');
      const states: string[] = [];
      connection.subscribe((s, prev) => { if (s.status !== prev.status) states.push(s.status); });

      await server.close();
      await waitFor(() => (connection.getState().status === 'offline' ? true : undefined), undefined, 20);
      expect(connection.getState().message).toMatch(/local API stopped answering/);
      // What failed meanwhile said so (as a call made just before the watch noticed would have).
      visits.setState({ listError: 'The local API cannot be reached. Is Clindoc running?' });
      dictation.setState({ errors: [{ id: 1, message: 'The local API cannot be reached. Is Clindoc running?' }, { id: 2, message: 'The microphone was refused.' }] });

      server = await startServer(env);
      await waitFor(() => (connection.getState().status === 'ready' ? true : undefined), undefined, 20);
      expect(states).toEqual(['offline', 'checking', 'ready']);
      expect(visits.getState().listError).toBeUndefined();
      expect(dictation.getState().errors.map((e) => e.message)).toEqual(['The microphone was refused.']);
    } finally {
      stop();
      await server.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);
});
