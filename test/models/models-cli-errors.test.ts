import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../main/store/database.js';
import { createModelStore } from '../../main/store/model-store.js';
import { createModelFiles } from '../../main/engines/models/model-files.js';
import { createHttpDownloader, type StatFs } from '../../main/engines/models/http-download.js';
import { createModelInspector } from '../../main/engines/models/model-inspector.js';
import { createModelService, type ModelService } from '../../main/services/models/model-service.js';
import { runModelsCommand } from '../../main/cli/models-command.js';
import type { ModelCatalog } from '../../shared/api/models.js';
import { freePort, runCli } from '../support/child.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { pinnedFile, readTree, sha256, startModelServer, tinyCatalog, type ModelServer } from './model-server.js';

/**
 * Every failure a user can meet in `clindoc models`, with the words it prints: each case runs the
 * command's own code against a real SQLite store, a real models folder and a loopback "publisher".
 */
let work: string;
let hub: ModelServer;
let catalog: ModelCatalog;
let gguf: Buffer;
let closedPort: number;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'clindoc-models-errors-'));
  const fixture = tinyCatalog(readTree(writeTinyWhisper(join(work, 'whisper'))));
  gguf = fixture.files[`/tiny-gguf/resolve/${'c0ffee'.padEnd(40, '0')}/model.gguf`]!;
  catalog = structuredClone(fixture.catalog);
  // An entry the publisher no longer serves (its address answers 404).
  catalog.entries.push({ ...structuredClone(catalog.entries[0]!), id: 'gone-gguf', files: [pinnedFile('model.gguf', 'https://models.example.test/gone/resolve/x/model.gguf', gguf)] });
  hub = await startModelServer(fixture.files);
  closedPort = await freePort();
});
afterAll(async () => {
  await hub.close();
  rmSync(work, { recursive: true, force: true });
});

let db: Db;
let dir: string;
let n = 0;
const service = (options: { mirror?: string; statfs?: StatFs } = {}): ModelService => createModelService({
  catalog, store: createModelStore(db), files: createModelFiles({ root: join(dir, 'models'), ...(options.statfs ? { statfs: options.statfs } : {}) }),
  downloader: createHttpDownloader(options.statfs ? { statfs: options.statfs } : {}), inspector: createModelInspector(),
  mirror: options.mirror ?? hub.url, enqueue: async () => undefined, reserveBytes: 0, progressEveryMs: 0,
});
beforeEach(() => {
  dir = join(work, `case-${++n}`);
  mkdirSync(dir);
  db = openDatabase(join(dir, 'clindoc.db'));
});
afterEach(() => db.close());

