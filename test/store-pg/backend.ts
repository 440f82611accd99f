import { openPostgresStores } from '../../main/store/pg/index.js';
import { createPgJobStore } from '../../main/store/pg/job-store.js';
import { createPgWebhookStore } from '../../main/store/pg/webhook-store.js';
import { createPool, sqlOf } from '../../main/store/pg/sql.js';
import { openProtection, type StoreBackend } from '../store-contract/backend.js';
import { forSuite } from '../store-contract/fixtures.js';
import { openCluster, type TestCluster } from '../support/pg-cluster.js';

/** The PostgreSQL backend: a fresh database on the test cluster, opened as Clindoc opens it. */
export async function openPgBackend(cluster: TestCluster): Promise<StoreBackend> {
  const protection = openProtection();
  const { cipher, blobs } = protection;
  const url = await cluster.createDatabase();
  const stores = await openPostgresStores({ url, cipher, blobs, poolSize: 8 });
  // A separate pool for looking past the ports, as an operator with psql would.
  const side = createPool({ url, poolSize: 2 });
  return {
    stores, cipher, blobs,
    jobStore: (kinds) => createPgJobStore(sqlOf(side), kinds),
    webhookStore: () => createPgWebhookStore(sqlOf(side), cipher),
    async raw(table, column, where) {
      const keys = Object.keys(where);
      const { rows } = await side.query<{ v: unknown }>(
        `SELECT ${column} AS v FROM ${table} WHERE ${keys.map((k, i) => `${k} = $${i + 1}`).join(' AND ')}`,
        keys.map((k) => where[k]),
      );
      return rows[0]?.v;
    },
    async exec(statement) {
      await side.query(statement);
    },
    async close() {
      await stores.close();
      await side.end();
      protection.remove();
    },
  };
}

/**
 * Starts a test cluster for the enclosing `describe` (stopped after it) and returns what opens a
 * fresh PostgreSQL backend on it: the argument a suite written for every backend takes.
 */
export function pgBackendsForSuite(): () => Promise<StoreBackend> {
  const cluster = forSuite(openCluster, (c) => c.stop(), 'cluster');
  return () => openPgBackend(cluster());
}
