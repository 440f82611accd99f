import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { request } from 'node:http';
import { startServer, type TestServer } from '../support/server.js';
import { wavBytes } from '../support/audio.js';
import { authHeaders, markedWav } from './helpers.js';
import { jsonBody, oddHeaders, pathParam, queryString, type Doc, type Operation } from './openapi-arbitraries.js';

/**
 * The schema-driven fuzzer: every operation of `/openapi.json`, for a bounded time, with requests
 * generated from its own schemas (valid bodies that reach the handlers, values on and past each
 * bound, hostile values, malformed and huge JSON, odd headers, strange path ids and queries), sent
 * with account B's key while account A's data sits in the same server. Every answer must be below
 * 500 in the contract's error body, nothing of A's may appear in B's answers unless B itself sent
 * it, and the server must keep serving. Time per run: FUZZ_SECONDS (default 30).
 */

const SECONDS = Number(process.env.FUZZ_SECONDS ?? 30);
const MARKER = 'ZEBRA-7731-PRIVATE';
/** Requests per operation even when its share of the time is spent. */
const MIN_CASES = 8;

interface Sent { method: string; path: string; headers: Record<string, string>; body?: Buffer }
interface Answer { status: number; headers: Record<string, string | string[] | undefined>; text: string }

function send(base: string, req: Sent): Promise<Answer> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const r = request({ host: url.hostname, port: url.port, path: req.path, method: req.method, headers: { ...req.headers, ...(req.body ? { 'content-length': String(req.body.length) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    r.on('error', reject);
    r.end(req.body);
  });
}

describe('schema-driven fuzzing of every operation in /openapi.json', () => {
  let s: TestServer;
  let doc: Doc;
  let b: { accountId: string; apiKey: string };
  const secrets: string[] = [];
  const aIds: string[] = [];
  const ownIds: string[] = [];
  const knownToB = new Set<string>();
  const stats = { cases: 0, byKind: {} as Record<string, number>, byStatus: {} as Record<string, number>, operations: 0 };

  beforeAll(async () => {
    s = await startServer({
      CLINDOC_JOB_CONCURRENCY: '0', CLINDOC_RATE_LIMIT: '1000000', CLINDOC_AUTH_MAX_FAILURES: '10000', CLINDOC_AUTH_DELAY_MS: '0', CLINDOC_BODY_LIMIT_BYTES: String(2 * 1024 * 1024),
    });
    doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as Doc;
    // Account A: one of everything, each carrying the marker.
    const a = authHeaders(s.creds);
    const post = async (path: string, body: unknown, headers = a): Promise<any> => (await fetch(`${s.base}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })).json();
    const note = await post('/v1/notes', { transcript: `${MARKER} reports a cough.` });
    const tplId = `tpl-${MARKER.toLowerCase()}`;
    await post('/v1/note-templates', { id: tplId, title: MARKER, sections: [{ id: 's', type: 'text', prompt: MARKER, properties: {} }] });
    await post('/v1/macro-library', { id: 'a-macro', examples: ['zebra exam'], expansion_text: MARKER });
    const hook = await post('/v1/webhooks', { url: 'https://hooks.example.org/a-only' });
    const upload = (await (await fetch(`${s.base}/v2/audio/transcriptions`, { method: 'POST', headers: { ...a, 'content-type': 'audio/wav' }, body: markedWav(MARKER) })).json()) as { id: string };
    aIds.push(note.data.noteId, upload.id, hook.data.id, tplId, 'a-macro');
    // What B must never be told: A's content, A's account, A's key, the ids the server made for A.
    secrets.push(MARKER, s.creds.accountId, s.creds.apiKey, note.data.noteId, upload.id, hook.data.id, 'hooks.example.org/a-only');
    const created = await s.clindoc.accounts.createAccount('Fuzzer');
    b = { accountId: created.account.id, apiKey: created.apiKey };
  });

  afterAll(async () => {
    process.stdout.write(`fuzz-openapi: ${stats.cases} requests over ${stats.operations} operations in ${SECONDS} s; kinds ${JSON.stringify(stats.byKind)}; statuses ${JSON.stringify(stats.byStatus)}\n`);
    await s?.close();
  });

  /** One request for `op`, generated from its documented parameters and body. */
  const caseFor = (path: string, method: string, op: Operation): fc.Arbitrary<{ kind: string; req: Sent }> => {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
    const params = fc.tuple(...names.map(() => pathParam(() => [...aIds, ...ownIds.slice(-40)])));
    const content = op.requestBody?.content ?? {};
    const jsonSchema = content['application/json']?.schema;
    const rawTypes = Object.keys(content).filter((t) => t !== 'application/json');
    const body: fc.Arbitrary<{ kind: string; body?: Buffer; type?: string }> = jsonSchema
      ? jsonBody(jsonSchema, doc).map((j) => ({ kind: j.kind, body: j.bytes, type: 'application/json' }))
      : rawTypes.length
        ? fc.tuple(fc.constantFrom(...rawTypes), fc.oneof(fc.constant(Buffer.from(wavBytes(0.2))), fc.uint8Array({ maxLength: 3000 }).map((u) => Buffer.from(u)), fc.constant(Buffer.alloc(0)),
          fc.constant(Buffer.from('--x\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\n\r\nRIFF\r\n--x--\r\n'))))
          .map(([type, bytes]) => ({ kind: 'raw', body: bytes, type: type === 'multipart/form-data' ? 'multipart/form-data; boundary=x' : type }))
        : fc.oneof(fc.constant({ kind: 'no-body' }), fc.jsonValue({ maxDepth: 2 }).map((v) => ({ kind: 'unexpected-body', body: Buffer.from(JSON.stringify(v) ?? 'null'), type: 'application/json' })));
    return fc.tuple(params, queryString(op, doc), body, fc.option(oddHeaders(), { freq: 3 })).map(([ids, query, bd, odd]) => {
      let filled = path;
      names.forEach((n, i) => (filled = filled.replace(`{${n}}`, ids[i]!)));
      const headers: Record<string, string> = { 'X-API-KEY': b.apiKey, 'X-ACCOUNT-ID': b.accountId, ...(bd.type ? { 'content-type': bd.type } : {}), ...(odd ?? {}) };
      return { kind: odd ? `${bd.kind}+headers` : bd.kind, req: { method: method.toUpperCase(), path: `${filled}${query}`, headers, ...(bd.body ? { body: bd.body } : {}) } };
    });
  };

  const check = async ({ kind, req }: { kind: string; req: Sent }): Promise<void> => {
    stats.cases++;
    stats.byKind[kind] = (stats.byKind[kind] ?? 0) + 1;
    const res = await send(s.base, req);
    stats.byStatus[res.status] = (stats.byStatus[res.status] ?? 0) + 1;
    const where = `${req.method} ${req.path.slice(0, 120)} (${kind})`;
    expect(res.status, `${where} answered ${res.status}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
    expect(res.status).toBeGreaterThanOrEqual(200);
    if (res.status >= 400 && String(res.headers['content-type'] ?? '').includes('application/json')) {
      expect(JSON.parse(res.text), where).toEqual({ error: res.status, message: expect.any(String) });
    }
    // An id B has itself sent may come back (B's own audit trail lists the ids it tried); A's
    // content, account and key never may, nor an id the server made for A that B never named.
    const sent = `${decodeURIComponent(req.path.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'))}\n${JSON.stringify(req.headers)}\n${req.body?.toString('utf8') ?? ''}`;
    for (const secret of secrets) if (sent.includes(secret)) knownToB.add(secret);
    const told = `${res.text}\n${JSON.stringify(res.headers)}`;
    for (const secret of secrets) {
      if (!knownToB.has(secret)) expect(told.includes(secret), `${where} told B about ${secret}`).toBe(false);
    }
    if (res.status < 300) for (const m of res.text.matchAll(/"(?:id|noteId)":"([^"]{1,200})"/g)) ownIds.push(m[1]!);
  };

  it('answers every generated request below 500, in the error body, without anything of another account, and keeps serving', async () => {
    const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).filter(([, op]) => !op['x-websocket']).map(([method, op]) => ({ path, method, op })));
    expect(ops.length).toBeGreaterThanOrEqual(40);
    stats.operations = ops.length;
    const perOpMs = Math.floor((SECONDS * 1000) / ops.length);
    for (const [i, { path, method, op }] of ops.entries()) {
      // Seeded batches until the operation's share of the time is spent, and never fewer than
      // MIN_CASES, so a slow machine still covers every operation; a failure names its request.
      const arbitrary = caseFor(path, method, op);
      const deadline = Date.now() + perOpMs;
      for (let batch = 0, done = 0; done < MIN_CASES || Date.now() < deadline; batch++) {
        for (const c of fc.sample(arbitrary, { numRuns: 4, seed: 1900 + i * 1000 + batch })) {
          await check(c);
          done++;
        }
      }
      expect((await fetch(`${s.base}/healthz`)).status, `after ${method} ${path}`).toBe(200);
    }
    // Every operation was reached, and the generator got past validation on many of them.
    expect(stats.cases).toBeGreaterThan(ops.length * 5);
    expect(Object.keys(stats.byStatus).filter((st) => Number(st) < 300).length).toBeGreaterThan(0);
  }, (SECONDS + 120) * 1000);

  it("leaves account A's data whole", async () => {
    const a = authHeaders(s.creds);
    for (const path of [`/v1/notes/${aIds[0]}`, `/v2/audio/transcriptions/${aIds[1]}`, `/v1/note-templates/${aIds[3]}`, `/v1/macro-library/${aIds[4]}`]) {
      expect((await fetch(`${s.base}${path}`, { headers: a })).status, path).toBe(200);
    }
    expect(JSON.stringify(await (await fetch(`${s.base}/v1/macro-library/a-macro`, { headers: a })).json())).toContain(MARKER);
    expect(JSON.stringify(await (await fetch(`${s.base}/v1/webhooks`, { headers: a })).json())).toContain(aIds[2]);
  });
});
