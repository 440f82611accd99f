import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { speechWav } from '../support/audio.js';

/**
 * A loopback OpenAI-compatible transcription server: it counts the uploads it receives and
 * answers with a marker sentence, so the test can tell which recogniser handled an upload.
 */
function startOpenAiServer(): Promise<{ url: string; calls: () => number; close: () => Promise<void> }> {
  let calls = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      calls++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        text: 'remote engine answered', duration: 1,
        words: [{ word: 'remote', start: 0, end: 0.3 }, { word: 'engine', start: 0.3, end: 0.6 }, { word: 'answered', start: 0.6, end: 1 }],
      }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => calls,
    close: () => new Promise<void>((r) => server.close(() => r())),
  })));
}

describe('per-account default speech engine (/v1/settings/engines)', () => {
  let s: TestServer;
  let remote: Awaited<ReturnType<typeof startOpenAiServer>>;
  let b: Record<string, string>;
  beforeAll(async () => {
    remote = await startOpenAiServer();
    s = await startServer({ CLINDOC_ASR_BASE_URL: remote.url, CLINDOC_ASR_MODEL: 'whisper-1' });
    const other = await s.clindoc.accounts.createAccount('Clinic B');
    b = { 'X-API-KEY': other.apiKey, 'X-ACCOUNT-ID': other.account.id, 'content-type': 'application/json' };
  });
  afterAll(async () => {
    await s.close();
    await remote.close();
  });

  const settings = async (headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${s.base}/v1/settings/engines`, { method: body === undefined ? 'GET' : 'PUT', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    return { status: res.status, body: await res.json() };
  };
  const transcribe = async (headers: Record<string, string>, query = '') => {
    const res = await fetch(`${s.base}/v2/audio/transcriptions?diarization=false${query}`, {
      method: 'POST', headers: { ...headers, 'content-type': 'audio/wav' }, body: new Uint8Array(speechWav('one two three four five').bytes),
    });
    if (res.status !== 202) return { status: res.status, body: await res.json() };
    const { id } = await res.json();
    const body = await waitFor(async () => {
      const r = await (await fetch(`${s.base}/v2/audio/transcriptions/${id}`, { headers })).json();
      return r.status === 'completed' || r.status === 'failed' ? r : undefined;
    }, 60_000, 100);
    return { status: 202, body };
  };

  it('lists the engines configured here and starts at the device default', async () => {
    const got = await settings(s.headers());
    expect(got.status).toBe(200);
    expect(got.body.data).toEqual({
      asrEngine: 'pocketsphinx', source: 'default', available: ['pocketsphinx', 'openai-compatible'],
      clinicalLanguageModel: { loaded: true, path: expect.stringMatching(/resources[\\/]asr$/) },
      noteEngine: 'embedded', noteSource: 'default', noteAvailable: ['embedded'],
      onEngineFailure: 'embedded', failureSource: 'default', servers: {},
    });
  });

  it("uses the account's default for uploads without an engine; the upload's own engine wins", async () => {
    const set = await settings(s.headers(), { asrEngine: 'openai-compatible' });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ asrEngine: 'openai-compatible', source: 'account' });
    const before = remote.calls();
    const viaDefault = await transcribe(s.headers());
    expect(viaDefault.body.status).toBe('completed');
    expect(viaDefault.body.text).toMatch(/remote engine answered/i);
    expect(remote.calls()).toBe(before + 1);
    const overridden = await transcribe(s.headers(), '&engine=pocketsphinx');
    expect(overridden.body.status).toBe('completed');
    expect(overridden.body.text).not.toMatch(/remote/i);
    expect(remote.calls()).toBe(before + 1);
  });

  it("keeps accounts apart: B neither sees nor changes A's choice", async () => {
    await settings(s.headers(), { asrEngine: 'openai-compatible' });
    expect((await settings(b)).body.data).toMatchObject({ asrEngine: 'pocketsphinx', source: 'default' });
    await settings(b, { asrEngine: 'pocketsphinx' });
    expect((await settings(s.headers())).body.data).toMatchObject({ asrEngine: 'openai-compatible', source: 'account' });
    const before = remote.calls();
    const fromB = await transcribe(b);
    expect(fromB.body.status).toBe('completed');
    expect(remote.calls()).toBe(before);
  });

  it('refuses engines not configured on this device, at settings time and at upload time', async () => {
    const bad = await settings(s.headers(), { asrEngine: 'onnx-whisper' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(400);
    expect(bad.body.message).toMatch(/not configured/);
    expect((await settings(s.headers(), { asrEngine: 7 })).status).toBe(400);
    const upload = await transcribe(s.headers(), '&engine=onnx-ctc');
    expect(upload.status).toBe(400);
    expect(upload.body.message).toMatch(/not configured/);
  });

  it('returns to the device default with null', async () => {
    const reset = await settings(s.headers(), { asrEngine: null });
    expect(reset.body.data).toMatchObject({ asrEngine: 'pocketsphinx', source: 'default' });
  });
});
