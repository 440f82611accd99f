import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { ROOT } from '../support/child.js';
import { onPostgres } from '../support/database.js';
import { startServer, type TestServer } from '../support/server.js';

/**
 * Another process holding the SQLite file locked (issue 29): better-sqlite3 waits for a lock by
 * sleeping on the thread that answers every request, and with a 5 s busy timeout a 12 s lock held
 * `/healthz` for 10 s. Now a statement gives up after 100 ms: a write answers 503 with Retry-After,
 * reads and `/healthz` go on, and the same write succeeds once the lock is gone. The lock is a real
 * second process: `BEGIN EXCLUSIVE` on the same file, held until the test says to let go.
 */

/** A child process that takes an exclusive lock on `file` and holds it until its stdin closes. */
function holdLock(file: string): Promise<ChildProcess> {
  const script = `
    const Database = require('better-sqlite3');
    const db = new Database(${JSON.stringify(file)});
    db.exec('BEGIN EXCLUSIVE');
    db.prepare("UPDATE api_keys SET last_used_at = last_used_at").run();
    process.stdout.write('locked\\n');
    process.stdin.on('end', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['pipe', 'pipe', 'inherit'] });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`lock holder exited with ${code}`)));
    child.stdout!.once('data', () => resolve(child));
  });
}

const release = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.stdin!.end();
  });

describe.skipIf(onPostgres)('a database locked by another process', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  const macro = { id: 'nce', examples: ['normal chest exam'], expansion_text: 'Chest clear.' };
  const save = (): Promise<Response> => fetch(`${s.base}/v1/macro-library`, { method: 'POST', headers: s.headers(), body: JSON.stringify(macro) });

  it('answers a write 503 with Retry-After, keeps reads and /healthz answering, and takes the write once the lock is gone', { timeout: 60_000 }, async () => {
    const child = await holdLock(join(s.dataDir, 'clindoc.db'));
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    try {
      const refused = await Promise.all([save(), save(), save()]);
      for (const res of refused) {
        expect(res.status).toBe(503);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
        const body = (await res.json()) as { error: number; message: string };
        expect(body.error).toBe(503);
        expect(body.message).toMatch(/locked by another process/);
      }
      expect((await fetch(`${s.base}/healthz`)).status).toBe(200);
      expect((await fetch(`${s.base}/v1/macro-library`, { headers: s.headers() })).status).toBe(200);
      // Still locked: the child has not been told to let go.
      expect(child.exitCode).toBeNull();
    } finally {
      delay.disable();
      await release(child);
    }
    // The old 5 s busy wait blocked the loop once per statement; a 100 ms one stays far below half of that.
    expect(delay.max / 1e6).toBeLessThan(2_500);
    const saved = await save();
    expect(saved.status).toBe(201);
  });
});
