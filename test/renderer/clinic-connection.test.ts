/**
 * How a window finds its connection once a clinic server is chosen: the clinic server comes
 * first, and a sign-in link opened meanwhile still leaves the address bar at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveConnection, CREDENTIALS_KEY } from '../../renderer/api/connection.js';
import { readClinicServer, saveClinicServer, CLINIC_SERVER_KEY } from '../../renderer/api/clinic-server.js';
import { createApiClient } from '../../renderer/api/client.js';
import { startServer, type TestServer } from '../support/server.js';
import { MemoryStorage } from '../support/memory-storage.js';

let here: TestServer;
let clinic: TestServer;
beforeAll(async () => {
  [here, clinic] = await Promise.all([startServer({ CLINDOC_JOB_CONCURRENCY: '0' }), startServer({ CLINDOC_JOB_CONCURRENCY: '0' })]);
});
afterAll(async () => {
  await Promise.all([here?.close(), clinic?.close()]);
});

/** The page's same-origin calls (the sign-in exchange) reach this computer's API. */
// The page's own requests, as a browser sends them: relative paths on the app's origin, with that Origin on every POST.
const sameOrigin = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const headers = new Headers(init?.headers);
  const url = typeof input === 'string' && input.startsWith('/') ? `${here.base}${input}` : input;
  if ((init?.method ?? 'GET').toUpperCase() !== 'GET' && String(url).startsWith(here.base)) headers.set('Origin', here.base);
  return fetch(url, { ...init, headers });
};

describe('connection with a clinic server chosen', () => {
  it('uses the clinic server before the desktop bridge and stored credentials', async () => {
    const local = new MemoryStorage();
    const session = new MemoryStorage();
    session.setItem(CREDENTIALS_KEY, JSON.stringify(here.creds));
    saveClinicServer(local, { baseUrl: clinic.base, ...clinic.creds });
    const bridge = { connection: async () => ({ baseUrl: here.base, ...here.creds }) } as never;
    const found = await resolveConnection({ bridge, hash: '', session, local, clearHash: () => undefined }, sameOrigin);
    expect(found).toEqual({ source: 'clinic', connection: { baseUrl: clinic.base, ...clinic.creds, clinic: true } });
    // The client built from it answers with the clinic server's data and names it when it fails.
    const client = createApiClient(found!.connection, sameOrigin, 'http://127.0.0.1:8080');
    expect(await client.listWebhooks()).toEqual([]);
    const offline = createApiClient({ ...found!.connection, baseUrl: 'http://127.0.0.1:9' }, sameOrigin, 'http://127.0.0.1:8080');
    await expect(offline.listWebhooks()).rejects.toThrow('The clinic server at 127.0.0.1:9 cannot be reached, or it does not accept calls from this app: its CLINDOC_CORS_ORIGINS must list http://127.0.0.1:8080.');
    const url = new URL(await client.streamUrl({ dictation: true, sampleRate: 16000 }));
    expect(url.origin).toBe(clinic.base.replace('http:', 'ws:'));
    expect(url.search).not.toContain(clinic.creds.apiKey);
  });

  it('takes a sign-in link out of the address bar and keeps this computer\'s credentials for later; a spent link changes nothing', async () => {
    const local = new MemoryStorage();
    saveClinicServer(local, { baseUrl: clinic.base, ...clinic.creds });
    const hash = new URL(here.clindoc.signInLink()).hash;
    const session = new MemoryStorage();
    let cleared = 0;
    const found = await resolveConnection({ hash, session, local, clearHash: () => void cleared++ }, sameOrigin);
    expect(found?.source).toBe('clinic');
    expect(cleared).toBe(1);
    expect(JSON.parse(session.getItem(CREDENTIALS_KEY)!)).toEqual(here.creds);

    const spent = await resolveConnection({ hash, session: new MemoryStorage(), local, clearHash: () => void cleared++ }, sameOrigin);
    expect(spent?.source).toBe('clinic');
    expect(cleared).toBe(2);
  });

  it('ignores a saved entry it cannot use (plain HTTP to another machine, no key)', () => {
    const local = new MemoryStorage();
    local.setItem(CLINIC_SERVER_KEY, JSON.stringify({ baseUrl: 'http://clinic.example', ...clinic.creds }));
    expect(readClinicServer(local)).toBeUndefined();
    local.setItem(CLINIC_SERVER_KEY, JSON.stringify({ baseUrl: clinic.base, accountId: clinic.creds.accountId, apiKey: '' }));
    expect(readClinicServer(local)).toBeUndefined();
    local.setItem(CLINIC_SERVER_KEY, '{not json');
    expect(readClinicServer(local)).toBeUndefined();
  });
});
