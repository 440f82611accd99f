/**
 * Issue 29, point 2: nothing in a response's `finish` listener can end the process. Each step
 * (metrics, request log, audit entry) is guarded: one that throws is logged by name and the
 * others still run; the client address the audit entry needs was read when the request started.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, waitFor, type TestServer } from '../support/server.js';

describe('the finish listener', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  it('survives an audit step that throws, logs it by step, and still counts the request', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown): void => void uncaught.push(err);
    process.on('uncaughtException', onUncaught);
    const record = s.clindoc.audit.record;
    s.clindoc.audit.record = () => {
      throw new TypeError("Cannot read properties of null (reading 'remoteAddress')");
    };
    try {
      const res = await fetch(`${s.base}/v1/notes`, { headers: s.headers() });
      expect(res.status).toBe(200);
      await waitFor(() => (s.logs.some((l) => l.includes('a finished response could not be recorded')) ? true : undefined));
      const line = JSON.parse(s.logs.find((l) => l.includes('a finished response could not be recorded'))!) as Record<string, unknown>;
      expect(line).toMatchObject({ step: 'audit', errName: 'TypeError' });
      // The request log step ran beside it.
      expect(s.logs.some((l) => l.includes('"route":"/v1/notes"') && l.includes('"status":200'))).toBe(true);
    } finally {
      s.clindoc.audit.record = record;
      process.off('uncaughtException', onUncaught);
    }
    expect(uncaught).toEqual([]);
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
  });

  it('records the client address read when the request started', async () => {
    await fetch(`${s.base}/v1/notes`, { headers: s.headers() });
    // The trail is written in batches: wait for the entry rather than for a time.
    const entry = await waitFor(async () => {
      const trail = (await (await fetch(`${s.base}/v1/audit-events?limit=5`, { headers: s.headers() })).json()) as { data: { items: Array<{ operation: string; ip: string }> } };
      return trail.data.items.find((e) => e.operation === 'listNotes');
    });
    expect(entry.ip).toMatch(/127\.0\.0\.1$/);
  });
});
