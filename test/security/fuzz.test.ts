import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { request } from 'node:http';
import { startServer, type TestServer } from '../support/server.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { HOSTILE_SCHEMAS, hostileValue, mutateAt, pathsOf, VALID_BODIES } from './fuzz-arbitraries.js';
import { validValue, type Doc, type Schema } from './openapi-arbitraries.js';

/**
 * Hostile input over every JSON endpoint of the OpenAPI document: random JSON, mutated valid
 * bodies (wrong types, huge strings, deep nesting, prototype keys), invalid UTF-8, and schemas
 * built to hurt a validator. The server must answer 4xx (or 2xx for what happens to be valid),
 * never 5xx, never crash, and keep answering /healthz.
 */

/** Cases per JSON operation, for each family. */
const RUNS_RANDOM = 80;
const RUNS_MUTATED = 160;
const RUNS_BYTES = 30;
let cases = 0;

/** Sends raw bytes (fetch would re-encode invalid UTF-8). */
function send(base: string, method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; text: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path: url.pathname + url.search, method, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('hostile input over every endpoint body', () => {
  let s: TestServer;
  let ops: Array<{ method: string; path: string; operationId: string; schema: Schema }>;
  let doc: Doc;
  /** A valid body to mutate: the hand-written one that reaches deep, else one generated from the operation's schema. */
  const validBody = (op: { operationId: string; schema: Schema }): unknown =>
    VALID_BODIES[op.operationId] ?? fc.sample(validValue(op.schema, doc), { numRuns: 1, seed: 5 })[0];
  beforeAll(async () => {
    s = await startServer({ CLINDOC_JOB_CONCURRENCY: '0', CLINDOC_RATE_LIMIT: '1000000', CLINDOC_BODY_LIMIT_BYTES: String(4 * 1024 * 1024) });
    doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as Doc;
    ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods)
        .filter(([, op]) => op?.requestBody?.content?.['application/json'])
        .map(([method, op]) => ({
          method: method.toUpperCase(), path: path.replace(/\{\w+\}/g, 'fuzz-id'), operationId: op.operationId, schema: op.requestBody!.content!['application/json']!.schema!,
        })));
  });
  afterAll(async () => {
    process.stdout.write(`fuzz: ${cases} hostile REST cases over ${ops.length} JSON operations\n`);
    await s.close();
  });

  const expectHandled = async (op: { method: string; path: string }, body: Buffer, contentType = 'application/json'): Promise<number> => {
    cases++;
    const res = await send(s.base, op.method, op.path, { ...s.headers(), 'content-type': contentType }, body);
    expect(res.status, `${op.method} ${op.path} answered ${res.status}: ${res.text.slice(0, 200)}`).toBeLessThan(500);
    expect(res.status).toBeGreaterThanOrEqual(200);
    // Nothing from Object.prototype leaks into an answer (a schema property named `constructor`).
    expect(res.text).not.toContain('[native code]');
    // Errors keep the contract's body and never echo what was sent.
    if (res.status >= 400) expect(JSON.parse(res.text)).toEqual({ error: res.status, message: expect.any(String) });
    return res.status;
  };

  it('covers every JSON operation with a body valid against its documented schema', () => {
    expect(ops.length).toBeGreaterThanOrEqual(10);
    // Hand-written bodies where they exist, generated from /openapi.json otherwise: a new route needs no entry here.
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    ajv.addSchema(doc, 'openapi.json');
    for (const op of ops) {
      const pointer = `openapi.json#/paths/${Object.keys(doc.paths).find((p) => p.replace(/\{\w+\}/g, 'fuzz-id') === op.path)!.replace(/~/g, '~0').replace(/\//g, '~1')}/${op.method.toLowerCase()}/requestBody/content/application~1json/schema`;
      const validate = ajv.getSchema(pointer) ?? ajv.compile({ $ref: pointer });
      expect(validate(validBody(op)), `${op.operationId}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
  });

  it('answers random JSON with 4xx, never 5xx', async () => {
    for (const op of ops) {
      await fc.assert(fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (value) => {
        await expectHandled(op, Buffer.from(JSON.stringify(value) ?? 'null'));
      }), { numRuns: RUNS_RANDOM, seed: 9 });
    }
  });

  it('answers valid bodies with one hostile field (wrong type, huge, deep, prototype keys) without 5xx', async () => {
    for (const op of ops) {
      const valid = validBody(op);
      const paths = pathsOf(valid);
      await fc.assert(fc.asyncProperty(fc.constantFrom(...paths), hostileValue(), async (path, value) => {
        await expectHandled(op, Buffer.from(JSON.stringify(mutateAt(valid, path, value))));
      }), { numRuns: RUNS_MUTATED, seed: 11 });
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, 120_000); // one run per operation: the number of operations grows with the API

  it('answers invalid UTF-8, truncated JSON, wrong content types and deep nesting with 4xx', async () => {
    for (const op of ops) {
      await fc.assert(fc.asyncProperty(fc.uint8Array({ minLength: 1, maxLength: 300 }), async (bytes) => {
        const body = Buffer.concat([Buffer.from('{"text":"'), Buffer.from(bytes), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')]);
        await expectHandled(op, body);
      }), { numRuns: RUNS_BYTES, seed: 13 });
      const valid = JSON.stringify(validBody(op));
      await expectHandled(op, Buffer.from(valid.slice(0, Math.floor(valid.length / 2))));
      await expectHandled(op, Buffer.from(valid), 'text/plain');
      await expectHandled(op, Buffer.from(valid), 'application/json; charset=latin-7');
      await expectHandled(op, Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`));
      await expectHandled(op, Buffer.from(`{"a":${'{"a":'.repeat(20_000)}1${'}'.repeat(20_001)}`));
      await expectHandled(op, Buffer.alloc(5 * 1024 * 1024, 0x20)); // over the body limit: 413
    }
  });

  it('answers schemas with recursive $refs and backtracking patterns quickly, and stays responsive meanwhile', async () => {
    const op = { method: 'POST', path: '/v1/utils/text-to-json' };
    const texts = ['45 year old male', `${'a'.repeat(50_000)}!`];
    let slowest = 0;
    for (const schema of HOSTILE_SCHEMAS) {
      for (const text of texts) {
        const started = Date.now();
        const [status, health] = await Promise.all([
          expectHandled(op, Buffer.from(JSON.stringify({ text, schema }))),
          fetch(`${s.base}/healthz`).then((r) => r.status),
        ]);
        slowest = Math.max(slowest, Date.now() - started);
        expect(status).toBeLessThan(500);
        expect(health).toBe(200);
      }
    }
    process.stdout.write(`fuzz: slowest hostile schema answered in ${slowest} ms\n`);
  });

  it('keeps answering /healthz after the run', async () => {
    const started = Date.now();
    const res = await fetch(`${s.base}/healthz`);
    expect(res.status).toBe(200);
    process.stdout.write(`fuzz: /healthz answered in ${Date.now() - started} ms after the run\n`);
  });
});
