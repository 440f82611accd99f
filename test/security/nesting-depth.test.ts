/**
 * Issue 29, point 6: JSON bodies nested 5,000 to 20,000 levels deep (a text-to-JSON schema, a
 * note's or visit's noteOptions, any array) are a 400 naming the limit, not a 500 from a stack
 * overflow further in, and the server answers on; a body just inside the limit still works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { MAX_JSON_DEPTH, tooDeep } from '../../main/server/middleware/json-depth.js';

// Built as text: JSON.stringify itself overflows on such values.
const schemaOf = (n: number): string => `${'{"type":"object","properties":{"a":'.repeat(n)}{"type":"string"}${'}}'.repeat(n)}`;
const objectOf = (n: number): string => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
const arrayOf = (n: number): string => `${'['.repeat(n)}1${']'.repeat(n)}`;

describe('deeply nested JSON bodies', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  const post = (path: string, body: string, method = 'POST'): Promise<Response> => fetch(`${s.base}${path}`, { method, headers: s.headers(), body });

  it('answers 400 naming the limit for schemas, noteOptions and arrays nested 5,000 and 20,000 deep', async () => {
    for (const n of [5_000, 20_000]) {
      const cases: Array<[string, string]> = [
        ['/v1/utils/text-to-json', `{"text":"Blood pressure 120/80.","schema":${schemaOf(n)}}`],
        ['/v1/notes', `{"transcript":"Cough for three days.","noteOptions":${objectOf(n)}}`],
        ['/v1/visits', `{"noteOptions":${objectOf(n)}}`],
        ['/v1/macros/detect', `{"text":"hello","macros":${arrayOf(n)}}`],
      ];
      for (const [path, body] of cases) {
        const res = await post(path, body);
        expect({ path, n, status: res.status }).toEqual({ path, n, status: 400 });
        expect(await res.json()).toEqual({ error: 400, message: `body: nested deeper than ${MAX_JSON_DEPTH} levels` });
      }
    }
    expect(s.logs.join('\n')).not.toMatch(/unhandled error/);
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
  }, 60_000);

  it('still takes a body nested just inside the limit', async () => {
    // The body is level 0, so noteOptions' innermost object is at level 99 (the last allowed), then 100.
    const res = await post('/v1/visits', `{"noteOptions":${objectOf(MAX_JSON_DEPTH - 1)}}`);
    expect(res.status).toBe(201);
    expect((await post('/v1/visits', `{"noteOptions":${objectOf(MAX_JSON_DEPTH)}}`)).status).toBe(400);
  });

  it('measures depth without recursion, stopping at the limit', () => {
    expect(tooDeep(JSON.parse(arrayOf(MAX_JSON_DEPTH)))).toBeUndefined();
    expect(tooDeep(JSON.parse(arrayOf(MAX_JSON_DEPTH + 1)))?.status).toBe(400);
    expect(tooDeep(JSON.parse(objectOf(100_000)))?.status).toBe(400);
    expect(tooDeep({ a: [1, { b: 'x' }], c: null })).toBeUndefined();
  });
});
