import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../main/config.js';
import { createClindoc, type Clindoc, type ComposeOptions } from '../../main/composition.js';

export interface TestServer {
  clindoc: Clindoc;
  base: string;
  port: number;
  dataDir: string;
  /** Every log line the server wrote. */
  logs: string[];
  creds: { accountId: string; apiKey: string };
  headers(extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

/** Boots the real local API (SQLite file, HTTP on a loopback port) in a fresh temp folder. */
export async function startServer(env: Record<string, string> = {}, options: ComposeOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-test-'));
  const logs: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({ CLINDOC_PORT: '0', CLINDOC_DATA_DIR: dataDir, CLINDOC_LOG_LEVEL: 'info', ...env }, dataDir);
  const clindoc = await createClindoc(config, { logDestination: sink, ...options });
  const port = await clindoc.listen();
  const creds = clindoc.localCredentials!;
  return {
    clindoc, port, dataDir, logs, creds,
    base: `http://127.0.0.1:${port}`,
    headers: (extra = {}) => ({ 'X-API-KEY': creds.apiKey, 'X-ACCOUNT-ID': creds.accountId, 'content-type': 'application/json', ...extra }),
    async close() {
      await clindoc.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls until `check` returns a value (or the deadline passes). */
export async function waitFor<T>(check: () => Promise<T | undefined>, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
