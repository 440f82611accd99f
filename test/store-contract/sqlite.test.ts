import { describe } from 'vitest';
import { openSqliteBackend } from './backend.js';
import { storeContract } from './contract.js';

describe('storage ports on SQLite', () => {
  storeContract(openSqliteBackend);
});
