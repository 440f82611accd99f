import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import WebSocket from 'ws';
import { startServer, type TestServer } from '../support/server.js';
import { authHeaders } from './helpers.js';
import { boundaryValue, jsonBody, validValue, type Doc, type Operation, type Schema } from './openapi-arbitraries.js';

/**
 * The streaming socket fuzzed from its OpenAPI description (`x-websocket`): handshake query
 * parameters generated from the documented parameter schemas (valid, boundary, junk), credentials
 * mixed across two accounts, and client messages generated from the documented message schema
 * (valid, boundary, hostile, malformed) with binary frames between them. A session may only close
 * normally or by policy, answers only with documented message types, never opens for one account
 * with another's credentials, never tells B anything of A's, and the server keeps serving.
 * Time: half of FUZZ_SECONDS (default 30).
 */

const SECONDS = Number(process.env.FUZZ_SECONDS ?? 30) / 2;
const STREAM = '/v1/audio/transcriptions/stream';
const MIN_SESSIONS = 30;

interface Creds { label: string; headers: Record<string, string>; query: Record<string, string>; mayOpen: boolean }
interface Outcome { opened: boolean; code: number; messages: Array<Record<string, unknown>>; raw: string[] }

function session(base: string, query: string, creds: Creds, frames: Array<{ data: Buffer; binary: boolean }>): Promise<Outcome> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace('http', 'ws')}${STREAM}?${query}`, { headers: creds.headers });
    const out: Outcome = { opened: false, code: 0, messages: [], raw: [] };
    const guard = setTimeout(() => ws.terminate(), 20_000);
    ws.on('message', (data) => {
      const text = String(data);
      out.raw.push(text);
      const m = JSON.parse(text) as Record<string, unknown>;
      out.messages.push(m);
      if (m.status === 'connected') {
        out.opened = true;
        for (const f of frames) if (ws.readyState === WebSocket.OPEN) ws.send(f.data, { binary: f.binary });
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'CloseStream' }));
      }
    });
    ws.on('unexpected-response', (_req, res) => {
      clearTimeout(guard);
      resolve({ ...out, code: -(res.statusCode ?? 0) });
      ws.terminate();
    });
    ws.on('close', (code) => {
      clearTimeout(guard);
      resolve({ ...out, code });
    });
    ws.on('error', () => undefined);
  });
}

describe('schema-driven fuzzing of the streaming socket', () => {
  let s: TestServer;
  let op: Operation & { 'x-websocket': { clientMessageSchema: Schema } };
  let doc: Doc;
  let credentials: Creds[];
  const secrets: string[] = [];
  let sessions = 0;
  let opened = 0;

  beforeAll(async () => {
    // Wrong keys are part of the run: no throttle delay, no lockout (auth-throttle.test.ts covers those).
    s = await startServer({ CLINDOC_JOB_CONCURRENCY: '0', CLINDOC_AUTH_MAX_FAILURES: '10000', CLINDOC_AUTH_DELAY_MS: '0' });
    doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as Doc;
    op = doc.paths[STREAM]!.get as typeof op;
    const a = s.creds;
    const created = await s.clindoc.accounts.createAccount('Stream fuzzer');
    const b = { accountId: created.account.id, apiKey: created.apiKey };
    const token = async (c: typeof a): Promise<string> =>
      ((await (await fetch(`${s.base}${STREAM}/token`, { method: 'POST', headers: authHeaders(c) })).json()) as { token: string }).token;
    const [aToken, bToken] = [await token(a), await token(b)];
    secrets.push(a.accountId, a.apiKey, aToken);
    credentials = [
      { label: 'B key', headers: { 'X-API-KEY': b.apiKey, 'X-ACCOUNT-ID': b.accountId }, query: {}, mayOpen: true },
      { label: 'B token', headers: {}, query: { api_token: bToken, account_id: b.accountId }, mayOpen: true },
      { label: "B key for A's account", headers: { 'X-API-KEY': b.apiKey, 'X-ACCOUNT-ID': a.accountId }, query: {}, mayOpen: false },
      { label: "B token for A's account", headers: {}, query: { api_token: bToken, account_id: a.accountId }, mayOpen: false },
      { label: "B key, A's account in the query", headers: { 'X-API-KEY': b.apiKey }, query: { account_id: a.accountId }, mayOpen: false },
      { label: 'no credentials', headers: {}, query: {}, mayOpen: false },
      { label: 'junk token', headers: {}, query: { api_token: 'cdt_junk', account_id: b.accountId }, mayOpen: false },
    ];
  });

  afterAll(async () => {
    process.stdout.write(`fuzz-openapi-stream: ${sessions} sessions (${opened} opened) in ${SECONDS} s\n`);
    await s?.close();
  });

  it('is described with parameter and message schemas to generate from', () => {
    expect(op['x-websocket'].clientMessageSchema).toBeDefined();
    expect((op.parameters ?? []).map((p) => p.name)).toEqual(expect.arrayContaining(['language', 'sample_rate', 'encoding', 'dictation']));
  });

  it('opens only for the right account, closes only normally or by policy, tells nothing of A, and keeps serving', async () => {
    const params = (op.parameters ?? []).filter((p) => p.in === 'query' && p.name !== 'account_id' && p.name !== 'api_token');
    const value = (p: (typeof params)[number]): fc.Arbitrary<unknown> =>
      fc.oneof({ weight: 6, arbitrary: validValue(p.schema, doc) }, { weight: 1, arbitrary: boundaryValue(p.schema, doc) }, { weight: 1, arbitrary: fc.string({ maxLength: 20 }) });
    const query = fc.tuple(...params.map((p) => fc.option(value(p), { freq: 2 })))
      .map((values) => values.map((v, i) => (v === null ? undefined : [params[i]!.name, typeof v === 'object' ? JSON.stringify(v) : String(v)] as [string, string])).filter((x): x is [string, string] => x !== undefined));
    const frame = fc.oneof(
      { weight: 4, arbitrary: jsonBody(op['x-websocket'].clientMessageSchema, doc).map((b) => ({ data: b.bytes, binary: false })) },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 3000 }).map((u) => ({ data: Buffer.from(u), binary: true })) },
    );
    // Sessions that may open are drawn as often as all the refusals together, so messages get fuzzed too.
    const creds = fc.oneof(fc.constantFrom(...credentials.flatMap((c, i) => (c.mayOpen ? [i] : []))), fc.constantFrom(...credentials.flatMap((c, i) => (c.mayOpen ? [] : [i]))));
    const sessionCase = fc.record({ creds, query, frames: fc.array(frame, { maxLength: 12 }) });

    const runCase = async ({ creds: ci, query: q, frames }: { creds: number; query: Array<[string, string]>; frames: Array<{ data: Buffer; binary: boolean }> }): Promise<void> => {
      const creds = credentials[ci]!;
      const search = new URLSearchParams([...q, ...Object.entries(creds.query)]).toString();
      const out = await session(s.base, search, creds, frames);
      sessions++;
      if (out.opened) opened++;
      const where = `${creds.label} ?${search.slice(0, 120)}`;
      if (!creds.mayOpen) expect(out.opened, `${where} opened a session`).toBe(false);
      expect([1000, 1007, 1008, 1009, 1011], `${where} closed with ${out.code}`).toContain(out.code);
      for (const m of out.messages) {
        expect(['status', 'error', 'transcript'], where).toContain(m.type);
        if (m.type === 'error') expect(String(m.error).length).toBeLessThan(300);
      }
      const sent = `${search}\n${JSON.stringify(creds.headers)}`;
      for (const secret of secrets) if (!sent.includes(secret)) expect(out.raw.join('\n').includes(secret), `${where} told about ${secret}`).toBe(false);
    };
    // Seeded batches until the time is spent, never fewer than MIN_SESSIONS.
    const deadline = Date.now() + SECONDS * 1000;
    for (let batch = 0; sessions < MIN_SESSIONS || Date.now() < deadline; batch++) {
      for (const c of fc.sample(sessionCase, { numRuns: 5, seed: 4242 + batch })) await runCase(c);
    }

    expect(sessions).toBeGreaterThanOrEqual(MIN_SESSIONS);
    expect(opened).toBeGreaterThan(0);
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
    // A plain session still opens and ends cleanly afterwards.
    const clean = await session(s.base, 'encoding=linear16&sample_rate=16000', credentials[0]!, [{ data: Buffer.from(JSON.stringify({ type: 'KeepAlive' })), binary: false }]);
    expect(clean.opened).toBe(true);
    expect(clean.messages.at(-1)).toMatchObject({ type: 'status', status: 'disconnected' });
  }, (SECONDS + 90) * 1000);
});
