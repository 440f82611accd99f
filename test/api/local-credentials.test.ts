import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../main/config.js';
import { createClindoc, localCredentialsPath, saveLocalCredentials } from '../../main/composition.js';
import { onPostgres } from '../support/database.js';

/**
 * The composition writes no file of its own: a first start hands the local account it made to its
 * entry point (headless.ts, the desktop app), which keeps it owner-only. Sign-in links work either way.
 */
describe.skipIf(onPostgres)('the local account of a first start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-local-account-'));
  const silent = new Writable({ write: (_c, _e, done) => done() });
  const config = loadConfig({ CLINDOC_PORT: '0', CLINDOC_DATA_DIR: dataDir, CLINDOC_LOG_LEVEL: 'warn' }, dataDir);
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('is handed to the entry point, which keeps it owner-only; the next start makes none and signs in from the file', async () => {
    const first = await createClindoc(config, { logDestination: silent });
    let created: { accountId: string; apiKey: string } | undefined;
    try {
      created = first.localCredentials;
      expect(created?.apiKey).toMatch(/\S{20,}/);
      expect(existsSync(localCredentialsPath(dataDir))).toBe(false);
      await first.listen();
      expect(first.signInLink()).toMatch(/#token=/); // this start's account, before any file exists
      saveLocalCredentials(dataDir, created);
    } finally {
      await first.close();
    }
    expect(statSync(localCredentialsPath(dataDir)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(localCredentialsPath(dataDir), 'utf8'))).toEqual(created);

    const second = await createClindoc(config, { logDestination: silent });
    try {
      expect(second.localCredentials).toBeUndefined();
      await second.listen();
      expect(second.signInLink()).toMatch(/#token=/);
    } finally {
      await second.close();
    }
  }, 60_000);
});
