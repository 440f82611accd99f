import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { ROOT } from '../support/child.js';
import { waitFor } from '../support/server.js';
import { filesUnder } from '../security/helpers.js';
import { openKeyRing, type KeyRing } from '../../main/store/crypto/key-ring.js';
import { createFileBlobStore, type EncryptedBlobStore } from '../../main/store/blob-store.js';
import { SHARED_LAYOUT, createSharedBlobStore } from '../../main/store/shared-blob-store.js';

const run = promisify(execFile);
const CHILD = join(ROOT, 'test', 'blobs', 'blob-child.ts');
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');
const master = randomBytes(32);
const root = mkdtempSync(join(tmpdir(), 'clindoc-shared-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function child(...args: string[]): Promise<Record<string, string>> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', CHILD, master.toString('hex'), ...args], { cwd: ROOT });
  return JSON.parse(stdout) as Record<string, string>;
}

/** A source that sends `head` and then waits until `release()`, like an upload on a slow link. */
function slowSource(head: Buffer, tail: Buffer): { source: Readable; release: () => void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  async function* chunks(): AsyncGenerator<Buffer> {
    yield head;
    await gate;
    yield tail;
  }
  return { source: Readable.from(chunks()), release };
}

const partFiles = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.part')) : []);
const partWritten = (dir: string) => async (): Promise<string | undefined> =>
  partFiles(dir).find((n) => statSync(join(dir, n)).size > 0);

