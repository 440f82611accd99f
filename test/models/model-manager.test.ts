import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, type Db } from '../../main/store/database.js';
import { createModelStore } from '../../main/store/model-store.js';
import { createModelFiles } from '../../main/engines/models/model-files.js';
import { createHttpDownloader, type StatFs } from '../../main/engines/models/http-download.js';
import { createModelInspector } from '../../main/engines/models/model-inspector.js';
import { createModelService, MODEL_PULL_JOB, type ModelService } from '../../main/services/models/model-service.js';
import { DomainError } from '../../main/services/errors.js';
import type { ModelPullView } from '../../shared/api/models.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { readTree, sha256, startModelServer, tinyCatalog, type ModelServer } from './model-server.js';

let work: string;
let whisper: Record<string, Buffer>;
let server: ModelServer;
let fixture: ReturnType<typeof tinyCatalog>;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'clindoc-models-'));
  whisper = readTree(writeTinyWhisper(join(work, 'whisper-src')));
  fixture = tinyCatalog(whisper);
  server = await startModelServer(fixture.files);
});
afterAll(async () => {
  await server.close();
  rmSync(work, { recursive: true, force: true });
});

interface Harness { db: Db; root: string; service: ModelService; queued: string[]; progress: ModelPullView[] }
let h: Harness;
let caseNo = 0;

function harness(statfs?: StatFs): Harness {
  const dir = join(work, `case-${++caseNo}`);
  mkdirSync(dir);
  const db = openDatabase(join(dir, 'clindoc.db'));
  const root = join(dir, 'models');
  const queued: string[] = [];
  const service = createModelService({
    catalog: fixture.catalog, store: createModelStore(db), files: createModelFiles({ root, ...(statfs ? { statfs } : {}) }),
    downloader: createHttpDownloader(statfs ? { statfs } : {}), inspector: createModelInspector(), mirror: server.url, reserveBytes: 0, progressEveryMs: 0,
    enqueue: async (kind, _account, id) => void (kind === MODEL_PULL_JOB && queued.push(id)),
  });
  return { db, root, service, queued, progress: [] };
}
beforeEach(() => {
  h = harness();
  server.requests.length = 0;
});
afterEach(() => h.db.close());

/** Queues a pull the way the API does and runs its job to the end. */
async function pullNow(id: string): Promise<ModelPullView> {
  const pull = await h.service.pull('acct', id);
  expect(h.queued).toContain(pull.id);
  await h.service.runPull(pull.id, (p) => h.progress.push(p));
  return h.service.latestPull(id);
}

describe('downloading a model', () => {
  it("reports progress and installs the file whole, checked against the publisher's hash", async () => {
    const done = await pullNow('tiny-gguf');
    expect(done.status).toBe('done');
    const received = h.progress.map((p) => p.receivedBytes);
    expect(received.length).toBeGreaterThan(2);
    expect(received).toEqual([...received].sort((a, b) => a - b));
    expect(received.at(-1)).toBe(fixture.files[`/tiny-gguf/resolve/${'c0ffee'.padEnd(40, '0')}/model.gguf`]!.length);
    const gguf = readFileSync(join(h.root, 'tiny-gguf', 'model.gguf'));
    const view = await h.service.get('tiny-gguf');
    expect(view.installed).toBe(true);
    expect(view.files).toEqual([{ path: 'model.gguf', bytes: gguf.length, sha256: sha256(gguf), hashSource: 'publisher' }]);
    expect(server.requests.every((r) => r.path.startsWith('/tiny-gguf/'))).toBe(true); // through the mirror, nothing else
  });

  it('never shows a half model where an engine could load it', async () => {
    const path = `/tiny-gguf/resolve/${'c0ffee'.padEnd(40, '0')}/model.gguf`;
    const hold = server.holdNext(path, 30_000);
    const pull = await h.service.pull('acct', 'tiny-gguf');
    const running = h.service.runPull(pull.id);
    await hold.reached;
    expect(existsSync(join(h.root, 'tiny-gguf'))).toBe(false);
    expect(h.service.installed()).toEqual([]);
    expect((await h.service.latestPull('tiny-gguf')).status).toBe('running');
    hold.release();
    await running;
    expect(h.service.installed().map((m) => m.id)).toEqual(['tiny-gguf']);
    expect(readdirSync(h.root).filter((n) => n !== '.staging')).toEqual(['tiny-gguf']);
  });

  it('resumes an interrupted download with a Range request instead of starting over', async () => {
    const path = `/tiny-gguf/resolve/${'c0ffee'.padEnd(40, '0')}/model.gguf`;
    const drop = server.dropNext(path, 40_000);
    const pull = await h.service.pull('acct', 'tiny-gguf');
    // The connection is cut once the client holds the 40,000 bytes sent, however long reading them took.
    await h.service.runPull(pull.id, (p) => p.receivedBytes >= 40_000 && drop.cut());
    const done = await h.service.latestPull('tiny-gguf');
    expect(done.status).toBe('done');
    const asked = server.requests.filter((r) => r.path === path);
    expect(asked.length).toBe(2);
    expect(asked[0]!.range).toBeUndefined();
    expect(asked[1]!.range).toBe('bytes=40000-');
    expect(sha256(readFileSync(join(h.root, 'tiny-gguf', 'model.gguf')))).toBe(sha256(fixture.files[path]!));
  });

  it('accepts a file with the publisher hash and refuses one without it, removing the file', async () => {
    expect((await pullNow('tiny-gguf-verified')).status).toBe('done');
    expect((await h.service.get('tiny-gguf-verified')).files![0]!.hashSource).toBe('publisher');

    const bad = await pullNow('tiny-gguf-bad-hash');
    expect(bad.status).toBe('failed');
    expect(bad.error).toMatch(/SHA-256 [0-9a-f]{64} is not the publisher's/);
    expect((await h.service.get('tiny-gguf-bad-hash')).installed).toBe(false);
    expect(existsSync(join(h.root, 'tiny-gguf-bad-hash'))).toBe(false);
    expect(existsSync(join(h.root, '.staging', 'tiny-gguf-bad-hash', 'model.gguf'))).toBe(false);
    expect(existsSync(join(h.root, '.staging', 'tiny-gguf-bad-hash', 'model.gguf.part'))).toBe(false);
  });

  it("refuses a download whose bytes changed at the source, naming both hashes", async () => {
    const path = `/tiny-gguf/resolve/${'c0ffee'.padEnd(40, '0')}/model.gguf`;
    const original = fixture.files[path]!;
    const changed = Buffer.concat([original.subarray(0, original.length - 1), Buffer.from([original.at(-1)! ^ 1])]);
    server.put(path, changed);
    try {
      const again = await pullNow('tiny-gguf');
      expect(again.status).toBe('failed');
      expect(again.error).toBe(`model.gguf: SHA-256 ${sha256(changed)} is not the publisher's (${sha256(original)}); the file was removed`);
    } finally {
      server.put(path, original);
    }
  });

  it('starts one download when two requests for a model arrive at the same moment', async () => {
    const [a, b] = await Promise.all([h.service.pull('acct', 'tiny-gguf'), h.service.pull('acct', 'tiny-gguf')]);
    expect(b.id).toBe(a.id);
    expect(h.queued).toEqual([a.id]);
  });

  it('refuses a download the disk cannot hold before fetching anything', async () => {
    h.db.close();
    h = harness(async () => ({ bavail: 10, bsize: 4096 })); // 40 KB free, the model is ~105 KB
    const err = await h.service.pull('acct', 'tiny-gguf').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).status).toBe(507);
    expect((err as DomainError).message).toMatch(/not enough free disk space for tiny-gguf: needs 1 MB.*, 1 MB free/);
    expect(server.requests).toEqual([]);
  });

  it('refuses mid-way when the server announces more than the disk holds', async () => {
    const downloader = createHttpDownloader({ statfs: async () => ({ bavail: 1, bsize: 1000 }) });
    const err = await downloader.download({ url: `${server.url}/tiny-gguf/resolve/${'c0ffee'.padEnd(40, '0')}/model.gguf`, partFile: join(work, 'x.part') }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'disk_full', retryable: false });
    expect(existsSync(join(work, 'x.part'))).toBe(false);
  });

  it('downloads a multi-file speech model with its folder configuration', async () => {
    expect((await pullNow('tiny-whisper')).status).toBe('done');
    const installed = h.service.installed().find((m) => m.id === 'tiny-whisper')!;
    expect(installed.engine).toBe('onnx-whisper');
    for (const [path, bytes] of Object.entries(whisper)) expect(sha256(readFileSync(join(installed.location, path)))).toBe(sha256(bytes));
  });
});

