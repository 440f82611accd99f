import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ROOT } from './child.js';

const SCRIPT = join(ROOT, 'scripts', 'postgres-throwaway.sh');

function serverBinariesPresent(): boolean {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) return false;
  return readdirSync(base).some((version) => existsSync(join(base, version, 'bin', 'initdb')));
}

/**
 * Why the PostgreSQL tests (stores, job queue, clinic) cannot run here, or null when they can:
 * CLINDOC_TEST_PG_URL names a cluster (admin URL), or Debian's server binaries can start a throwaway one.
 */
export const pgUnavailable: string | null = process.env.CLINDOC_TEST_PG_URL || serverBinariesPresent()
  ? null
  : 'PostgreSQL tests skipped: CLINDOC_TEST_PG_URL is unset and no PostgreSQL server binaries are installed (run scripts/setup-system.sh)';

if (pgUnavailable) console.warn(pgUnavailable);

/** A cluster for one test file: the one CLINDOC_TEST_PG_URL names, or a throwaway one started here. */
export interface TestCluster {
  adminUrl: string;
  /** A new, empty database with a random name, so test files and suites never share rows. */
  createDatabase(): Promise<string>;
  /** Drops the databases made here, or stops the throwaway cluster. */
  stop(): Promise<void>;
}

export async function openCluster(): Promise<TestCluster> {
  let adminUrl = process.env.CLINDOC_TEST_PG_URL;
  let clusterDir: string | undefined;
  if (!adminUrl) {
    const exports = execFileSync('bash', [SCRIPT, 'start'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    adminUrl = /CLINDOC_TEST_PG_URL=(\S+)/.exec(exports)?.[1];
    clusterDir = /PG_THROWAWAY_DIR=(\S+)/.exec(exports)?.[1];
    if (!adminUrl) throw new Error('the throwaway PostgreSQL cluster did not start');
  }
  const admin = adminUrl;
  const made: string[] = [];
  const run = async (statement: string): Promise<void> => {
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    adminUrl: admin,
    async createDatabase() {
      const name = `test_${randomBytes(6).toString('hex')}`;
      await run(`CREATE DATABASE ${name}`);
      made.push(name);
      const url = new URL(admin);
      url.pathname = `/${name}`;
      return url.toString();
    },
    async stop() {
      if (clusterDir) {
        execFileSync('bash', [SCRIPT, 'stop', clusterDir], { stdio: 'ignore' });
        return;
      }
      for (const name of made.splice(0)) await run(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}

/** A database made for one test file alone. */
export interface TestDatabase {
  url: string;
  /** Drops the database, or stops the throwaway cluster started for it. */
  drop(): Promise<void>;
}

/** A fresh database on its own cluster handle: the one CLINDOC_TEST_PG_URL names, or a throwaway one. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const cluster = await openCluster();
  try {
    return { url: await cluster.createDatabase(), drop: () => cluster.stop() };
  } catch (err) {
    await cluster.stop();
    throw err;
  }
}
