import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type TestServer } from '../support/server.js';
import { authHeaders, markedWav } from './helpers.js';

const MARKER = 'NARWHALPANGOLIN';
const TEMPLATE = { id: 'tpl-a', title: MARKER, sections: [{ id: 's', type: 'text', prompt: MARKER, properties: {} }] };
const MACRO = { id: 'macro-a', examples: ['normal chest exam'], expansion_text: `Chest clear ${MARKER}.` };

/** Path parameter name -> which of account A's objects it addresses. */
const PARAM_RESOURCE: Record<string, string> = {
  noteId: 'note', templateId: 'template', transcriptionId: 'transcription', webhookId: 'webhook', macroId: 'macro', visitId: 'visit',
};

/**
 * Path parameters of device-wide objects, which no account owns: every account sees and manages
 * the same ones, so they are checked for leaks of A's data instead of for 404s.
 */
const DEVICE_PARAMS: Record<string, { why: string; id: string }> = {
  modelId: { why: 'models are files of this computer, shared by its accounts (docs/models.md)', id: 'whisper-base' },
  // A recording under a sentence is the calling account's own: test/speech/voice-adaptation.test.ts
  // shows another account can neither see nor delete it.
  sentenceId: { why: "the voice enrollment's sentences are the same prompts for every account", id: 's01' },
};

interface Creds { accountId: string; apiKey: string }


/** A valid body for each operation that takes one, so only ownership can refuse it. */
function bodyFor(op: { method: string; path: string }): unknown {
  if (op.path.endsWith('/sign')) return { signer: 'Dr. B' };
  if (op.path.endsWith('/addenda')) return { text: 'Addendum.', author: 'Dr. B' };
  if (op.method === 'PUT' && op.path.startsWith('/v1/notes/')) return { markdown: '# Edited' };
  if (op.method === 'PATCH') return { transcript: 'Changed by B.' };
  if (op.method === 'PUT') return op.path.includes('macro') ? MACRO : TEMPLATE;
  return op.method === 'POST' ? {} : undefined;
}

