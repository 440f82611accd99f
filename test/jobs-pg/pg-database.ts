import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT } from '../support/child.js';

const SCRIPT = join(ROOT, 'scripts', 'postgres-throwaway.sh');

function serverBinariesPresent(): boolean {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return false;
  return readdirSync(base).some((v) => existsSync(join(base, v, 'bin', 'initdb')));
}

/**
 * Why the PostgreSQL job-queue tests cannot run here, or null when they can: either
 * CLINDOC_TEST_PG_URL names a cluster, or Debian's server binaries can start a throwaway one.
 */
export const pgUnavailable: string | null = process.env.CLINDOC_TEST_PG_URL || serverBinariesPresent()
  ? null
  : 'PostgreSQL job-queue tests skipped: no CLINDOC_TEST_PG_URL and no PostgreSQL server binaries (run scripts/setup-system.sh)';

if (pgUnavailable) console.warn(pgUnavailable);

export interface TestDatabase {
  /** URL of a database made for this test file alone. */
  url: string;
  drop(): Promise<void>;
}

/** A fresh database on the given cluster, or on a throwaway cluster started for this file. */
export async function createTestDatabase(): Promise<TestDatabase> {
  let adminUrl = process.env.CLINDOC_TEST_PG_URL;
  let clusterDir: string | undefined;
  if (!adminUrl) {
    const exports = execFileSync('bash', [SCRIPT, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    adminUrl = /CLINDOC_TEST_PG_URL=(\S+)/.exec(exports)?.[1];
    clusterDir = /PG_THROWAWAY_DIR=(\S+)/.exec(exports)?.[1];
    if (!adminUrl) throw new Error('the throwaway PostgreSQL cluster did not start');
  }
  const name = `jobs_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      if (clusterDir) {
        execFileSync('bash', [SCRIPT, 'stop', clusterDir], { stdio: 'ignore' });
        return;
      }
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** Polls `check` until it returns a value (not undefined); fails after `timeoutMs`. */
export async function waitUntil<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs = 20_000, everyMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