describe('importing, verifying and removing', () => {
  it('imports a Whisper folder from a USB stick as a model the catalog does not list', async () => {
    const stick = join(work, 'usb', 'My Whisper');
    mkdirSync(stick, { recursive: true });
    for (const [path, bytes] of Object.entries(whisper)) {
      mkdirSync(join(stick, path, '..'), { recursive: true });
      writeFileSync(join(stick, path), bytes);
    }
    const view = await h.service.importFrom(stick);
    expect(view).toMatchObject({ id: 'my-whisper', engine: 'onnx-whisper', task: 'speech', origin: 'import', installed: true });
    expect(view.files!.every((f) => f.hashSource === 'pinned')).toBe(true);
    expect((await h.service.verify('my-whisper')).ok).toBe(true);
  });

  it('recognises an imported .gguf as the catalog entry whose publisher hash it has', async () => {
    const file = join(work, 'usb', 'downloaded-elsewhere.gguf');
    mkdirSync(join(work, 'usb'), { recursive: true });
    writeFileSync(file, fixture.files[`/tiny-gguf-verified/resolve/${'c0ffee'.padEnd(40, '0')}/model.gguf`]!);
    const view = await h.service.importFrom(file);
    expect(view).toMatchObject({ id: 'tiny-gguf-verified', origin: 'catalog', installed: true });
    expect(view.files![0]!.hashSource).toBe('publisher');
  });

  it('refuses an import that claims to be a catalog entry but has other bytes', async () => {
    const file = join(work, 'usb', 'impostor.gguf');
    mkdirSync(join(work, 'usb'), { recursive: true });
    writeFileSync(file, Buffer.from('GGUF not really'));
    await expect(h.service.importFrom(file, 'tiny-gguf-verified')).rejects.toThrow(/is not the publisher's/);
    expect((await h.service.get('tiny-gguf-verified')).installed).toBe(false);
    expect(existsSync(join(h.root, '.staging', 'tiny-gguf-verified'))).toBe(false);
  });

  it('finds a changed file on verify, and removes a model with its files', async () => {
    await pullNow('tiny-gguf');
    const file = join(h.root, 'tiny-gguf', 'model.gguf');
    writeFileSync(file, Buffer.concat([readFileSync(file), Buffer.from('x')]));
    const result = await h.service.verify('tiny-gguf');
    expect(result.ok).toBe(false);
    expect(result.files[0]).toMatchObject({ path: 'model.gguf', ok: false });
    await h.service.remove('tiny-gguf');
    expect(existsSync(join(h.root, 'tiny-gguf'))).toBe(false);
    expect((await h.service.get('tiny-gguf')).installed).toBe(false);
  });
});
