/**
 * Graceful drain of `npm run serve` as a service manager does it: SIGTERM to the real process
 * while a request is half sent, a readiness probe is half sent and a dictation socket is open.
 * New connections are refused, the probe answers 503 `draining`, the request completes, the
 * socket gets the protocol's close (1001) and the process exits 0.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { connect as netConnect, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { WebSocket } from 'ws';
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort, ROOT, startHeadless } from '../support/child.js';
import { speechWav } from '../support/audio.js';

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A raw connection whose bytes we send when we choose; `response` resolves with all it received once it closes. */
async function rawConnection(port: number): Promise<{ socket: Socket; response: Promise<string> }> {
  const socket = netConnect(port, '127.0.0.1');
  await once(socket, 'connect');
  let received = '';
  socket.on('data', (c: Buffer) => (received += c.toString()));
  const response = new Promise<string>((resolve) => socket.on('close', () => resolve(received)));
  return { socket, response };
}

const refused = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = netConnect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'ECONNREFUSED'));
  });

/** Resolves once the child has written `text` (checked on each chunk it writes, not on a clock). */
function said(child: ChildProcess, output: () => string, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!output().includes(text)) return;
      child.stdout!.off('data', check);
      child.stderr!.off('data', check);
      child.off('exit', gone);
      resolve();
    };
    const gone = (): void => reject(new Error(`exited before saying ${text}:\n${output()}`));
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    child.once('exit', gone);
    check();
  });
}

