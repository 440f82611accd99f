import Database from 'better-sqlite3';
import { chmodSync, closeSync, copyFileSync, createReadStream, createWriteStream, existsSync, fsyncSync, linkSync, mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import type { Db } from './database.js';
import type { KeyRing } from './crypto/key-ring.js';
import { encryptingStream, readBlobHeader } from './crypto/blob-cipher.js';
import { keyRingPath } from './crypto/master-key.js';
import { BACKUP_FORMAT, MANIFEST_NAME, digestFile, sealManifest, type BackupManifest } from './backup-manifest.js';

/** What a backup is made from: the open database, the data folder and its key ring. */
export interface BackupSource {
  db: Db;
  dataDir: string;
  ring: KeyRing;
  appVersion: string;
  /**
   * Database pages copied per step of SQLite's online backup. The server copies in small steps
   * between requests (its own writes during the copy land in the copy too); a separate process
   * (`clindoc backup` beside a running server) passes Infinity to copy in one step under one read
   * snapshot, because a write from another connection restarts a stepwise copy.
   */
  pagesPerStep?: number;
}

/** Files of the data folder carried besides the database and audio (each encrypted in the archive). */
const EXTRA_FILES = ['local-credentials.json'];
/** Folders of the data folder carried whole (imported code sets). */
const EXTRA_DIRS = ['codes'];
/** Staging folders older than this were left by a crash and are removed by the next backup. */
const STALE_MS = 24 * 60 * 60 * 1000;

/** A view of the ring that keeps encrypting under one key for the whole backup, whatever a rotation does meanwhile. */
function pinned(ring: KeyRing, keyId: string): KeyRing {
  return { activeKeyId: keyId, key: (id) => ring.key(id), keyIds: () => ring.keyIds(), rotate: () => ring.rotate(), prune: (keep) => ring.prune(keep) };
}

async function encryptFile(ring: KeyRing, source: string, destination: string, entry: string): Promise<void> {
  mkdirSync(dirname(destination), { recursive: true, mode: 0o700 });
  await pipeline(createReadStream(source), encryptingStream(ring, `backup:${entry}`), createWriteStream(destination, { mode: 0o600 }));
}

function removeStaleStaging(dataDir: string): void {
  for (const name of readdirSync(dataDir)) {
    if (!name.startsWith('.backup-')) continue;
    const path = join(dataDir, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // another process's staging, or already gone
    }
  }
}

/** What the copied database holds: its schema level, counts and the audio files it refers to. */
function readSnapshot(path: string): { schemaVersion: number; counts: Omit<BackupManifest['counts'], 'audioFiles'>; blobs: string[] } {
  const snap = new Database(path);
  try {
    // A standalone file: the copy carries no write-ahead log of its own.
    snap.pragma('journal_mode = DELETE');
    const count = (table: string): number => (snap.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
    return {
      schemaVersion: snap.pragma('user_version', { simple: true }) as number,
      counts: { accounts: count('accounts'), notes: count('notes'), transcriptions: count('transcriptions') },
      blobs: (snap.prepare('SELECT DISTINCT audio_blob AS b FROM transcriptions WHERE audio_blob IS NOT NULL').all() as { b: string }[]).map((r) => r.b),
    };
  } finally {
    snap.close();
  }
}

/**
 * Writes a consistent, encrypted backup of the data folder to `file` while Clindoc keeps running:
 * SQLite's online backup API copies the database, then the audio files the copy refers to are
 * hard-linked (audio files never change once written, so the link is a snapshot), the database
 * and the other files are encrypted under a data key of the installation's key ring, the ring
 * itself (sealed under the master key, which is never in a backup) is added, and a manifest with
 * SHA-256 checksums and an HMAC heads the tar archive. The archive appears under its name only
 * when complete (written as `.partial`, synced, renamed); a failure leaves nothing behind.
 */
export async function writeBackup(source: BackupSource, file: string): Promise<{ manifest: BackupManifest; bytes: number }> {
  const { dataDir, ring } = source;
  removeStaleStaging(dataDir);
  const staging = mkdtempSync(join(dataDir, '.backup-'));
  chmodSync(staging, 0o700);
  const pkg = join(staging, 'archive');
  const partial = `${file}.partial`;
  try {
    mkdirSync(pkg, { mode: 0o700 });
    const snapshot = join(staging, 'snapshot.db');
    const step = source.pagesPerStep ?? 256;
    await source.db.backup(snapshot, { progress: () => (Number.isFinite(step) ? step : 0x7fffffff) });
    const snap = readSnapshot(snapshot);

    const keyId = ring.activeKeyId;
    const sealing = pinned(ring, keyId);
    const dataKey = ring.key(keyId);
    if (!dataKey) throw new Error('the active data key is not in the key ring');
    await encryptFile(sealing, snapshot, join(pkg, 'database.enc'), 'database.enc');
    rmSync(snapshot, { force: true });

    for (const name of EXTRA_FILES) {
      const path = join(dataDir, name);
      if (existsSync(path)) await encryptFile(sealing, path, join(pkg, 'files', `${name}.enc`), `files/${name}.enc`);
    }
    for (const dir of EXTRA_DIRS) {
      const from = join(dataDir, dir);
      if (!existsSync(from)) continue;
      for (const name of readdirSync(from)) {
        if (/^[A-Za-z0-9._-]+$/.test(name) && statSync(join(from, name)).isFile()) {
          await encryptFile(sealing, join(from, name), join(pkg, 'files', dir, `${name}.enc`), `files/${dir}/${name}.enc`);
        }
      }
    }

    const blobKeyIds = new Set<string>();
    let audioFiles = 0;
    mkdirSync(join(pkg, 'blobs'), { mode: 0o700 });
    for (const key of snap.blobs) {
      if (!/^[a-f0-9-]{36}$/.test(key)) continue;
      const from = join(dataDir, 'blobs', key);
      const to = join(pkg, 'blobs', key);
      try {
        linkSync(from, to);
      } catch (err) {
        // Deleted since the copy was taken: its record went with it after the snapshot.
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
        copyFileSync(from, to);
      }
      const header = readBlobHeader(to);
      if (header) blobKeyIds.add(header.keyId);
      audioFiles += 1;
    }

    // The ring is copied last so it holds every key used above, even after a rotation meanwhile.
    const ringText = readFileSync(keyRingPath(dataDir), 'utf8');
    const ringIds = new Set((JSON.parse(ringText) as { keys: Array<{ id: string }> }).keys.map((k) => k.id));
    for (const id of [keyId, ...blobKeyIds]) {
      if (!ringIds.has(id)) throw new Error('the key ring changed during the backup (keys pruned); run the backup again');
    }
    writeFileSync(join(pkg, 'keyring.json'), ringText, { mode: 0o600 });

    const paths = listFiles(pkg).sort();
    const files: BackupManifest['files'] = [];
    for (const path of paths) files.push({ path, ...(await digestFile(join(pkg, path))) });
    const manifest = sealManifest({
      format: BACKUP_FORMAT, version: 1, createdAt: new Date().toISOString(), appVersion: source.appVersion, schemaVersion: snap.schemaVersion,
      keyId, counts: { ...snap.counts, audioFiles }, files,
    }, dataKey);
    writeFileSync(join(pkg, MANIFEST_NAME), `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o600 });

    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const archive = tar.c({ cwd: pkg, portable: true }, [MANIFEST_NAME, ...paths]);
    await writeArchive(archive, partial);
    const fd = openSync(partial, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(partial, file);
    return { manifest, bytes: statSync(file).size };
  } catch (err) {
    rmSync(partial, { force: true });
    throw err;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/**
 * Streams the archive into `path`. When the write fails (a full disk), the rest of the archive is
 * read and dropped before the error is passed on: tar holds each file it packs open until it has
 * read it to the end, and a pack left half-read would keep the staging files' descriptors, and so
 * their space, for the life of the process.
 */
async function writeArchive(archive: tar.Pack, path: string): Promise<void> {
  const out = createWriteStream(path, { mode: 0o600 });
  await new Promise<void>((resolve, reject) => {
    let failed: unknown;
    out.on('error', (err) => {
      failed ??= err;
      archive.unpipe(out);
      archive.resume();
    });
    archive.on('error', (err) => {
      failed ??= err;
      out.destroy();
    });
    archive.on('end', () => failed !== undefined && reject(failed));
    out.on('close', () => (failed === undefined ? resolve() : archive.emittedEnd && reject(failed)));
    archive.pipe(out);
  });
}

/** Every file under `root`, as archive paths with forward slashes. */
function listFiles(root: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...listFiles(root, rel));
    else if (entry.isFile()) out.push(rel);
  }
  return out;
}
