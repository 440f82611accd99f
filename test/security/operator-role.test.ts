import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type TestServer } from '../support/server.js';
import { runCli } from '../support/child.js';
import { onPostgres } from '../support/database.js';
import { authHeaders } from './helpers.js';
import { openDatabase } from '../../main/store/database.js';
import { createAccountStore } from '../../main/store/account-store.js';
import { createAccountService } from '../../main/services/accounts/account-service.js';

type Account = { accountId: string; apiKey: string };

/** Every installation-wide operation, as a request any account could send. */
const INSTALLATION_WIDE: [string, string, unknown?][] = [
  ['POST', '/v1/backups'],
  ['GET', '/v1/backups'],
  ['POST', '/v1/models/import', { path: '/etc/hostname' }],
  ['POST', '/v1/models/whisper-base-en/pull'],
  ['DELETE', '/v1/models/whisper-base-en/pull'],
  ['DELETE', '/v1/models/whisper-base-en'],
];

describe('installation-wide actions belong to the operator role', () => {
  let s: TestServer;
  let work: string;
  let backupDir: string;
  let clinician: Account;
  const call = (who: Account, method: string, path: string, body?: unknown): Promise<Response> =>
    fetch(`${s.base}${path}`, { method, headers: authHeaders(who), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'clindoc-operator-'));
    backupDir = join(work, 'backups');
    mkdirSync(backupDir);
    s = await startServer({ CLINDOC_BACKUP_DIR: backupDir, CLINDOC_BACKUP_INTERVAL_HOURS: '0', CLINDOC_MODEL_IMPORT_DIRS: join(work, 'imports') });
    const made = await s.clindoc.accounts.createAccount('Clinician');
    clinician = { accountId: made.account.id, apiKey: made.apiKey };
  });
  afterAll(async () => {
    await s.close();
    rmSync(work, { recursive: true, force: true });
  });

  it.each(INSTALLATION_WIDE)('%s %s answers 403 to an account without the role, in the contract body, and does nothing', async (method, path, body) => {
    const res = await call(clinician, method, path, body);
    expect(res.status).toBe(403);
    const answer = (await res.json()) as { error: number; message: string };
    expect(answer).toEqual({ error: 403, message: expect.stringMatching(/operator role/) });
    // Nothing about the installation in the answer (no counts, no backups, no file's existence).
    expect(JSON.stringify(answer)).not.toMatch(/accounts|notes|bytes|hostname|whisper/);
    expect(readdirSync(backupDir)).toEqual([]);
  });

  it('refuses a code-set upload before reading it', async () => {
    const form = new FormData();
    form.set('order', new Blob([Buffer.alloc(2 * 1024 * 1024, 0x41)]), 'icd10cm-order-2026.txt');
    const res = await fetch(`${s.base}/v1/coding/editions`, { method: 'POST', headers: { 'X-API-KEY': clinician.apiKey, 'X-ACCOUNT-ID': clinician.accountId }, body: form });
    expect(res.status).toBe(403);
    expect(((await res.json()) as { message: string }).message).toMatch(/operator role/);
  });

  it('lets the local account (the operator) back up, and a granted account too until the role is withdrawn', async () => {
    const operator = s.creds;
    const made = await call(operator, 'POST', '/v1/backups');
    expect(made.status).toBe(onPostgres ? 409 : 201); // a clinic's PostgreSQL is backed up with pg_dump
    if (!onPostgres) expect(((await made.json()) as { data: { counts: { accounts: number } } }).data.counts.accounts).toBe(2);
    expect((await call(operator, 'GET', '/v1/backups')).status).toBe(200);

    await s.clindoc.accounts.setOperator(clinician.accountId, true);
    expect((await call(clinician, 'GET', '/v1/backups')).status).toBe(200);
    await s.clindoc.accounts.setOperator(clinician.accountId, false);
    expect((await call(clinician, 'GET', '/v1/backups')).status).toBe(403);
  });

  it('answers an operator the same for an absent, an unreadable and a linked-out file in the import folder, and refuses paths outside it', async () => {
    const imports = join(work, 'imports');
    mkdirSync(imports, { recursive: true });
    symlinkSync('/etc/hostname', join(imports, 'outside.gguf'));
    symlinkSync(join(imports, 'gone.gguf'), join(imports, 'dangling.gguf'));
    // A socket file exists but cannot be opened for reading, whoever runs the test (root reads a mode-000 file).
    const socket: Server = createServer();
    await new Promise<void>((r) => socket.listen(join(imports, 'socket.gguf'), () => r()));
    const unreadable = ['absent.gguf', 'outside.gguf', 'dangling.gguf', 'socket.gguf'];
    if (process.getuid?.() !== 0) {
      writeFileSync(join(imports, 'locked.gguf'), 'GGUF', { mode: 0o000 });
      unreadable.push('locked.gguf');
    }
    try {
      const answers = new Set<string>();
      for (const name of unreadable) {
        const res = await call(s.creds, 'POST', '/v1/models/import', { path: join(imports, name) });
        expect(res.status, name).toBe(onPostgres ? 409 : 400);
        answers.add(await res.text().then((t) => t.replace(/"date":"[^"]*"/, '')));
      }
      expect(answers.size).toBe(1);
      for (const outside of ['/etc/hostname', '/etc/no-such-file', join(work, 'backups')]) {
        const res = await call(s.creds, 'POST', '/v1/models/import', { path: outside });
        expect(res.status).toBe(onPostgres ? 409 : 400);
        if (!onPostgres) expect(((await res.json()) as { message: string }).message).toMatch(/CLINDOC_MODEL_IMPORT_DIRS/);
      }
    } finally {
      socket.close();
    }
  });

  it('records the decision in the OpenAPI document', async () => {
    const doc = (await (await fetch(`${s.base}/openapi.json`)).json()) as { paths: Record<string, Record<string, { description?: string; 'x-clindoc-operator-only'?: boolean; responses: Record<string, { description: string }> }>> };
    for (const [method, path] of [...INSTALLATION_WIDE, ['POST', '/v1/coding/editions']] as [string, string][]) {
      const op = doc.paths[path.replace('whisper-base-en', '{modelId}')]![method.toLowerCase()]!;
      expect(op['x-clindoc-operator-only'], `${method} ${path}`).toBe(true);
      expect(op.description).toMatch(/^Operator only/);
      expect(op.responses['403']!.description).toMatch(/operator role/);
    }
    expect(doc.paths['/v1/models']!.get!['x-clindoc-operator-only']).toBeUndefined();
  });

  it('lets only the operator set up a server Clindoc connects to; any account still chooses among the engines offered', async () => {
    // A listener standing for a host on the clinic network: it must see no connection from a clinician's request.
    let connections = 0;
    const host = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(host.address() as { port: number }).port}/v1`;
    try {
      for (const task of ['notes', 'speech']) {
        const res = await call(clinician, 'PUT', '/v1/settings/engines', { servers: { [task]: { url, model: 'any' } } });
        expect(res.status).toBe(403);
        expect(((await res.json()) as { message: string }).message).toMatch(/operator role/);
      }
      expect(connections).toBe(0);
      expect((await call(clinician, 'PUT', '/v1/settings/engines', { noteEngine: 'embedded', servers: { notes: null } })).status).toBe(200);
      // The operator's request is tested with a real call (this listener hangs up: refused with 400).
      expect((await call(s.creds, 'PUT', '/v1/settings/engines', { servers: { notes: { url, model: 'any' } } })).status).toBe(400);
      expect(connections).toBeGreaterThan(0);
    } finally {
      await new Promise<void>((resolve) => host.close(() => resolve()));
    }
  });
});

describe('who holds the operator role', () => {
  it('the first (local) account, accounts named in CLINDOC_OPERATOR_ACCOUNTS, and no other', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clindoc-operators-'));
    const db = openDatabase(join(dir, 'clindoc.db'));
    try {
      const store = createAccountStore(db);
      await store.createAccount({ id: 'acct_named', name: 'Practice manager', createdAt: 1 });
      const accounts = createAccountService({ store, operators: ['acct_named'] });
      expect(await accounts.isOperator('acct_named')).toBe(true);
      const other = await accounts.createAccount('Clinician');
      expect(await accounts.isOperator(other.account.id)).toBe(false);
      const fresh = createAccountService({ store: createAccountStore(openDatabase(join(dir, 'second.db'))) });
      const local = await fresh.ensureLocalAccount();
      expect(await fresh.isOperator(local!.account.id)).toBe(true);
    } finally {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it.skipIf(onPostgres)('clindoc accounts create --operator and accounts operator grant the role; list shows it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clindoc-operator-cli-'));
    try {
      const env = { CLINDOC_DATA_DIR: dir };
      const made = await runCli(['accounts', 'create', '--name', 'Practice manager', '--operator', '--json'], env);
      expect(made.code, made.stderr).toBe(0);
      const manager = JSON.parse(made.stdout) as { accountId: string; operator: boolean };
      expect(manager.operator).toBe(true);
      const plain = JSON.parse((await runCli(['accounts', 'create', '--name', 'Clinician', '--json'], env)).stdout) as { accountId: string };
      const listed = (): Promise<Record<string, boolean>> => runCli(['accounts', 'list', '--json'], env)
        .then((r) => Object.fromEntries((JSON.parse(r.stdout) as { accountId: string; operator: boolean }[]).map((a) => [a.accountId, a.operator])));
      expect(await listed()).toEqual({ [manager.accountId]: true, [plain.accountId]: false });
      expect((await runCli(['accounts', 'operator', '--account', plain.accountId, '--json'], env)).code).toBe(0);
      expect((await listed())[plain.accountId]).toBe(true);
      expect((await runCli(['accounts', 'operator', '--account', plain.accountId, '--revoke'], env)).code).toBe(0);
      expect((await listed())[plain.accountId]).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000); // seven CLI processes: slow on a loaded machine
});
