/**
 * The desktop app end to end through Playwright's Electron launcher. It needs Electron's binary,
 * which machines without internet access to Electron's downloads do not have: then it skips and
 * says so.
 */
import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { _electron as electron } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '..', '..');

function electronBinary(): string | undefined {
  try {
    const pathFile = join(ROOT, 'node_modules', 'electron', 'path.txt');
    const bin = join(ROOT, 'node_modules', 'electron', 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(bin) ? bin : undefined;
  } catch {
    return undefined;
  }
}

const binary = electronBinary();
const built = existsSync(join(ROOT, 'dist', 'main', 'app', 'main.js')) && existsSync(join(ROOT, 'dist', 'renderer', 'index.html'));
const reason = !binary ? "Electron's binary is not installed (node_modules/electron/dist)" : !built ? 'the app is not built (npm run build)' : '';
if (reason) console.warn(`[electron e2e] skipped: ${reason}`);

describe.skipIf(Boolean(reason))('Clindoc desktop app (Electron)', () => {
  it('opens one sandboxed window on the local API, with the preload bridge and no Node', async () => {
    const app = await electron.launch({ executablePath: binary!, args: [ROOT], env: { ...process.env, CLINDOC_PORT: '0', CLINDOC_DATA_DIR: join(ROOT, 'test-results', 'electron-data') } });
    try {
      const win = await app.firstWindow();
      await win.getByText('Local API connected').waitFor({ timeout: 30_000 });
      expect(await win.evaluate(() => typeof (window as unknown as { require?: unknown }).require)).toBe('undefined');
      expect(await win.evaluate(() => typeof (window as unknown as { clindoc?: { version(): Promise<string> } }).clindoc?.version)).toBe('function');
      await win.screenshot({ path: join(ROOT, 'test-results', 'electron.png') });
    } finally {
      await app.close();
    }
  }, 90_000);
});
