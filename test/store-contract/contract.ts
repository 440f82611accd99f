import type { StoreBackend } from './backend.js';
import { queuesContract } from './queues-contract.js';
import { recordsContract } from './records-contract.js';
import { trailContract } from './trail-contract.js';

/**
 * The storage ports' contract: every expectation runs against each backend (SQLite, PostgreSQL),
 * so the two adapters behave the same for every caller. `open` returns a fresh, empty database.
 */
export function storeContract(open: () => Promise<StoreBackend>): void {
  recordsContract(open);
  queuesContract(open);
  trailContract(open);
}
