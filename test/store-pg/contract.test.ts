import { afterAll, beforeAll, describe } from 'vitest';
import { storeContract } from '../store-contract/contract.js';
import { openPgBackend } from './backend.js';
import { openCluster, pgUnavailable, type TestCluster } from '../support/pg-cluster.js';

describe.skipIf(pgUnavailable !== null)('storage ports on PostgreSQL', () => {
  let cluster: TestCluster | undefined;
  beforeAll(async () => {
    cluster = await openCluster();
  });
  afterAll(async () => {
    await cluster?.stop();
  });
  storeContract(() => {
    if (!cluster) throw new Error('cluster not started');
    return openPgBackend(cluster);
  });
});
