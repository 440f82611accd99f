import { untilState } from '../support/store-wait.js';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { createApiClient, type ApiClient } from '../../renderer/api/client.js';
import { createConnectionStore } from '../../renderer/state/connection-store.js';
import { parseCredentialLines } from '../../renderer/api/connection.js';
import { createNoteStore } from '../../renderer/state/note-store.js';
import { createDictationStore } from '../../renderer/state/dictation-store.js';
import { deleteAllData, describeUsage, formatBytes, storageUsage } from '../../renderer/state/data-admin.js';
import type { StreamClientDeps } from '../../renderer/audio/stream-client.js';
import type { StreamMessage } from '../../renderer/api/types.js';
import { MemoryStorage } from '../support/memory-storage.js';

let server: TestServer;
let client: ApiClient;
beforeAll(async () => {
  server = await startServer();
  client = createApiClient({ baseUrl: server.base, ...server.creds });
});
afterAll(async () => server?.close());

const TRANSCRIPT = `Doctor: What brings you in today?
Patient: I have had a sore throat and a fever of 38.5 for three days.
Doctor: Any cough? Patient: A mild dry cough.
Doctor: Throat is red, no exudate. Lungs are clear. Plan: rest, fluids, paracetamol 1 g up to four times a day, and come back if it gets worse.`;

describe('connection store', () => {
  // The page's own requests, as a browser sends them: relative paths on the app's origin, with that Origin on every POST.
  const sameOrigin = (input: RequestInfo | URL, init?: RequestInit) => {
    const headers = new Headers(init?.headers);
    const url = typeof input === 'string' && input.startsWith('/') ? `${server.base}${input}` : input;
    if ((init?.method ?? 'GET').toUpperCase() !== 'GET' && String(url).startsWith(server.base)) headers.set('Origin', server.base);
    return fetch(url, { ...init, headers });
  };

  it('signs in from a one-click link: the token is traded once for the credentials, remembered on this computer, and the address bar cleared', async () => {
    const link = server.clindoc.signInLink();
    expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/#token=cds_[A-Za-z0-9_-]{43}$`));
    expect(link).not.toContain(server.creds.apiKey);
    const hash = new URL(link).hash;
    const session = new MemoryStorage();
    const local = new MemoryStorage();
    let cleared = false;
    const store = createConnectionStore({ env: { hash, session, local, clearHash: () => { cleared = true; } }, fetch: sameOrigin });
    await store.getState().load();
    expect(store.getState().status).toBe('ready');
    expect(store.getState().source).toBe('link');
    expect(cleared).toBe(true);
    expect(JSON.parse(session.getItem('clindoc.credentials')!)).toEqual(server.creds);
    expect(JSON.parse(local.getItem('clindoc.credentials')!)).toEqual(server.creds);
    expect(store.getState().remembered).toBe(true);

    // The same link a second time (another tab, or someone who saw it) gets nothing.
    let clearedAgain = false;
    const again = createConnectionStore({ env: { hash, session: new MemoryStorage(), local: new MemoryStorage(), clearHash: () => { clearedAgain = true; } }, fetch: sameOrigin });
    await again.getState().load();
    expect(again.getState().status).toBe('missing');
    expect(again.getState().message).toMatch(/expired or was already used/);
    expect(clearedAgain).toBe(true);
  });

  it('never takes an API key from the address bar', async () => {
    const session = new MemoryStorage();
    const store = createConnectionStore({
      env: { hash: `#account=${server.creds.accountId}&key=${server.creds.apiKey}`, session, local: new MemoryStorage(), clearHash: () => undefined }, fetch: sameOrigin,
    });
    await store.getState().load();
    expect(store.getState().status).toBe('missing');
    expect(session.getItem('clindoc.credentials')).toBeNull();
  });

  it('reads the pasted lines Clindoc prints, or local-credentials.json', () => {
    const printed = `Clindoc created the local account on first start.\n  X-ACCOUNT-ID: acct_123\n  X-API-KEY: cdk_abc-DEF_9\n`;
    expect(parseCredentialLines(printed)).toEqual({ accountId: 'acct_123', apiKey: 'cdk_abc-DEF_9' });
    expect(parseCredentialLines('X-API-KEY:cdk_only')).toEqual({ apiKey: 'cdk_only' });
    expect(parseCredentialLines('{"accountId": "acct_1", "apiKey": "cdk_2"}')).toEqual({ accountId: 'acct_1', apiKey: 'cdk_2' });
    expect(parseCredentialLines('acct_plain')).toEqual({});
  });

  it('says so when the key is wrong', async () => {
    const store = createConnectionStore({
      env: { hash: '', session: new MemoryStorage(), local: new MemoryStorage(), clearHash: () => undefined },
      fetch: (input, init) => fetch(`${server.base}${String(input)}`, init),
    });
    await store.getState().enter(server.creds.accountId, 'cdk_wrong', true);
    expect(store.getState().status).toBe('rejected');
  });
});

