import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, startStreaming, type StreamingServer } from './helpers.js';

/** Refusals happen before any engine is touched, so they run against the composition's own socket. */
describe('streaming handshake on the composed server', () => {
  let s: StreamingServer;
  beforeAll(async () => {
    s = await startStreaming();
  });
  afterAll(async () => {
    await s?.close();
  });

  const refused = async (url: string, headers: Record<string, string>): Promise<{ code: number; messages: string[] }> => {
    const c = connect(url, headers);
    const code = await c.closed;
    return { code, messages: c.messages.map((m) => `${m.type}:${String(m.error ?? m.status)}`) };
  };

  it('refuses missing or wrong credentials with an error message then close 1008', async () => {
    const { apiKey, accountId } = s.app.creds;
    const cases: Array<[string, Record<string, string>]> = [
      [s.appUrl(), {}],
      [s.appUrl(), { 'X-API-KEY': apiKey }],
      [s.appUrl(), { 'X-API-KEY': `${apiKey}x`, 'X-ACCOUNT-ID': accountId }],
      [s.appUrl(`account_id=${accountId}`), { 'X-API-KEY': 'nope' }],
      [s.appUrl(`api_token=stk_forged&account_id=${accountId}`), {}],
      [s.appUrl(), { 'X-API-TOKEN': apiKey, 'X-ACCOUNT-ID': accountId }],
    ];
    for (const [url, headers] of cases) {
      const r = await refused(url, headers);
      expect(r.code).toBe(1008);
      expect(r.messages).toHaveLength(1);
      expect(r.messages[0]).toMatch(/^error:/);
    }
  });

  it('refuses bad parameters with close 1008, naming the parameter', async () => {
    for (const [query, name] of [['encoding=mp3', 'encoding'], ['sample_rate=abc', 'sample_rate'], ['sample_rate=100', 'sample_rate'], ['dictation=maybe', 'dictation'], ['language=en_US!', 'language']]) {
      const r = await refused(s.appUrl(query!), s.keyHeaders());
      expect(r.code).toBe(1008);
      expect(r.messages[0]).toContain(name);
    }
  });

  it('refuses a language the embedded engine cannot do, after authenticating', async () => {
    const r = await refused(s.url('language=ja'), s.keyHeaders());
    expect(r.code).toBe(1008);
    expect(r.messages[0]).toMatch(/language/);
  });

  it('applies the REST Host and Origin defence before upgrading, and knows only its own path', async () => {
    expect((await refused(s.appUrl(), { ...s.keyHeaders(), Host: `evil.example:${s.app.port}` })).code).toBe(-403);
    expect((await refused(s.appUrl(), { ...s.keyHeaders(), Origin: 'http://evil.example' })).code).toBe(-403);
    const other = `ws://127.0.0.1:${s.app.port}/v1/audio/transcriptions/other`;
    expect((await refused(other, s.keyHeaders())).code).toBe(-404);
    const own = connect(s.url(), { ...s.keyHeaders(), Origin: 'http://allowed.example' });
    await own.next((m) => m.status === 'connected');
    own.ws.close();
    await own.closed;
  });

  it('never writes credentials into the logs', () => {
    const joined = s.app.logs.join('\n');
    expect(joined).not.toContain(s.app.creds.apiKey);
  });
});
