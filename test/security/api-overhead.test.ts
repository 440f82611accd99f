/**
 * What issue 19's speed-ups must not weaken: a revoked key is refused on the very next request
 * (revoked here or by another process, as the CLI does), the audit trail written in batches still
 * holds every request (read straight after a burst, after a graceful close, and after an exit that
 * skips close), and patient data stays out of the logs.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { ROOT, TSX } from '../support/child.js';
import { openDatabase } from '../../main/store/database.js';
import { createAccountStore } from '../../main/store/account-store.js';
import { createAccountService } from '../../main/services/accounts/account-service.js';
import { createAuditStore } from '../../main/store/audit-store.js';
import { timeOrderedId } from '../../main/services/audit/audit-service.js';

const TRANSCRIPT = 'Doctor: What brings you in? Patient: Zephyrine Quillfeather here, chest pain for two days when I climb stairs.';

let s: TestServer;
beforeEach(async () => {
  s = await startServer();
});
afterEach(async () => {
  await s?.close();
});

const getNote = (noteId: string, creds: { accountId: string; apiKey: string }) =>
  fetch(`${s.base}/v1/notes/${noteId}`, { headers: { 'X-API-KEY': creds.apiKey, 'X-ACCOUNT-ID': creds.accountId } });

async function createNote(): Promise<string> {
  const res = await fetch(`${s.base}/v1/notes`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ transcript: TRANSCRIPT }) });
  expect(res.status).toBe(202);
  const noteId = ((await res.json()) as { data: { noteId: string } }).data.noteId;
  await waitFor(async () => {
    const body = (await (await getNote(noteId, s.creds)).json()) as { data: { status: string } };
    return body.data.status === 'STATUS_DONE' ? true : undefined;
  });
  return noteId;
}

async function trailOf(noteId: string): Promise<Array<{ action: string; outcome: string }>> {
  const items: Array<{ action: string; outcome: string }> = [];
  let cursor: string | null = null;
  do {
    const res: Response = await fetch(`${s.base}/v1/audit-events?limit=200&resourceId=${noteId}${cursor ? `&cursor=${cursor}` : ''}`, { headers: s.headers() });
    const page: { items: Array<{ action: string; outcome: string }>; nextCursor: string | null } = ((await res.json()) as { data: { items: Array<{ action: string; outcome: string }>; nextCursor: string | null } }).data;
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}

describe('API keys after the speed-ups', () => {
  it('refuses a key revoked in this process on the very next request', async () => {
    const noteId = await createNote();
    const key = await s.clindoc.accounts.createKey(s.creds.accountId);
    const creds = { accountId: s.creds.accountId, apiKey: key.apiKey };
    for (let i = 0; i < 5; i++) expect((await getNote(noteId, creds)).status).toBe(200);
    await s.clindoc.accounts.revokeKey(key.keyId);
    expect((await getNote(noteId, creds)).status).toBe(401);
    expect((await getNote(noteId, s.creds)).status).toBe(200);
  });

  it('refuses a key revoked by another process (the CLI) on the very next request', async () => {
    const noteId = await createNote();
    const key = await s.clindoc.accounts.createKey(s.creds.accountId);
    const creds = { accountId: s.creds.accountId, apiKey: key.apiKey };
    expect((await getNote(noteId, creds)).status).toBe(200);
    // A second connection to the same database file, as `clindoc keys revoke` opens one.
    const other = openDatabase(join(s.dataDir, 'clindoc.db'));
    try {
      await createAccountService({ store: createAccountStore(other) }).revokeKey(key.keyId);
    } finally {
      other.close();
    }
    expect((await getNote(noteId, creds)).status).toBe(401);
  });

  it('still records when a key was last used', async () => {
    const key = await s.clindoc.accounts.createKey(s.creds.accountId);
    const lastUsed = async (): Promise<number | null | undefined> => (await s.clindoc.accounts.listKeys(s.creds.accountId)).find((k) => k.id === key.keyId)?.lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await getNote('note_missing', { accountId: s.creds.accountId, apiKey: key.apiKey });
    // The last-used time is written without holding up the request.
    expect(await waitFor(async () => ((await lastUsed()) ?? undefined))).toBeGreaterThan(0);
  });
});

describe('the audit trail written in batches', () => {
  it('lists every read of a burst of concurrent requests straight after it', async () => {
    const noteId = await createNote();
    const before = (await trailOf(noteId)).filter((e) => e.action === 'read').length;
    const statuses = await Promise.all(Array.from({ length: 120 }, () => getNote(noteId, s.creds).then((r) => r.status)));
    expect(statuses.every((status) => status === 200)).toBe(true);
    const reads = (await trailOf(noteId)).filter((e) => e.action === 'read' && e.outcome === 'success');
    expect(reads.length - before).toBe(120);
  });

  it('gives events unique UUID (v7) ids that sort by time', () => {
    const at = Date.UTC(2026, 10, 24, 12);
    const ids = Array.from({ length: 5000 }, (_, i) => timeOrderedId(at + Math.floor(i / 100)));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(timeOrderedId(at) < timeOrderedId(at + 1)).toBe(true);
  });

  it('reads events still waiting for their batch (the read writes them first)', async () => {
    const db = openDatabase(':memory:');
    db.prepare("INSERT INTO accounts (id, name, created_at) VALUES ('acct_a', 'A', 0)").run();
    const store = createAuditStore(db, { flushAfterMs: 60_000 });
    for (let i = 0; i < 30; i++) {
      await store.append({ id: `e${i}`, at: i, accountId: 'acct_a', keyId: 'k', actor: 'api-key', action: 'read', resourceType: 'note', resourceId: 'n1', operation: 'getNote', ip: null, outcome: 'success', status: 200, requestId: null });
    }
    expect((await store.list('acct_a', 100)).items.map((e) => e.id)).toEqual(Array.from({ length: 30 }, (_, i) => `e${29 - i}`));
    db.close();
  });

  it('keeps the last batch when Clindoc closes right after a burst', async () => {
    const noteId = await createNote();
    await Promise.all(Array.from({ length: 40 }, () => getNote(noteId, s.creds)));
    const { dataDir } = s;
    await s.clindoc.close();
    const db = new Database(join(dataDir, 'clindoc.db'), { readonly: true });
    const n = (db.prepare("SELECT COUNT(*) AS n FROM audit_events WHERE resource_id = ? AND action = 'read'").get(noteId) as { n: number }).n;
    db.close();
    rmSync(dataDir, { recursive: true, force: true });
    s = undefined as unknown as TestServer;
    // 40 reads of the burst, plus the polls that waited for the note.
    expect(n).toBeGreaterThanOrEqual(40);
  });

  it('writes pending events when the process exits without closing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'clindoc-audit-exit-'));
    try {
      const script = join(dir, 'exit.ts');
      writeFileSync(
        script,
        `import { openDatabase } from ${JSON.stringify(join(ROOT, 'main/store/database.ts'))};
import { createAuditStore } from ${JSON.stringify(join(ROOT, 'main/store/audit-store.ts'))};
const db = openDatabase(${JSON.stringify(join(dir, 'x.db'))});
const store = createAuditStore(db, { flushAfterMs: 60_000 });
for (let i = 0; i < 25; i++) store.append({ id: 'e' + i, at: i, accountId: null, keyId: null, actor: 'anonymous', action: 'read', resourceType: 'note', resourceId: 'n1', operation: 'getNote', ip: null, outcome: 'success', status: 200, requestId: null });
process.exit(0);
`,
      );
      const run = spawnSync(process.execPath, [TSX, script], { cwd: ROOT, encoding: 'utf8' });
      expect(run.status).toBe(0);
      const db = new Database(join(dir, 'x.db'), { readonly: true });
      const n = (db.prepare('SELECT COUNT(*) AS n FROM audit_events').get() as { n: number }).n;
      db.close();
      expect(n).toBe(25);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('logs under load', () => {
  it('carry no note, transcript or macro text', async () => {
    const noteId = await createNote();
    await Promise.all(Array.from({ length: 30 }, () => getNote(noteId, s.creds)));
    const detect = await fetch(`${s.base}/v1/macros/detect`, {
      method: 'POST', headers: s.headers(),
      body: JSON.stringify({ text: 'Zephyrine reports normal cardiac exam.', macros: [{ id: 'cardiac', examples: ['normal cardiac exam'], expansion_text: 'HEART: Quillfeather rhythm.' }] }),
    });
    expect(detect.status).toBe(200);
    const logs = s.logs.join('\n');
    expect(s.logs.filter((l) => l.includes('"request"')).length).toBeGreaterThan(30);
    expect(logs).not.toMatch(/Zephyrine|Quillfeather|chest pain|climb stairs/i);
  });
});