describe('shared blob store', () => {
  let dir: string;
  let ring: KeyRing;
  let blobs: EncryptedBlobStore;
  beforeEach(() => {
    dir = mkdtempSync(join(root, 'share-'));
    ring = openKeyRing(join(dir, SHARED_LAYOUT.keyRing), master);
    blobs = createSharedBlobStore(dir, ring);
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps blobs in blobs/ab/cd/<uuid>, sealed and owner-only, beside the key ring', async () => {
    const audio = randomBytes(300_000);
    const { key, bytes } = await blobs.write(Readable.from([audio.subarray(0, 70_000), audio.subarray(70_000)]), 1_000_000);
    expect(bytes).toBe(audio.length);
    const path = blobs.pathOf(key);
    expect(relative(dir, path).split(/[\\/]/)).toEqual(['blobs', key.slice(0, 2), key.slice(2, 4), key]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path).includes(audio.subarray(1000, 1064))).toBe(false);
    expect(readdirSync(dir).sort()).toEqual(['blobs', 'keyring.json', 'tmp']);
    expect(partFiles(join(dir, 'tmp'))).toEqual([]);
    expect(blobs.keys()).toEqual([key]);
    expect(blobs.keyOf(path)).toBe(key);
    expect(blobs.keyOf(join(dir, key))).toBeUndefined();
    expect(await blobs.exists(key)).toBe(true);
    expect((await blobs.withPlaintext(key, async (p) => readFileSync(p))).equals(audio)).toBe(true);

    // Re-encryption under a rotated key replaces the file in place, through tmp/.
    const first = ring.activeKeyId;
    expect(blobs.keyIdOf(key)).toBe(first);
    const second = ring.rotate();
    await blobs.reencrypt(key);
    expect(blobs.keyIdOf(key)).toBe(second);
    expect(blobs.pathOf(key)).toBe(path);
    expect(partFiles(join(dir, 'tmp'))).toEqual([]);
    expect((await blobs.withPlaintext(key, async (p) => readFileSync(p))).equals(audio)).toBe(true);

    await blobs.delete(key);
    expect(blobs.keys()).toEqual([]);
    expect(await blobs.exists(key)).toBe(false);
  });

  it('refuses a shared folder that is not there rather than writing under an empty mount point', () => {
    expect(() => createSharedBlobStore(join(dir, 'not-mounted'), ring)).toThrow(/does not exist/);
    expect(existsSync(join(dir, 'not-mounted'))).toBe(false);
  });

  it('an oversized upload leaves nothing behind', async () => {
    await expect(blobs.write(Readable.from([randomBytes(5000)]), 1000)).rejects.toMatchObject({ kind: 'payload_too_large' });
    expect(blobs.keys()).toEqual([]);
    expect(filesUnder(join(dir, 'blobs'))).toEqual([]);
    expect(partFiles(join(dir, 'tmp'))).toEqual([]);
  });

  it('a reader never sees a blob while it is being written, in this process or another', async () => {
    const head = randomBytes(200_000);
    const tail = randomBytes(100_000);
    const { source, release } = slowSource(head, tail);
    const writing = blobs.write(source, 1_000_000);
    await waitFor(partWritten(join(dir, 'tmp')));
    // The bytes are on the share, but under tmp/ only: no key, no file under blobs/.
    expect(blobs.keys()).toEqual([]);
    expect(filesUnder(join(dir, 'blobs'))).toEqual([]);
    const neighbour = createSharedBlobStore(dir, openKeyRing(join(dir, SHARED_LAYOUT.keyRing), master));
    expect(neighbour.keys()).toEqual([]);
    expect(await child('read', dir)).toEqual({});
    release();
    const { key } = await writing;
    expect(neighbour.keys()).toEqual([key]);
    expect(await child('read', dir, key)).toEqual({ [key]: sha(Buffer.concat([head, tail])) });
    expect(partFiles(join(dir, 'tmp'))).toEqual([]);
  });

  it('two processes write to the same folder at once and read each other’s blobs', async () => {
    const [a, b] = await Promise.all([child('write', dir, 'a', '12'), child('write', dir, 'b', '12')]);
    const written = { ...a, ...b };
    expect(Object.keys(written)).toHaveLength(24);
    expect(blobs.keys().sort()).toEqual(Object.keys(written).sort());
    // Process b reads what a wrote and the other way round; this process reads them all.
    expect(await child('read', dir, ...Object.keys(a))).toEqual(a);
    expect(await child('read', dir, ...Object.keys(b))).toEqual(b);
    for (const [key, hash] of Object.entries(written)) {
      expect(await blobs.withPlaintext(key, async (p) => sha(readFileSync(p)))).toBe(hash);
    }
    // And one written here is read there.
    const mine = randomBytes(50_000);
    const { key } = await blobs.write(Readable.from([mine]), 1_000_000);
    expect(await child('read', dir, key)).toEqual({ [key]: sha(mine) });
  });

  it('a writer killed mid-write leaves only a temporary file, which the sweep removes once a day old', async () => {
    const writer = spawn(process.execPath, ['--import', 'tsx', CHILD, master.toString('hex'), 'hang', dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((resolve) => writer.once('exit', resolve));
    await new Promise<void>((resolve, reject) => {
      writer.stdout!.on('data', (c: Buffer) => c.toString().includes('writing') && resolve());
      writer.once('exit', (code) => reject(new Error(`the writer exited early (${code})`)));
    });
    writer.kill('SIGKILL');
    await exited;

    expect(blobs.keys()).toEqual([]);
    expect(filesUnder(join(dir, 'blobs'))).toEqual([]);
    const left = partFiles(join(dir, 'tmp'));
    expect(left).toHaveLength(1);
    expect(left[0]).toMatch(new RegExp(`-${writer.pid}-[a-f0-9]{16}\\.part$`));
    // Another host's write may be under way: an hour-old file stays, a day-old one goes.
    expect(await blobs.sweepTemp(Date.now() + 60 * 60 * 1000)).toBe(0);
    writeFileSync(join(dir, 'tmp', 'notes.txt'), 'not ours');
    expect(await blobs.sweepTemp(Date.now() + 25 * 60 * 60 * 1000)).toBe(1);
    expect(readdirSync(join(dir, 'tmp'))).toEqual(['notes.txt']);
  });
});

describe('local blob store', () => {
  it('keeps the flat layout and writes under a .part name so a partial file is never at its final name', async () => {
    const dir = mkdtempSync(join(root, 'local-'));
    const blobs = createFileBlobStore(join(dir, 'blobs'), openKeyRing(join(dir, 'keyring.json'), master));
    const head = randomBytes(200_000);
    const { source, release } = slowSource(head, Buffer.from('end'));
    const writing = blobs.write(source, 1_000_000);
    await waitFor(partWritten(join(dir, 'blobs')));
    expect(blobs.keys()).toEqual([]);
    release();
    const { key } = await writing;
    expect(blobs.pathOf(key)).toBe(join(dir, 'blobs', key));
    expect(blobs.keys()).toEqual([key]);
    expect(readdirSync(join(dir, 'blobs'))).toEqual([key]);
    expect((await blobs.withPlaintext(key, async (p) => readFileSync(p))).equals(Buffer.concat([head, Buffer.from('end')]))).toBe(true);
  });
});