/** Opens the streaming socket and resolves with the first message and the close code. */
function streamAttempt(base: string, query: string, headers: Record<string, string> = {}): Promise<{ messages: Array<Record<string, unknown>>; code: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}/v1/audio/transcriptions/stream?${query}`, { headers });
    const messages: Array<Record<string, unknown>> = [];
    ws.on('message', (data) => {
      messages.push(JSON.parse(String(data)) as Record<string, unknown>);
      if (messages[0]?.status === 'connected') ws.close(1000);
    });
    ws.on('close', (code) => resolve({ messages, code }));
    ws.on('error', reject);
  });
}

describe("walk of every OpenAPI route with account B's credentials against account A's ids", () => {
  let s: TestServer;
  let a: Creds;
  let b: Creds;
  const ids: Record<string, string> = {};
  let hookUrl = '';
  let doc: { paths: Record<string, Record<string, unknown>> };

  beforeAll(async () => {
    s = await startServer({ CLINDOC_JOB_CONCURRENCY: '0' });
    a = s.creds;
    const other = await s.clindoc.accounts.createAccount('Clinic B');
    b = { accountId: other.account.id, apiKey: other.apiKey };
    const h = authHeaders(a);
    ids.note = (await (await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: h, body: JSON.stringify({ transcript: `${MARKER} reports chest pain.` }) })).json()).data.noteId;
    await fetch(`${s.base}/v1/note-templates`, { method: 'POST', headers: h, body: JSON.stringify(TEMPLATE) });
    ids.template = TEMPLATE.id;
    ids.transcription = (await (await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: { ...h, 'content-type': 'audio/wav' }, body: markedWav(MARKER) })).json()).id;
    hookUrl = 'http://127.0.0.1:9/hook-of-a';
    ids.webhook = (await (await fetch(`${s.base}/v1/webhooks`, { method: 'POST', headers: h, body: JSON.stringify({ url: hookUrl }) })).json()).data.id;
    await fetch(`${s.base}/v1/macro-library`, { method: 'POST', headers: h, body: JSON.stringify(MACRO) });
    ids.macro = MACRO.id;
    ids.visit = (await (await fetch(`${s.base}/v1/visits`, { method: 'POST', headers: h, body: JSON.stringify({ patient: { name: MARKER } }) })).json()).data.id;
    doc = await (await fetch(`${s.base}/openapi.json`)).json();
  });
  afterAll(() => s.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m)).map((method) => ({ method: method.toUpperCase(), path })));

  it('answers 404 for every operation that names one of A\'s ids, and A keeps its data', async () => {
    const deviceWide = (op: { path: string }): boolean => [...op.path.matchAll(/\{(\w+)\}/g)].every((m) => DEVICE_PARAMS[m[1]!] !== undefined);
    for (const op of operations().filter((o) => o.path.includes('{') && deviceWide(o) && o.method === 'GET')) {
      const url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => DEVICE_PARAMS[name]!.id);
      const text = await (await fetch(`${s.base}${url}`, { headers: authHeaders(b) })).text();
      expect(text, `${op.path} (${url})`).not.toContain(MARKER);
      expect(text).not.toContain(a.accountId);
    }
    const withParams = operations().filter((op) => op.path.includes('{') && !deviceWide(op));

    expect(withParams.length).toBeGreaterThanOrEqual(13);
    const checked: string[] = [];
    for (const op of withParams) {
      const url = op.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
        const resource = PARAM_RESOURCE[name];
        // A new route with an unknown parameter must be added here, not silently skipped.
        expect(resource, `${op.method} ${op.path}: parameter ${name} is not mapped to one of A's objects`).toBeDefined();
        return encodeURIComponent(ids[resource!]!);
      });
      const body = JSON.stringify(bodyFor(op)) ?? undefined;
      const res = await fetch(`${s.base}${url}`, { method: op.method, headers: authHeaders(b, { 'If-Match': '"1"' }), ...(body ? { body } : {}) });
      const text = await res.text();
      expect(res.status, `${op.method} ${op.path}`).toBe(404);
      expect(text).not.toContain(MARKER);
      checked.push(`${op.method} ${op.path}`);
    }
    // A still owns all of it, unchanged.
    const h = authHeaders(a);
    for (const path of [`/v1/notes/${ids.note}`, `/v1/note-templates/${ids.template}`, `/v2/audio/transcriptions/${ids.transcription}`, `/v1/macro-library/${ids.macro}`, `/v1/visits/${ids.visit}`]) {
      expect((await fetch(`${s.base}${path}`, { headers: h })).status, path).toBe(200);
    }
    expect(JSON.stringify(await (await fetch(`${s.base}/v1/macro-library/${ids.macro}`, { headers: h })).json())).toContain(MARKER);
    expect(JSON.stringify(await (await fetch(`${s.base}/v1/webhooks`, { headers: h })).json())).toContain(ids.webhook);
    expect(checked.length).toBe(withParams.length);
  });

  it("shows none of A's objects in any list or trail B can read", async () => {
    // The streaming path is documented as a GET (the WebSocket upgrade); it is walked in its own test below.
    const lists = operations().filter((op) => op.method === 'GET' && !op.path.includes('{') && op.path.startsWith('/v') && !op.path.endsWith('/stream'));
    expect(lists.length).toBeGreaterThanOrEqual(5);
    for (const op of lists) {
      const res = await fetch(`${s.base}${op.path}`, { headers: authHeaders(b) });
      // Installation-wide lists (backups) are the operator's: B, a plain account, is refused (issue 29).
      const operatorOnly = (doc.paths[op.path]!.get as { 'x-clindoc-operator-only'?: boolean })['x-clindoc-operator-only'] === true;
      expect(res.status, op.path).toBe(operatorOnly ? 403 : 200);
      const text = await res.text();
      expect(text).not.toContain(MARKER);
      expect(text).not.toContain(a.accountId);
      // B's own trail names the ids B itself tried (and was refused); every other list names none.
      if (op.path === '/v1/audit-events') {
        const items = (JSON.parse(text) as { data: { items: Array<{ accountId: string; outcome: string; resourceId: string | null }> } }).data.items;
        expect(items.every((e) => e.accountId === b.accountId)).toBe(true);
        expect(items.filter((e) => Object.values(ids).includes(e.resourceId ?? '')).every((e) => e.outcome === 'not_found')).toBe(true);
        continue;
      }
      for (const id of Object.values(ids)) expect(text, `${op.path} leaks ${id}`).not.toContain(id);
    }
  });

  it("refuses to let B use A's template, note or registered webhook URL in a request body", async () => {
    const byTemplate = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: authHeaders(b), body: JSON.stringify({ transcript: 'x', noteType: { type: 'note_template', templateId: ids.template } }) });
    expect(byTemplate.status).toBe(400);
    const upload = await fetch(`${s.base}/v2/audio/transcriptions?webhookUrl=${encodeURIComponent(hookUrl)}`, {
      method: 'POST', headers: authHeaders(b, { 'content-type': 'audio/wav' }), body: markedWav('x'),
    });
    expect(upload.status).toBe(400);
    if (operations().some((op) => op.path === '/v1/coding/analyze')) {
      const coding = await fetch(`${s.base}/v1/coding/analyze`, { method: 'POST', headers: authHeaders(b), body: JSON.stringify({ noteId: ids.note }) });
      expect(coding.status).toBe(404);
    }
  });

  it("keeps B out of A's streaming socket: A's account id, A's token, B's token for A", async () => {
    const wsBase = s.base;
    const bKeyForA = await streamAttempt(wsBase, `account_id=${a.accountId}`, { 'X-API-KEY': b.apiKey });
    expect(bKeyForA.code).toBe(1008);
    expect(bKeyForA.messages[0]).toMatchObject({ type: 'error' });
    const tokenOf = async (creds: Creds) =>
      (await (await fetch(`${s.base}/v1/audio/transcriptions/stream/token`, { method: 'POST', headers: authHeaders(creds) })).json()).token as string;
    const aToken = await tokenOf(a);
    const bToken = await tokenOf(b);
    expect((await streamAttempt(wsBase, `account_id=${b.accountId}&api_token=${aToken}`)).code).toBe(1008);
    expect((await streamAttempt(wsBase, `account_id=${a.accountId}&api_token=${bToken}`)).code).toBe(1008);
    // The token is scoped to streaming: it is not an API key on REST routes.
    expect((await fetch(`${s.base}/v1/notes/${ids.note}`, { headers: { 'X-API-KEY': aToken, 'X-ACCOUNT-ID': a.accountId } })).status).toBe(401);
    // B's own credentials do open B's own session, so the refusals above are about ownership.
    const own = await streamAttempt(wsBase, `account_id=${b.accountId}&api_token=${bToken}&encoding=linear16&sample_rate=16000`);
    expect(own.messages[0]).toMatchObject({ type: 'status', status: 'connected' });
  });
});
