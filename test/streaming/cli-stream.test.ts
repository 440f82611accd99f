import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { startServer, type TestServer } from '../support/server.js';
import { speechWav } from '../support/audio.js';
import { runCli } from '../support/child.js';

describe('clindoc stream FILE (the reference client)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

  it('streams a WAV file and prints connected, partial and final lines, then disconnected', { timeout: 60_000 }, async () => {
    const { path } = speechWav('hello world. one two three four five six seven eight nine ten.');
    const result = await runCli(['stream', path, '--url', `ws://127.0.0.1:${s.port}`, '--account', s.creds.accountId, '--key', s.creds.apiKey], {});
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n').filter(Boolean);
    expect(lines[0]).toBe('connected');
    expect(lines.some((l) => l.startsWith('partial'))).toBe(true);
    const finals = lines.filter((l) => l.startsWith('final'));
    expect(finals.length).toBeGreaterThan(0);
    const digits = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'];
    expect(digits.filter((d) => finals.join(' ').includes(d)).length).toBeGreaterThanOrEqual(3);
    expect(lines[lines.length - 1]).toBe('disconnected');
  });

  it('streams raw mulaw with --encoding and a temporary token', { timeout: 60_000 }, async () => {
    const { path } = speechWav('one two three four five');
    const raw = `${path}.mulaw`;
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', path, '-f', 'mulaw', '-ar', '8000', '-ac', '1', raw]);
    const token = (await (await fetch(`${s.base}/v1/audio/transcriptions/stream/token`, { method: 'POST', headers: s.headers() })).json()).token as string;
    const result = await runCli(['stream', raw, '--url', `ws://127.0.0.1:${s.port}`, '--account', s.creds.accountId, '--token', token, '--encoding', 'mulaw', '--sample-rate', '8000', '--fast'], {});
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^final/m);
    expect(result.stdout.trim().split('\n').pop()).toBe('disconnected');
  });
});
