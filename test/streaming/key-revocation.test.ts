/**
 * Issue 29, point 6: revoking a key ends the live dictation sessions opened with it (directly or
 * through a streaming token it issued) with the contract's refusal, an `error` message then close
 * 1008; sessions of the account's other keys go on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startServer, type TestServer } from '../support/server.js';
import { connect } from './helpers.js';

describe('revoking a key during live dictation', () => {
  let s: TestServer;
  beforeAll(async () => {
    // Sessions here send no audio: on a loaded machine opening three can take longer than the default idle limit.
    s = await startServer({ CLINDOC_STREAM_IDLE_SECONDS: '600' });
  });
  afterAll(() => s?.close());

  const url = (query = ''): string => `ws://127.0.0.1:${s.port}/v1/audio/transcriptions/stream${query ? `?${query}` : ''}`;

  it('closes that key\'s sessions with 1008 and an error message, and keeps the other key\'s session open', async () => {
    const { accountId } = s.creds;
    const doomed = await s.clindoc.accounts.createKey(accountId);
    const direct = connect(url(), { 'X-API-KEY': doomed.apiKey, 'X-ACCOUNT-ID': accountId });
    // A streaming token dies with the key that issued it, and so does its session.
    const token = await s.clindoc.accounts.issueStreamToken(await s.clindoc.accounts.authenticate(doomed.apiKey, accountId), 600);
    const viaToken = connect(url(`api_token=${token.token}&account_id=${accountId}`));
    const other = connect(url(), { 'X-API-KEY': s.creds.apiKey, 'X-ACCOUNT-ID': accountId });
    for (const c of [direct, viaToken, other]) await c.next((m) => m.type === 'status' && m.status === 'connected');

    // As `clindoc keys revoke` does, in the same database.
    await s.clindoc.accounts.revokeKey(doomed.keyId);
    expect(await direct.closed).toBe(1008);
    expect(await viaToken.closed).toBe(1008);
    for (const c of [direct, viaToken]) expect(c.errors()).toEqual(['the API key this session was opened with was revoked: session closed']);
    expect(other.ws.readyState).toBe(WebSocket.OPEN);
    other.sendJson({ type: 'KeepAlive' });
    other.ws.close(1000);
    expect(await other.closed).toBe(1000);
    expect(other.errors()).toEqual([]);
  }, 60_000);
});