/** Runs `clindoc models ACTION ARG` in-process; the exit code, printed lines, or the error it raises. */
async function models(svc: ModelService, action: string | undefined, arg?: string, id?: string): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const io = { json: false, out: (l: string) => out.push(l), err: (l: string) => err.push(l), barStream: { write: () => true } as unknown as NodeJS.WritableStream };
  const code = await runModelsCommand(svc, action, arg, id ? { id } : {}, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const fails = (svc: ModelService, action: string | undefined, arg?: string, id?: string): Promise<string> =>
  models(svc, action, arg, id).then(() => 'no error', (e: Error) => e.message);

describe('clindoc models: usage', () => {
  it('names the subcommands, and the argument each one lacks', async () => {
    const svc = service();
    expect(await fails(svc, undefined)).toBe('usage: clindoc models list|pull ID|import PATH [--id ID]|verify ID|bench ID [--audio FILE]|rm ID');
    expect(await fails(svc, 'bench')).toBe('usage: clindoc models bench ID [--audio FILE]');
    expect(await fails(svc, 'pull')).toBe('usage: clindoc models pull ID');
    expect(await fails(svc, 'import')).toBe('usage: clindoc models import PATH [--id ID]');
    expect(await fails(svc, 'verify')).toBe('usage: clindoc models verify ID');
    expect(await fails(svc, 'rm')).toBe('usage: clindoc models rm ID');
  });
});

describe('clindoc models pull', () => {
  it('offline: names the cause and both ways around it (import, mirror)', async () => {
    const r = await models(service({ mirror: `http://127.0.0.1:${closedPort}` }), 'pull', 'tiny-gguf');
    expect(r.code).toBe(1);
    expect(r.err).toBe(
      `tiny-gguf: download failed: no connection: connection refused by 127.0.0.1:${closedPort} (ECONNREFUSED). Without a connection to the publisher: ` +
      "copy the model's file or folder here from another computer and run `clindoc models import PATH --id tiny-gguf`, or set CLINDOC_MODEL_MIRROR to a mirror on the clinic's network.",
    );
  });

  it('refuses a file whose hash is not the publisher’s, showing both hashes', async () => {
    const r = await models(service(), 'pull', 'tiny-gguf-bad-hash');
    expect(r.code).toBe(1);
    const stated = catalog.entries.find((e) => e.id === 'tiny-gguf-bad-hash')!.files[0]!.sha256;
    expect(r.err).toBe(`tiny-gguf-bad-hash: download failed: model.gguf: SHA-256 ${sha256(gguf)} is not the publisher's (${stated}); the file was removed`);
  });

  it('says what the publisher answered when the file is gone', async () => {
    const r = await models(service(), 'pull', 'gone-gguf');
    expect(r.code).toBe(1);
    expect(r.err).toBe(`gone-gguf: download failed: HTTP 404 from ${new URL(hub.url).host}/gone/resolve/x/model.gguf`);
  });

  it('refuses an unknown id, an installed model, an imported one, and a download the disk cannot hold', async () => {
    const svc = service();
    expect(await fails(svc, 'pull', 'nope')).toBe('no model "nope" in the catalog (clindoc models list shows what can be pulled)');
    expect((await models(svc, 'pull', 'tiny-gguf')).code).toBe(0);
    expect(await fails(svc, 'pull', 'tiny-gguf')).toBe('tiny-gguf is already installed (remove it first to download it again)');
    await models(svc, 'import', join(work, 'whisper'), 'office-whisper');
    expect(await fails(svc, 'pull', 'office-whisper')).toBe('office-whisper was imported, not downloaded: it has no download address');
    const full = service({ statfs: async () => ({ bavail: 1, bsize: 1000 }) });
    expect(await fails(full, 'pull', 'tiny-whisper')).toMatch(/^not enough free disk space for tiny-whisper: needs 1 MB \(0 MB kept free\), 1 MB free$/);
  });
});

describe('clindoc models import', () => {
  it('refuses a missing path, random bytes named .gguf, a folder of no known engine, and a second copy', async () => {
    const svc = service();
    expect(await fails(svc, 'import', join(dir, 'nothing-here'))).toBe('path: no such file or folder on this computer');
    writeFileSync(join(dir, 'random.gguf'), randomBytes(2_000_000));
    expect(await fails(svc, 'import', join(dir, 'random.gguf'))).toBe('path: refused, not a GGUF model: not starting with GGUF magic number');
    mkdirSync(join(dir, 'photos'));
    writeFileSync(join(dir, 'photos', 'a.jpg'), 'x');
    expect(await fails(svc, 'import', join(dir, 'photos'))).toMatch(/^path: cannot tell which engine runs this folder/);
    writeFileSync(join(dir, 'notes.gguf'), gguf);
    const ok = await models(svc, 'import', join(dir, 'notes.gguf'), 'notes-model');
    expect(ok.out).toMatch(/^notes-model installed from .* \(llama-cpp, 0\.1\d MB\)\n {2}GGUF: architecture llama, [\d.]+ parameters, quantisation F32\n {2}sha256 [0-9a-f]{64} {2}model\.gguf \(recorded at import\)$/);
    expect(await fails(svc, 'import', join(dir, 'notes.gguf'), 'notes-model')).toBe('notes-model is already installed');
  });

  it('refuses a file offered as a catalog entry whose hash differs, showing both', async () => {
    writeFileSync(join(dir, 'impostor.gguf'), gguf);
    const stated = catalog.entries.find((e) => e.id === 'tiny-gguf-verified')!.files[0]!.sha256;
    expect(await fails(service(), 'import', join(dir, 'impostor.gguf'), 'tiny-gguf-verified'))
      .toBe(`model.gguf: SHA-256 ${sha256(gguf)} is not the publisher's (${stated}); the file was removed`);
  });
});

describe('clindoc models verify and rm', () => {
  it('verify: a model not installed is an error; a changed file is shown with both hashes and exits 1', async () => {
    const svc = service();
    expect(await fails(svc, 'verify', 'tiny-gguf')).toBe('tiny-gguf is not installed: nothing to verify');
    await models(svc, 'pull', 'tiny-gguf');
    const file = join(dir, 'models', 'tiny-gguf', 'model.gguf');
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('x')]));
    const r = await models(svc, 'verify', 'tiny-gguf');
    expect(r.code).toBe(1);
    expect(r.out).toBe(`CHANGED model.gguf (expected ${sha256(gguf)}, found ${sha256(readFileSync(file))})`);
  });

  it('rm: a model never installed, or unknown, is an error; an unfinished download is removed and said so', async () => {
    const svc = service();
    expect(await fails(svc, 'rm', 'tiny-gguf')).toBe('tiny-gguf is not installed: nothing to remove');
    expect(await fails(svc, 'rm', 'nope')).toBe('no model "nope" is installed or in the catalog (clindoc models list shows both)');
    // A download stopped half-way leaves partial bytes: rm removes them and says that is what it removed.
    const hold = hub.holdNext(`/tiny-gguf/resolve/${'c0ffee'.padEnd(40, '0')}/model.gguf`, 40_000);
    const pull = await svc.pull('cli', 'tiny-gguf');
    const running = svc.runPull(pull.id);
    await hold.reached;
    await expect.poll(async () => (await svc.latestPull('tiny-gguf')).receivedBytes).toBeGreaterThan(0);
    await svc.cancelPull('tiny-gguf');
    hold.release();
    await running;
    expect((await svc.latestPull('tiny-gguf')).status).toBe('cancelled');
    expect((await models(svc, 'rm', 'tiny-gguf')).out).toBe('tiny-gguf was not installed; removed its unfinished download');
    expect(await fails(svc, 'rm', 'tiny-gguf')).toBe('tiny-gguf is not installed: nothing to remove');
  });

  it('rm of an unknown model exits non-zero from the real command line', { timeout: 60_000 }, async () => {
    const r = await runCli(['models', 'rm', 'never-installed'], { CLINDOC_DATA_DIR: join(dir, 'data') });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('clindoc: no model "never-installed" is installed or in the catalog');
  });
});