describe('note store against the local API', () => {
  it('writes a SOAP note from a transcript, reports progress, and can be edited', async () => {
    const seen: string[] = [];
    const notes = createNoteStore({ client: () => client, sleep: () => new Promise((r) => setTimeout(r, 20)) });
    notes.subscribe((s) => { if (s.status !== 'idle' && seen.at(-1) !== s.status) seen.push(s.status); });
    notes.getState().set({ transcript: TRANSCRIPT, patientName: 'Ana Test', medicationList: 'paracetamol' });
    await notes.getState().generate();
    const s = notes.getState();
    expect(s.error).toBeUndefined();
    expect(s.status).toBe('STATUS_DONE');
    expect(seen[0]).toBe('submitting');
    expect(s.markdown.toLowerCase()).toContain('throat');
    notes.getState().setMarkdown(`${s.markdown}\nAddendum.`);
    expect(notes.getState().markdown).not.toBe(notes.getState().generated);
  });

  it('explains what is missing instead of sending an empty transcript or too many medications', async () => {
    const notes = createNoteStore({ client: () => client });
    await notes.getState().generate();
    expect(notes.getState().error).toMatch(/Add a transcript/);
    notes.getState().set({ transcript: 'x', medicationList: Array.from({ length: 51 }, (_, i) => `drug${i}`).join(', ') });
    expect(notes.getState().problems()).toEqual(['The medication list has more than 50 entries.']);
  });

  it('shows the API’s reason when generation is refused', async () => {
    const notes = createNoteStore({ client: () => client });
    notes.getState().set({ transcript: TRANSCRIPT, kind: 'note_template', templateId: 'no-such-template' });
    await notes.getState().generate();
    expect(notes.getState().status).toBe('STATUS_FAILED');
    expect(notes.getState().error).toBeTruthy();
  });
});

describe('dictation store', () => {
  it('shows partials, then final text with the user’s macros expanded by the API, and undoes an expansion', async () => {
    await client.createMacro({ id: 'exam', examples: ['physical exam'], expansion_text: 'Physical exam: lungs clear, heart regular.' });
    let emit: ((m: StreamMessage) => void) | undefined;
    const dictation = createDictationStore({
      client: () => client,
      listMicrophones: async () => [],
      now: () => performance.now(),
      startCapture: async (o) => {
        o.onAudio(new Float32Array(1600));
        return { sampleRate: 48_000, deviceLabel: 'test', stop: async () => undefined };
      },
      createStream: (d: StreamClientDeps) => {
        emit = (m) => d.onMessage(m, 0);
        return { start: () => d.onState('open'), sendAudio: () => undefined, stop: async () => undefined, state: () => 'open' };
      },
    });
    await dictation.getState().loadMacros();
    await dictation.getState().start();
    expect(dictation.getState().status).toBe('listening');
    const t = { type: 'transcript' as const, audio_start: 0, audio_end: 2, duration: 2, words: [], timestamp: '' };
    emit!({ ...t, text: 'Normal physical', is_final: false, isFinal: false });
    expect(dictation.getState().partial).toBe('Normal physical');
    emit!({ ...t, text: 'Normal physical exam.', is_final: true, isFinal: true });
    expect(dictation.getState().partial).toBe('');
    // Each final is announced to screen readers, the same words twice as two announcements.
    expect(dictation.getState().announcement).toEqual({ count: 1, text: 'Normal physical exam.' });
    // The API expands the macro when it answers; a loaded machine may take many seconds (a load round's lanes took over 5).
    await untilState(dictation, (s) => Object.keys(s.doc.pending).length === 0);
    expect(dictation.getState().text()).toContain('Physical exam: lungs clear, heart regular.');
    const macro = dictation.getState().doc.pieces.find((p) => p.kind === 'macro')!;
    dictation.getState().toggleExpansion(macro.id);
    expect(dictation.getState().text()).toContain('physical exam');
    expect(dictation.getState().text()).not.toContain('lungs clear');
    await dictation.getState().stop();
    expect(dictation.getState().status).toBe('idle');
    expect(dictation.getState().text()).toBe('Normal physical exam.');
  });
});

describe('storage and delete all data', () => {
  it('shows what is stored, then deletes every object of the account through the API', async () => {
    await client.createWebhook('http://127.0.0.1:9/hook');
    const before = await storageUsage(client);
    expect(before.macros.count + before.notes.count + before.webhooks.count).toBeGreaterThan(0);
    expect(before.totalBytes).toBeGreaterThan(0);
    expect(describeUsage(before)).toContain(`${before.webhooks.count} webhook`);
    const gone = await deleteAllData(client);
    expect(gone).toEqual({ notes: before.notes.count, transcriptions: before.transcriptions.count, macros: before.macros.count, templates: before.templates.count, webhooks: before.webhooks.count, visits: before.visits.count });
    const after = await storageUsage(client);
    expect(after.totalBytes).toBe(0);
    expect(describeUsage(after)).toBe('0 notes, 0 transcriptions (0 audio files, 0 B), 0 macros, 0 templates, 0 webhooks');
  });

  it('writes sizes the way people read them', () => {
    expect([formatBytes(0), formatBytes(999), formatBytes(1500), formatBytes(25_000), formatBytes(3_400_000)]).toEqual(['0 B', '999 B', '1.5 kB', '25 kB', '3.4 MB']);
  });
});