async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('SIGTERM drains the server', () => {
  it('finishes the request in flight, answers /readyz 503, closes dictation with 1001 and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-drain-'));
    dirs.push(dataDir);
    const port = await freePort();
    const { child, output, credentials } = await startHeadless({ CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir, CLINDOC_DRAIN_SECONDS: '20' });
    const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
    try {
      const { accountId, apiKey } = credentials();
      const host = `127.0.0.1:${port}`;

      // A live dictation session.
      const ws = new WebSocket(`ws://${host}/v1/audio/transcriptions/stream?encoding=linear16&sample_rate=16000`, { headers: { 'X-API-KEY': apiKey, 'X-ACCOUNT-ID': accountId } });
      const wsClosed = new Promise<number>((resolve) => ws.on('close', (code) => resolve(code)));
      ws.on('error', () => undefined);
      await once(ws, 'open');

      // A note request whose body is half sent: in flight when the signal comes.
      const body = JSON.stringify({ transcript: '[doctor] Blood pressure is fine today. Continue the same dose.', noteType: { type: 'soap' } });
      const slow = await rawConnection(port);
      slow.socket.write(
        `POST /v1/notes HTTP/1.1\r\nHost: ${host}\r\nX-API-KEY: ${apiKey}\r\nX-ACCOUNT-ID: ${accountId}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, 20)}`,
      );
      // A load balancer's probe, its headers not yet finished.
      const probe = await rawConnection(port);
      probe.socket.write(`GET /readyz HTTP/1.1\r\nHost: ${host}\r\n`);
      // Connections are accepted in order: once a later one is answered, both were taken in and read.
      expect((await fetch(`http://${host}/healthz`)).status).toBe(200);

      child.kill('SIGTERM');
      await said(child, output, '"msg":"draining"');
      await until(() => refused(port), 'new connections to be refused');

      probe.socket.write('\r\n');
      const probeAnswer = await probe.response;
      expect(probeAnswer).toMatch(/^HTTP\/1\.1 503 /);
      expect(probeAnswer).toContain('"status":"draining"');

      expect(await wsClosed).toBe(1001);

      slow.socket.write(body.slice(20));
      const answer = await slow.response;
      expect(answer).toMatch(/^HTTP\/1\.1 202 /);
      expect(answer.toLowerCase()).toContain('connection: close');
      expect(answer).toContain('"noteId"');

      const [code, signal] = await exited;
      expect({ code, signal }).toEqual({ code: 0, signal: null });
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);

  it('exits 0 at once when nothing is in flight, and a second signal while draining exits 1', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-drain-'));
    dirs.push(dataDir);
    const port = await freePort();
    // An hour of grace (the most there is): a process that waited it out would never exit within the test.
    const first = await startHeadless({ CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir, CLINDOC_DRAIN_SECONDS: '3600' });
    first.child.kill('SIGTERM');
    const [code] = (await once(first.child, 'exit')) as [number | null];
    expect(code).toBe(0);

    // A request that never finishes keeps the drain waiting; the operator's second Ctrl-C ends it.
    const second = await startHeadless({ CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir, CLINDOC_DRAIN_SECONDS: '60' });
    const stuck = await rawConnection(port);
    // With credentials, so the route reads the body (an anonymous one is answered 401 unread).
    const { accountId, apiKey } = second.credentials();
    stuck.socket.write(
      `POST /v1/notes HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nX-ACCOUNT-ID: ${accountId}\r\nX-API-KEY: ${apiKey}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{`,
    );
    expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(200);
    second.child.kill('SIGINT');
    await said(second.child, second.output, '"msg":"draining"');
    expect(second.child.exitCode).toBeNull();
    second.child.kill('SIGINT');
    const [again] = (await once(second.child, 'exit')) as [number | null];
    expect(again).toBe(1);
    stuck.socket.destroy();
  }, 60_000);

  /**
   * A headless server on a fresh data folder with a transcription of ~13 s of speech running when
   * this resolves. Long enough that the job is still being recognised when the signal comes (seen
   * as `processing` first), short enough that a loaded machine finishes it well inside the test:
   * ~40 s of speech took 104 s to recognise at load 15.
   */
  async function transcribing(drainSeconds: string) {
    const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-drain-'));
    dirs.push(dataDir);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const sentence = 'The patient reports a dry cough for three weeks without fever. Lungs are clear on both sides. ';
    const audio = speechWav(sentence.repeat(2)).bytes;
    const server = await startHeadless({ CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir, CLINDOC_DRAIN_SECONDS: drainSeconds });
    const { accountId, apiKey } = server.credentials();
    const headers = { 'X-ACCOUNT-ID': accountId, 'X-API-KEY': apiKey };
    const upload = await fetch(`${base}/v2/audio/transcriptions?diarization=false`, { method: 'POST', headers: { ...headers, 'content-type': 'audio/wav' }, body: new Uint8Array(audio) });
    expect(upload.status).toBe(202);
    const id = ((await upload.json()) as { id: string }).id;
    const status = async (): Promise<string> => ((await (await fetch(`${base}/v2/audio/transcriptions/${id}`, { headers })).json()) as { status: string }).status;
    let seen = '';
    await until(async () => (seen = await status()) !== 'pending', 'the job to start', 30_000);
    expect(seen).toBe('processing');
    return { server, dataDir, port, status };
  }

  it('lets a running transcription job finish before exiting', async () => {
    const { server, dataDir, port, status } = await transcribing('120');
    server.child.kill('SIGTERM');
    const [code] = (await once(server.child, 'exit')) as [number | null];
    expect(code).toBe(0);
    // Started again with no job runner: what the drained process left is what is stored.
    const again = await startHeadless({ CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir, CLINDOC_JOB_CONCURRENCY: '0' });
    try {
      expect(await status()).toBe('completed');
    } finally {
      again.child.kill('SIGTERM');
      await once(again.child, 'exit');
    }
  }, 120_000);

  it('does not wait past the drain period for a running job, which runs again at the next start', async () => {
    const { server, dataDir, port, status } = await transcribing('0');
    server.child.kill('SIGTERM');
    const [code] = (await once(server.child, 'exit')) as [number | null];
    // Either the engines let go of the recognition (closed cleanly, 0) or the deadline ended the process (1, said in the log).
    expect([0, 1]).toContain(code);
    if (code === 1) expect(server.output()).toContain('drain period over with work unfinished');
    expect(await status().catch(() => 'unreachable')).toBe('unreachable');
    // It exited without waiting for the recognition: what it left is unfinished (seen with no job runner).
    const idle = await startHeadless({ CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir, CLINDOC_JOB_CONCURRENCY: '0' });
    try {
      expect(['pending', 'processing']).toContain(await status());
    } finally {
      idle.child.kill('SIGTERM');
      await once(idle.child, 'exit');
    }

    const again = await startHeadless({ CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir });
    try {
      await until(async () => (await status()) === 'completed', 'the interrupted transcription to complete', 90_000);
    } finally {
      again.child.kill('SIGTERM');
      await once(again.child, 'exit');
    }
  }, 240_000); // three starts of the server: the drained one, one with no job runner, one that finishes the job

  it('`clindoc serve` is the same server, and drains when its service manager signals the whole group', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-drain-'));
    dirs.push(dataDir);
    const port = await freePort();
    // detached: its own process group, as systemd's control group (bin/clindoc.js runs Clindoc as a child).
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'clindoc.js'), 'serve'], {
      cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir, CLINDOC_DRAIN_SECONDS: '20', CLINDOC_LOG_LEVEL: 'info' },
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    // 'close', not 'exit': the output piped before the exit may still be on its way when 'exit' fires.
    const exited = once(child, 'close') as Promise<[number | null, string | null]>;
    try {
      await said(child, () => out, 'local API listening');
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);
      process.kill(-child.pid!, 'SIGTERM');
      await until(() => refused(port), 'the port to close');
      await exited;
      // The Clindoc process itself drained and said so; the group is empty.
      expect(out).toContain('"msg":"draining"');
      expect(out).not.toContain('second signal');
      await until(() => {
        try {
          process.kill(-child.pid!, 0);
          return false;
        } catch {
          return true;
        }
      }, 'every process of the group to exit');
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 90_000);
});
