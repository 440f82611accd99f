/**
 * One clinic installation for the multi-process test and the benchmark: a fresh PostgreSQL
 * database (on CLINDOC_TEST_PG_URL's cluster, or a throwaway one), one shared folder and one
 * master key for every instance, and a data folder of its own for each instance.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

function serverBinariesPresent(): boolean {
  const base = '/usr/lib/postgresql';
  return existsSync(base) && readdirSync(base).some((version) => existsSync(join(base, version, 'bin', 'initdb')));
}

/**
 * Why a clinic cannot be set up here, or null when it can: CLINDOC_TEST_PG_URL names a cluster
 * (admin URL), or Debian's PostgreSQL server binaries can start a throwaway one.
 */
export const clinicUnavailable: string | null = process.env.CLINDOC_TEST_PG_URL || serverBinariesPresent()
  ? null
  : 'clinic mode needs PostgreSQL: CLINDOC_TEST_PG_URL is unset and no PostgreSQL server binaries are installed (run scripts/setup-system.sh)';

export interface Clinic {
  databaseUrl: string;
  sharedDir: string;
  /** The environment of one instance: the clinic's settings, `extra`, and a data folder of its own named after it. */
  env(name: string): Record<string, string>;
  /** The data folder of the instance called `name` (the one `env(name)` names). */
  dataDir(name: string): string;
  /** Drops the database (or stops the throwaway cluster) and removes every folder made here. */
  close(): Promise<void>;
}

export async function openClinic(extra: Record<string, string> = {}): Promise<Clinic> {
  // Imported here, so a machine without PostgreSQL never loads the PostgreSQL test cluster module.
  const { openCluster } = await import('../support/pg-cluster.js');
  const cluster = await openCluster();
  let databaseUrl: string;
  try {
    databaseUrl = await cluster.createDatabase();
  } catch (err) {
    await cluster.stop();
    throw err;
  }
  const root = mkdtempSync(join(tmpdir(), 'clindoc-clinic-'));
  const sharedDir = join(root, 'shared');
  mkdirSync(sharedDir);
  const encryptionKey = randomBytes(32).toString('hex');
  return {
    databaseUrl, sharedDir,
    dataDir: (name) => join(root, name),
    env(name) {
      const dataDir = join(root, name);
      mkdirSync(dataDir, { recursive: true });
      return {
        CLINDOC_DATABASE_URL: databaseUrl, CLINDOC_SHARED_DIR: sharedDir, CLINDOC_ENCRYPTION_KEY: encryptionKey,
        // The test's webhook receiver listens on loopback.
        CLINDOC_DATA_DIR: dataDir, CLINDOC_WEBHOOK_ALLOW: 'loopback', ...extra,
      };
    },
    async close() {
      await cluster.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
