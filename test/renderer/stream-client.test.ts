import { describe, it, expect, afterEach } from 'vitest';
import { WebSocketServer, WebSocket } from 'ws';
import type { AddressInfo } from 'node:net';
import { createStreamClient, type SocketLike, type StreamState } from '../../renderer/audio/stream-client.js';
import type { StreamMessage } from '../../renderer/api/types.js';

/** A loopback socket server that plays the contract's side of the conversation. */
async function fakeServer() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise((r) => wss.once('listening', r));
  const received: { connection: number; msg: Record<string, unknown> }[] = [];
  const sockets: WebSocket[] = [];
  wss.on('connection', (ws) => {
    const connection = sockets.push(ws);
    ws.on('message', (data) => {
      const msg = JSON.parse(String(data)) as Record<string, unknown>;
      received.push({ connection, msg });
      if (msg.type === 'CloseStream') {
        ws.send(JSON.stringify({ type: 'transcript', text: 'last words', is_final: true, words: [], audio_start: 0, audio_end: 1, duration: 1, timestamp: '' }));
        ws.send(JSON.stringify({ type: 'status', status: 'disconnected', timestamp: '' }));
        ws.close(1000);
      }
    });
    // Audio sent before this would break rule 1; the client must wait for it.
    setImmediate(() => ws.send(JSON.stringify({ type: 'status', status: 'connected', timestamp: '' })));
  });
  const url = `ws://127.0.0.1:${(wss.address() as AddressInfo).port}/v1/audio/transcriptions/stream`;
  return { wss, received, sockets, url };
}

const until = async (check: () => boolean): Promise<void> => {
  const deadline = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met');
    await new Promise((r) => setImmediate(r));
  }
};

let server: Awaited<ReturnType<typeof fakeServer>> | undefined;
const clients: { stop(t?: number): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.stop(50)));
  server?.sockets.forEach((s) => s.terminate());
  if (server) await new Promise((r) => server!.wss.close(r));
  server = undefined;
});

function client(urls: () => Promise<string>) {
  const messages: StreamMessage[] = [];
  const errors: string[] = [];
  const states: StreamState[] = [];
  const c = createStreamClient({
    connectUrl: urls,
    openSocket: (url) => new WebSocket(url) as unknown as SocketLike,
    onMessage: (m) => messages.push(m),
    onState: (s) => states.push(s),
    onError: (e) => errors.push(e),
    retryDelaysMs: [5],
    setTimer: (fn, ms) => setTimeout(fn, ms),
  });
  clients.push(c);
  return { c, messages, errors, states };
}

describe('the live transcription socket', () => {
  it('sends audio captured before "connected" only after it, in order', async () => {
    server = await fakeServer();
    const { c, states } = client(async () => server!.url);
    c.start();
    c.sendAudio(new Uint8Array(3200), 'AAAA');
    c.sendAudio(new Uint8Array(3200), 'BBBB');
    await until(() => server!.received.length === 2);
    expect(server.received.map((r) => r.msg.audio)).toEqual(['AAAA', 'BBBB']);
    expect(states).toContain('open');
  });

  it('reconnects with a fresh URL when the socket drops, and sends audio captured meanwhile', async () => {
    server = await fakeServer();
    let asked = 0;
    const { c, errors, states } = client(async () => `${server!.url}?token=${++asked}`);
    c.start();
    c.sendAudio(new Uint8Array(2), 'first');
    await until(() => server!.received.length === 1);
    server.sockets[0]!.close(1011);
    await until(() => states.includes('reconnecting'));
    c.sendAudio(new Uint8Array(2), 'during');
    await until(() => server!.received.length === 2);
    expect(server.received[1]).toEqual({ connection: 2, msg: { audio: 'during' } });
    expect(asked).toBe(2);
    expect(errors.join(' ')).toMatch(/reconnecting/);
  });

  it('shows error messages and keeps the session', async () => {
    server = await fakeServer();
    const { c, errors, messages } = client(async () => server!.url);
    c.start();
    await until(() => c.state() === 'open');
    server.sockets[0]!.send(JSON.stringify({ type: 'error', error: 'chunk could not be decoded', timestamp: '' }));
    server.sockets[0]!.send(JSON.stringify({ type: 'transcript', text: 'still here', is_final: true, words: [], audio_start: 0, audio_end: 1, duration: 1, timestamp: '' }));
    await until(() => messages.some((m) => m.type === 'transcript'));
    expect(errors).toEqual(['chunk could not be decoded']);
    expect(c.state()).toBe('open');
  });

  it('stops with CloseStream, receives the last finals and does not reconnect', async () => {
    server = await fakeServer();
    const { c, messages, states } = client(async () => server!.url);
    c.start();
    await until(() => c.state() === 'open');
    await c.stop();
    expect(server.received.at(-1)?.msg).toEqual({ type: 'CloseStream' });
    expect(messages.some((m) => m.type === 'transcript' && m.text === 'last words')).toBe(true);
    expect(states.at(-1)).toBe('closed');
    expect(server.sockets).toHaveLength(1);
  });
});
