import { describe } from 'vitest';
import { storeContract } from '../store-contract/contract.js';
import { pgBackendsForSuite } from './backend.js';
import { pgUnavailable } from '../support/pg-cluster.js';

describe.skipIf(pgUnavailable !== null)('storage ports on PostgreSQL', () => {
  storeContract(pgBackendsForSuite());
});
