import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../support/child.js';
import { databaseEnv } from '../support/database.js';
import { openPostgresAccounts } from '../../main/store/pg/index.js';
import { loadConfig } from '../../main/config.js';
import { openDatabase } from '../../main/store/database.js';
import { createAccountStore } from '../../main/store/account-store.js';
import { createAccountService } from '../../main/services/accounts/account-service.js';

describe('clindoc CLI', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'clindoc-cli-'));
  const env = { CLINDOC_DATA_DIR: dataDir };
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  // A fresh service each time (no cache), on the database the CLI wrote to.
  const authenticate = async (apiKey: string, accountId: string) => {
    const url = (await databaseEnv(dataDir)).CLINDOC_DATABASE_URL;
    if (url) {
      const clinic = await openPostgresAccounts(url);
      try {
        return await createAccountService({ store: clinic.accounts }).authenticate(apiKey, accountId);
      } finally {
        await clinic.close();
      }
    }
    const db = openDatabase(join(loadConfig(env).dataDir, 'clindoc.db'));
    try {
      return await createAccountService({ store: createAccountStore(db) }).authenticate(apiKey, accountId);
    } finally {
      db.close();
    }
  };

  it('creates an account with --json, lists it, adds and revokes keys', async () => {
    const created = await runCli(['accounts', 'create', '--name', 'Riverside Clinic', '--json'], env);
    expect(created.code).toBe(0);
    const { accountId, apiKey } = JSON.parse(created.stdout) as { accountId: string; apiKey: string };
    expect(accountId).toMatch(/^acct_/);
    expect(apiKey).toMatch(/^cdk_/);
    expect((await authenticate(apiKey, accountId)).accountId).toBe(accountId);

    const list = await runCli(['accounts', 'list'], env);
    expect(list.stdout).toContain(accountId);
    expect(list.stdout).toContain('Riverside Clinic');
    expect(list.stdout).not.toContain(apiKey);

    const key = JSON.parse((await runCli(['keys', 'create', '--account', accountId, '--json'], env)).stdout) as { apiKey: string; keyId: string };
    expect((await authenticate(key.apiKey, accountId)).keyId).toBe(key.keyId);
    const revoked = await runCli(['keys', 'revoke', key.keyId], env);
    expect(revoked.code).toBe(0);
    await expect(authenticate(key.apiKey, accountId)).rejects.toThrow(/invalid/);
    expect((await authenticate(apiKey, accountId)).accountId).toBe(accountId);
  });

  it('fails clearly on bad input', async () => {
    const missing = await runCli(['accounts', 'create'], env);
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toMatch(/--name/);
    const unknown = await runCli(['keys', 'revoke', 'key_doesnotexist'], env);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/not found/);
  });
});
