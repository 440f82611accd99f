/**
 * A real OpenAI-compatible chat-completions server on 127.0.0.1 for tests: each request is handed to
 * the test's handler, which answers through node:http like vLLM or llama-server would (JSON,
 * server-sent events, errors, slow answers). Every request is recorded for assertions.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    stream?: boolean;
    messages?: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; schema: unknown; strict?: boolean } };
    max_tokens?: number;
    temperature?: number;
  };
}

export type Handler = (req: RecordedRequest, res: ServerResponse, index: number) => void | Promise<void>;

export interface ChatServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Background health checks (`GET /v1/models`) it answered. */
  checks: RecordedRequest[];
  close(): Promise<void>;
}

/** Sends a non-streaming chat-completion answer. */
export function answer(res: ServerResponse, content: string, finishReason = 'stop'): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-test',
      object: 'chat.completion',
      choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: finishReason }],
    }),
  );
}

/** Sends an error status with an OpenAI-style error body and optional headers. */
export function fail(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { message: 'test failure', type: 'server_error' } }));
}

/**
 * Streams `pieces` as chat.completion.chunk events. Writes are deliberately split in the middle of
 * events so the client's SSE parser must reassemble them.
 */
export async function streamAnswer(res: ServerResponse, pieces: string[], finishReason = 'stop'): Promise<void> {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const events = [
    ': keep-alive comment\n\n',
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: { role: 'assistant' } }] })}\n\n`,
    ...pieces.map((p) => `data: ${JSON.stringify({ choices: [{ index: 0, delta: { content: p }, finish_reason: null }] })}\r\n\r\n`),
    `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: finishReason }] })}\n\n`,
    'data: [DONE]\n\n',
  ];
  const wire = events.join('');
  const cut = Math.floor(wire.length / 3);
  for (const part of [wire.slice(0, cut), wire.slice(cut, 2 * cut), wire.slice(2 * cut)]) {
    await new Promise<void>((resolve) => res.write(part, () => resolve()));
  }
  res.end();
}

/** Starts the server on an ephemeral loopback port. */
export async function startChatServer(handler: Handler): Promise<ChatServer> {
  const requests: RecordedRequest[] = [];
  const checks: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: raw ? (JSON.parse(raw) as RecordedRequest['body']) : {},
      };
      // The background health check (GET /models) goes to the handler too, so a server that fails
      // completions fails its checks, but is not recorded among the requests tests count.
      if (recorded.url === '/v1/models' && recorded.method === 'GET') {
        checks.push(recorded);
        return void Promise.resolve(handler(recorded, res, -1)).catch(() => fail(res, 500));
      }
      requests.push(recorded);
      if (recorded.url !== '/v1/chat/completions' || recorded.method !== 'POST') return fail(res, 404);
      Promise.resolve(handler(recorded, res, requests.length - 1)).catch(() => fail(res, 500));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    checks,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
