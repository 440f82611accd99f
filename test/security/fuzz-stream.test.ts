import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import WebSocket from 'ws';
import { startServer, type TestServer } from '../support/server.js';

/**
 * Hostile streaming messages: random JSON, wrong types, bad and huge base64, binary frames,
 * invalid UTF-8 text frames and oversized frames. The server answers with `error` messages (or
 * closes that one socket), never crashes, never echoes what it was sent, and keeps serving.
 */

const BATCHES = 30;
const PER_BATCH = 40;

type Frame = { data: Buffer | string; binary: boolean };

const frame = (): fc.Arbitrary<Frame> =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }).map((v) => ({ data: JSON.stringify(v) ?? 'null', binary: false })),
    fc.oneof(fc.string({ maxLength: 300 }), fc.constantFrom('', '====', 'AAA', '!!!!', 'A'.repeat(1001))).map((audio) => ({ data: JSON.stringify({ audio }), binary: false })),
    fc.uint8Array({ maxLength: 4000 }).map((b) => ({ data: JSON.stringify({ audio: Buffer.from(b).toString('base64') }), binary: false })),
    fc.jsonValue({ maxDepth: 2 }).map((audio) => ({ data: JSON.stringify({ audio }), binary: false })),
    fc.constantFrom('KeepAlive', 'Finalize', 'Unknown', '', 'CloseStreamX').map((type) => ({ data: JSON.stringify({ type }), binary: false })),
    fc.uint8Array({ maxLength: 2000 }).map((b) => ({ data: Buffer.from(b), binary: true })),
    fc.constantFrom(
      { data: `{"audio":"${'A'.repeat(1_500_000)}"}`, binary: false },
      { data: `${'['.repeat(50_000)}${']'.repeat(50_000)}`, binary: false },
      { data: JSON.stringify({ audio: 'UklGRiQAAABXQVZFZm10IBAAAAABAAEAgD4AAAB9AAACABAAZGF0YQAAAAA=' }), binary: false },
    ),
  );

interface SessionResult { messages: Array<Record<string, unknown>>; code: number; sent: number }

/** Opens a session, sends the frames after `connected`, then CloseStream; resolves when it closes. */
function session(s: TestServer, frames: Frame[]): Promise<SessionResult> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${s.base.replace('http', 'ws')}/v1/audio/transcriptions/stream?encoding=linear16&sample_rate=16000`, {
      headers: { 'X-API-KEY': s.creds.apiKey, 'X-ACCOUNT-ID': s.creds.accountId },
    });
    const messages: Array<Record<string, unknown>> = [];
    let sent = 0;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as Record<string, unknown>;
      messages.push(m);
      if (m.status === 'connected') {
        for (const f of frames) {
          if (ws.readyState !== WebSocket.OPEN) break;
          ws.send(f.data, { binary: f.binary });
          sent++;
        }
        if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: 'CloseStream' }));
      }
    });
    ws.on('close', (code) => resolve({ messages, code, sent }));
    ws.on('error', (err) => (err.message.includes('Invalid WebSocket frame') ? undefined : reject(err)));
  });
}

describe('hostile streaming messages', () => {
  let s: TestServer;
  let cases = 0;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_JOB_CONCURRENCY: '0' });
  });
  afterAll(async () => {
    process.stdout.write(`fuzz: ${cases} hostile streaming messages in ${BATCHES} sessions\n`);
    await s.close();
  });

  it('answers with error messages or a clean close, never a crash, and keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(frame(), { minLength: PER_BATCH, maxLength: PER_BATCH }), async (frames) => {
        const result = await session(s, frames);
        cases += result.sent;
        expect(result.messages[0]).toMatchObject({ type: 'status', status: 'connected' });
        for (const m of result.messages) {
          expect(['status', 'error', 'transcript']).toContain(m.type);
          if (m.type === 'error') {
            expect(typeof m.error).toBe('string');
            expect(String(m.error).length).toBeLessThan(300); // never the frame echoed back
          }
        }
        // Policy closes (1008/1009/1007) or a normal close: never an abnormal 1006 from a crash.
        expect([1000, 1007, 1008, 1009, 1011]).toContain(result.code);
        expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
      }),
      { numRuns: BATCHES, seed: 21 },
    );
    // A clean session still works afterwards.
    const after = await session(s, [{ data: JSON.stringify({ type: 'KeepAlive' }), binary: false }]);
    expect(after.messages.at(-1)).toMatchObject({ type: 'status', status: 'disconnected' });
  });

  it('closes only that socket (1007) on invalid UTF-8 in a text frame', async () => {
    const result = await session(s, [{ data: Buffer.from([0x7b, 0x22, 0x61, 0xff, 0xfe, 0x22, 0x7d]), binary: false }]);
    cases += result.sent;
    expect([1000, 1007]).toContain(result.code);
    expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
  });
});
