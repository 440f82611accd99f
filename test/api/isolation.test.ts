import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { wavBytes } from '../support/audio.js';

const TEMPLATE = {
  id: 'tpl-soap', title: 'SOAP',
  sections: [{ id: 'h1', type: 'heading', properties: { level: 1, text: 'Subjective' }, children: [{ id: 't1', type: 'text', prompt: 'History', properties: {} }] }],
};

describe('account isolation: another account\'s ids answer 404 everywhere', () => {
  let s: TestServer;
  let b: Record<string, string>;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    s = await startServer();
    const other = await s.clindoc.accounts.createAccount('Clinic B');
    b = { 'X-API-KEY': other.apiKey, 'X-ACCOUNT-ID': other.account.id, 'content-type': 'application/json' };
    const a = s.headers();
    ids.note = (await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: a, body: JSON.stringify({ transcript: 'Patient reports a headache.' }) })).json()).data.noteId;
    await fetch(`${s.base}/v1/note-templates`, { method: 'POST', headers: a, body: JSON.stringify(TEMPLATE) });
    ids.template = TEMPLATE.id;
    ids.transcription = (await (await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: { ...a, 'content-type': 'audio/wav' }, body: wavBytes(0.5) })).json()).id;
    ids.webhook = (await (await fetch(`${s.base}/v1/webhooks`, { method: 'POST', headers: a, body: JSON.stringify({ url: 'http://127.0.0.1:9/hook' }) })).json()).data.id;
    await fetch(`${s.base}/v1/macro-library`, { method: 'POST', headers: a, body: JSON.stringify({ id: 'nce', examples: ['normal chest exam'], expansion_text: 'Chest clear.' }) });
    ids.macro = 'nce';
  });
  afterAll(() => s.close());

  it.each([
    ['GET', '/v1/notes/{note}'],
    ['DELETE', '/v1/notes/{note}'],
    ['GET', '/v1/note-templates/{template}'],
    ['PUT', '/v1/note-templates/{template}'],
    ['DELETE', '/v1/note-templates/{template}'],
    ['GET', '/v1/audio/transcriptions/{transcription}'],
    ['DELETE', '/v1/audio/transcriptions/{transcription}'],
    ['GET', '/v2/audio/transcriptions/{transcription}'],
    ['DELETE', '/v2/audio/transcriptions/{transcription}'],
    ['DELETE', '/v1/webhooks/{webhook}'],
    ['GET', '/v1/macro-library/{macro}'],
    ['PUT', '/v1/macro-library/{macro}'],
    ['DELETE', '/v1/macro-library/{macro}'],
  ])('%s %s', async (method, template) => {
    const path = template.replace(/\{(\w+)\}/, (_m, k: string) => ids[k]!);
    const body = method === 'PUT' ? JSON.stringify(template.includes('macro') ? { id: ids.macro, examples: ['x'], expansion_text: 'y' } : TEMPLATE) : undefined;
    const res = await fetch(`${s.base}${path}`, { method, headers: b, ...(body ? { body } : {}) });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: 404, message: expect.any(String) });
    // ...and account A still has it.
    if (method !== 'DELETE' || !template.includes('webhook')) {
      const own = await fetch(`${s.base}${path.replace(/^\/v1\/webhooks.*/, '/v1/webhooks')}`, { headers: s.headers() });
      expect(own.status).toBe(200);
    }
  });

  it('lists show none of the other account\'s objects', async () => {
    for (const path of ['/v1/notes', '/v1/note-templates', '/v2/audio/transcriptions', '/v1/macro-library']) {
      const body = await (await fetch(`${s.base}${path}`, { headers: b })).json();
      expect(body.data.items).toEqual([]);
      const own = await (await fetch(`${s.base}${path}`, { headers: s.headers() })).json();
      expect(own.data.items.length).toBeGreaterThan(0);
    }
    const hooks = await (await fetch(`${s.base}/v1/webhooks`, { headers: b })).json();
    expect(hooks.data).toEqual([]);
  });

  it('storage usage counts only the caller\'s data, and deleting all data leaves the other account untouched', async () => {
    const usage = async (headers: Record<string, string>) => (await (await fetch(`${s.base}/v1/storage`, { headers })).json()).data;
    const before = await usage(s.headers());
    expect(before.notes.count).toBeGreaterThan(0);
    expect(before.templates.count).toBe(1);
    expect(before.totalBytes).toBeGreaterThan(0);
    expect(await usage(b)).toMatchObject({ notes: { count: 0, bytes: 0 }, transcriptions: { count: 0 }, audio: { count: 0, bytes: 0 }, templates: { count: 0 }, macros: { count: 0 }, webhooks: { count: 0 }, totalBytes: 0 });
    const res = await fetch(`${s.base}/v1/storage?confirm=all`, { method: 'DELETE', headers: b });
    expect(res.status).toBe(200);
    expect((await res.json()).data).toEqual({ notes: 0, transcriptions: 0, templates: 0, macros: 0, webhooks: 0, visits: 0 });
    const after = await usage(s.headers());
    for (const kind of ['notes', 'transcriptions', 'audio', 'templates', 'macros', 'webhooks']) expect(after[kind].count).toBe(before[kind].count);
  });

  it('cannot use another account\'s stored template by id when creating a note', async () => {
    const res = await fetch(`${s.base}/v1/notes`, {
      method: 'POST', headers: b, body: JSON.stringify({ transcript: 'x', noteType: { type: 'note_template', templateId: ids.template } }),
    });
    expect(res.status).toBe(400);
  });

  it('deleting all data removes every object of the account and its audio files', async () => {
    const a = s.headers();
    await waitFor(async () => ((await (await fetch(`${s.base}/v2/audio/transcriptions/${ids.transcription}`, { headers: a })).json()).status !== 'pending' ? true : undefined));
    const blobFiles = (): string[] => readdirSync(join(s.dataDir, 'blobs'), { recursive: true }).map(String).filter((f) => statSync(join(s.dataDir, 'blobs', f)).isFile());
    const before = (await (await fetch(`${s.base}/v1/storage`, { headers: a })).json()).data;
    // The usage report counts exactly the audio files on disk.
    expect(before.audio.count).toBe(1);
    expect(blobFiles().length).toBe(1);
    expect(before.audio.bytes).toBe(blobFiles().reduce((n, f) => n + statSync(join(s.dataDir, 'blobs', f)).size, 0));
    const refused = await fetch(`${s.base}/v1/storage`, { method: 'DELETE', headers: a });
    expect(refused.status).toBe(400);
    const res = await fetch(`${s.base}/v1/storage?confirm=all`, { method: 'DELETE', headers: a });
    expect((await res.json()).data).toEqual({ notes: 1, transcriptions: 1, templates: 1, macros: 1, webhooks: 1, visits: 0 });
    const usage = (await (await fetch(`${s.base}/v1/storage`, { headers: a })).json()).data;
    expect(usage.totalBytes).toBe(0);
    expect(blobFiles()).toEqual([]);
    for (const path of ['/v1/notes', '/v1/note-templates', '/v2/audio/transcriptions', '/v1/macro-library']) {
      expect((await (await fetch(`${s.base}${path}`, { headers: a })).json()).data.items).toEqual([]);
    }
  });
});
