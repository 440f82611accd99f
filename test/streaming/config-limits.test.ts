import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startServer, type TestServer } from '../support/server.js';

/** Opens a socket and collects its messages until it is connected or closed. */
function open(url: string, headers: Record<string, string>) {
  const ws = new WebSocket(url, { headers });
  const messages: Array<{ type: string; status?: string; error?: string }> = [];
  const closed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
  ws.on('message', (data) => messages.push(JSON.parse(String(data))));
  const ready = new Promise<void>((resolve) => {
    const check = (): void => {
      if (messages.some((m) => m.type === 'status' && m.status === 'connected') || ws.readyState === WebSocket.CLOSED) resolve();
      else setTimeout(check, 20);
    };
    check();
  });
  return { ws, messages, closed, ready };
}

describe('streaming limits from configuration', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_STREAM_MAX_SESSIONS: '1' });
  });
  afterAll(() => s.close());

  it('refuses a second concurrent session for the account with an error and close 1008', async () => {
    const url = `ws://127.0.0.1:${s.port}/v1/audio/transcriptions/stream?encoding=linear16`;
    const headers = { 'X-API-KEY': s.creds.apiKey, 'X-ACCOUNT-ID': s.creds.accountId };
    const first = open(url, headers);
    await first.ready;
    expect(first.messages[0]).toMatchObject({ type: 'status', status: 'connected' });
    const second = open(url, headers);
    expect(await second.closed).toBe(1008);
    expect(second.messages.some((m) => m.type === 'error' && /session/i.test(m.error ?? ''))).toBe(true);
    first.ws.send(JSON.stringify({ type: 'CloseStream' }));
    await first.closed;
    expect(first.messages[first.messages.length - 1]).toMatchObject({ type: 'status', status: 'disconnected' });
  });
});
