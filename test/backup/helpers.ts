import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { loadConfig } from '../../main/config.js';
import { createClindoc, saveLocalCredentials, type Clindoc } from '../../main/composition.js';

/** A fixed master key, so a backup and its restore belong to the same installation. */
export const KEY = 'a'.repeat(64);
export const OTHER_KEY = 'b'.repeat(64);

export interface Running {
  clindoc: Clindoc;
  base: string;
  dataDir: string;
  close(): Promise<void>;
}

/** Starts the real local API on a chosen data folder (a restored one, for instance). */
export async function startOn(dataDir: string, env: Record<string, string> = {}): Promise<Running> {
  const sink = new Writable({ write: (_c, _e, done) => done() });
  const config = loadConfig({ CLINDOC_PORT: '0', CLINDOC_DATA_DIR: dataDir, CLINDOC_ENCRYPTION_KEY: KEY, CLINDOC_LOG_LEVEL: 'warn', ...env }, dataDir);
  const clindoc = await createClindoc(config, { logDestination: sink });
  // As the entry points do: a backup carries the local account's file, and a restore brings it back.
  saveLocalCredentials(dataDir, clindoc.localCredentials);
  const port = await clindoc.listen();
  return { clindoc, base: `http://127.0.0.1:${port}`, dataDir, close: () => clindoc.close() };
}

/** A fresh, empty temporary folder; `cleanup` removes every folder handed out. */
export function tempDirs(): { make(prefix: string): string; cleanup(): void } {
  const made: string[] = [];
  return {
    make(prefix) {
      const dir = mkdtempSync(join(tmpdir(), `clindoc-${prefix}-`));
      made.push(dir);
      return dir;
    },
    cleanup() {
      for (const dir of made) {
        rmSync(dir, { recursive: true, force: true });
        rmSync(`${dir}-restored`, { recursive: true, force: true });
      }
    },
  };
}

/** GET a path and return its `data` (the envelope's date differs between servers by design). */
export async function dataOf(base: string, path: string, headers: Record<string, string>): Promise<unknown> {
  const res = await fetch(`${base}${path}`, { headers });
  const body = (await res.json()) as { data?: unknown };
  return { status: res.status, data: body.data ?? body };
}
