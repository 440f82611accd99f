import Database from 'better-sqlite3';
import { chmodSync, copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statfsSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import * as tar from 'tar';
import { decryptBlobFile, readBlobHeader } from './crypto/blob-cipher.js';
import { openKeyRing, KeyRingError } from './crypto/key-ring.js';
import { generatedKeyPath, keyRingPath, parseKey } from './crypto/master-key.js';
import { MIGRATIONS } from './migrations.js';
import { isOutOfSpace } from '../services/errors.js';
import { BackupError, MANIFEST_NAME, digestFile, manifestSealed, parseManifest, type BackupManifest } from './backup-manifest.js';

export { BackupError } from './backup-manifest.js';

export interface RestoreOptions {
  /** The data folder to restore into (Clindoc must not be running on it). */
  dataDir: string;
  /** The master key of the installation that made the backup. */
  masterKey: Buffer;
  /** Move an existing database aside instead of refusing. */
  replace?: boolean;
  /** A generated `encryption.key` to place in the restored folder (headless installs without CLINDOC_ENCRYPTION_KEY). */
  keyFile?: string;
}

export interface RestoreReport {
  dataDir: string;
  createdAt: string;
  counts: BackupManifest['counts'];
  /** Where the folder's previous contents were moved, when there were any. */
  previous?: string;
}

/** Entry names a backup may hold; anything else means the file was not made by Clindoc. */
const ENTRY = /^(keyring\.json|database\.enc|files\/[A-Za-z0-9._-]+\.enc|files\/codes\/[A-Za-z0-9._-]+\.enc|blobs\/[a-f0-9-]{36})$/;
/** Key files of the installation: kept with the folder when it is replaced, never in a backup. */
const INSTALLATION_KEYS = ['encryption.key', 'encryption.key.safe'];

/**
 * The master key a restore opens the backup with: `--key-file`, then CLINDOC_ENCRYPTION_KEY, then
 * the target folder's generated `encryption.key`. Never the OS keychain (the desktop app's key
 * is not reachable from the command line).
 */
export function restoreMasterKey(options: { dataDir: string; environmentKey?: string; keyFile?: string }): Buffer {
  const read = (path: string, what: string): Buffer => {
    const key = parseKey(readFileSync(path, 'utf8'));
    if (!key) throw new BackupError('key', `${what} does not hold a 32-byte key`);
    return key;
  };
  if (options.keyFile) return read(options.keyFile, options.keyFile);
  if (options.environmentKey) {
    const key = parseKey(options.environmentKey);
    if (!key) throw new BackupError('key', 'CLINDOC_ENCRYPTION_KEY must be 32 bytes as 64 hex digits or base64');
    return key;
  }
  const generated = generatedKeyPath(options.dataDir);
  if (existsSync(generated)) return read(generated, generated);
  throw new BackupError(
    'key',
    'no encryption key to open the backup with: set CLINDOC_ENCRYPTION_KEY to the key of the installation that made it, or pass --key-file with its encryption.key',
  );
}

/** Room kept free on the disk beyond what a restore writes (SQLite's journal, the log, other programs). */
const SPARE_BYTES = 16 * 1024 * 1024;
const MB = (bytes: number): number => Math.ceil(bytes / (1024 * 1024));

/** Bytes free to this process on the file system holding `dir`. */
function freeBytes(dir: string): number {
  const fs = statfsSync(dir);
  return fs.bavail * fs.bsize;
}

const diskFull = (need: number, free: number, where: string): BackupError =>
  new BackupError('space', `the disk is full: restoring this backup needs about ${MB(need)} MB beside ${where}, and ${MB(free)} MB are free; ` +
    'free some space and try again (the data folder was not changed)');

/**
 * What a restore will write, read from the archive's entry headers without writing anything: each
 * entry once, and the database and other files a second time when they are decrypted (audio is
 * moved, not copied). Counting stops once it passes `limit`, so a small compressed archive that
 * would expand past the free space (a "zip bomb") is refused before a byte lands on the disk. An
 * archive that cannot be read is left to `extract`, which says how it is damaged.
 */
async function bytesToWrite(file: string, limit: number): Promise<number> {
  let total = 0;
  const source = createReadStream(file);
  await new Promise<void>((resolve) => {
    const parser = new tar.Parser({
      onReadEntry: (entry) => {
        total += entry.size * (/^(database\.enc|files\/)/.test(entry.path) ? 2 : 1);
        entry.resume();
        if (total > limit) source.destroy();
      },
    });
    parser.on('end', () => resolve());
    parser.on('error', () => resolve());
    source.on('error', () => resolve());
    source.on('close', () => total > limit && resolve());
    source.pipe(parser);
  });
  return total;
}

/** Unpacks `file` into `into` (a staging folder beside `where`, the folder named in a refusal). */
async function extract(file: string, into: string, where: string): Promise<void> {
  if (!existsSync(file) || !statSync(file).isFile()) throw new BackupError('format', `${file} is not a file`);
  const free = freeBytes(into);
  const need = await bytesToWrite(file, free);
  if (need + SPARE_BYTES > free) throw diskFull(need + SPARE_BYTES, free, where);
  // Checked again before each entry: something else may be filling the same disk meanwhile.
  let short: BackupError | undefined;
  const roomFor = (entry: { size: number }): boolean => {
    if (short) return false;
    const left = freeBytes(into);
    if (entry.size + SPARE_BYTES <= left) return true;
    short = diskFull(entry.size + SPARE_BYTES, left, where);
    return false;
  };
  try {
    await tar.x({
      file, cwd: into, strict: true,
      filter: (_path, entry) => {
        const type = (entry as { type?: string }).type;
        return (type === 'File' || type === 'Directory') && roomFor(entry as { size: number });
      },
    });
  } catch (err) {
    if (short) throw short;
    if (isOutOfSpace(err)) throw diskFull(0, freeBytes(into), where);
    const message = (err as Error).message ?? '';
    if (/Unrecognized archive format/i.test(message)) throw new BackupError('format', 'this file is not a Clindoc backup (not a tar archive)');
    throw new BackupError('damaged', `this backup is damaged and cannot be read (${/truncated/i.test(message) ? 'the file is cut short' : 'the archive is corrupt'})`);
  }
  if (short) throw short;
}

/** Checks that the archive holds exactly the manifest's files with their sizes and checksums. */
async function verifyFiles(pkg: string, manifest: BackupManifest): Promise<void> {
  const listed = new Set<string>();
  for (const f of manifest.files) {
    if (!ENTRY.test(f.path)) throw new BackupError('format', 'this backup lists a file Clindoc never writes');
    listed.add(f.path);
    const path = join(pkg, f.path);
    if (!existsSync(path)) throw new BackupError('damaged', `this backup is damaged: ${f.path} is missing (the file may be cut short)`);
    const got = await digestFile(path);
    if (got.bytes !== f.bytes || got.sha256 !== f.sha256) throw new BackupError('damaged', `this backup is damaged: ${f.path} does not match its checksum`);
  }
  if (!listed.has('keyring.json') || !listed.has('database.enc')) throw new BackupError('format', 'this Clindoc backup lacks its database or key ring');
  for (const path of walk(pkg)) {
    if (path !== MANIFEST_NAME && !listed.has(path)) throw new BackupError('damaged', 'this backup holds a file its manifest does not list');
  }
}

function walk(root: string, prefix = ''): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(join(root, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...walk(root, rel));
    else out.push(rel);
  }
  return out;
}

/** The restored database must be whole and no newer than this Clindoc. */
function checkDatabase(path: string): void {
  let db: Database.Database | undefined;
  try {
    db = new Database(path);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (version > MIGRATIONS.length) throw new BackupError('format', `this backup was made by a newer Clindoc (database schema ${version}); update Clindoc first`);
    if (db.pragma('integrity_check', { simple: true }) !== 'ok') throw new BackupError('damaged', 'the database in this backup fails its integrity check');
  } catch (err) {
    if (err instanceof BackupError) throw err;
    throw new BackupError('damaged', 'the database in this backup cannot be opened');
  } finally {
    db?.close();
  }
}

/**
 * Restores a backup made by `writeBackup` into `dataDir`. Everything is checked before the data
 * folder is touched: the archive is read whole into a private staging folder beside it; every
 * entry must match the manifest's size and SHA-256; the key ring must open with this
 * installation's master key (otherwise the backup is another installation's); the manifest's
 * HMAC must verify; every encrypted entry must pass GCM authentication; the database must pass
 * SQLite's integrity check. Only then is an existing folder moved aside (with `replace`) and the
 * restored one renamed into place, so a refused restore leaves the data folder as it was.
 */
export async function restoreBackup(file: string, options: RestoreOptions): Promise<RestoreReport> {
  const dataDir = resolve(options.dataDir);
  const hasDatabase = existsSync(join(dataDir, 'clindoc.db'));
  if (hasDatabase && !options.replace) {
    throw new BackupError('target', `${dataDir} already holds a Clindoc database; stop Clindoc and restore with --replace to move it aside`);
  }
  mkdirSync(dirname(dataDir), { recursive: true });
  const staging = mkdtempSync(join(dirname(dataDir), '.clindoc-restore-'));
  chmodSync(staging, 0o700);
  try {
    const pkg = join(staging, 'archive');
    const data = join(staging, 'data');
    mkdirSync(pkg, { mode: 0o700 });
    mkdirSync(join(data, 'blobs'), { recursive: true, mode: 0o700 });
    await extract(file, pkg, dirname(dataDir));
    if (!existsSync(join(pkg, MANIFEST_NAME))) throw new BackupError('format', 'this file is not a Clindoc backup (it has no manifest)');
    const manifest = parseManifest(readFileSync(join(pkg, MANIFEST_NAME), 'utf8'));
    await verifyFiles(pkg, manifest);

    copyFileSync(join(pkg, 'keyring.json'), keyRingPath(data));
    chmodSync(keyRingPath(data), 0o600);
    let ring;
    try {
      ring = openKeyRing(keyRingPath(data), options.masterKey);
    } catch (err) {
      if (!(err instanceof KeyRingError)) throw err;
      throw new BackupError(
        'foreign',
        "this backup was made by another Clindoc installation: its key ring does not open with this installation's encryption key " +
          '(set CLINDOC_ENCRYPTION_KEY, or pass --key-file with the encryption.key of the installation that made it)',
      );
    }
    const dataKey = ring.key(manifest.keyId);
    if (!dataKey || !manifestSealed(manifest, dataKey)) throw new BackupError('damaged', "this backup's manifest has been altered");

    const open = async (entry: string, to: string): Promise<void> => {
      mkdirSync(dirname(to), { recursive: true, mode: 0o700 });
      try {
        await decryptBlobFile(ring, `backup:${entry}`, join(pkg, entry), to);
      } catch (err) {
        if (isOutOfSpace(err)) throw err;
        throw new BackupError('damaged', `this backup is damaged: ${entry} fails authentication`);
      }
    };
    for (const { path } of manifest.files) {
      if (path === 'database.enc') await open(path, join(data, 'clindoc.db'));
      else if (path.startsWith('files/')) await open(path, join(data, path.slice('files/'.length, -'.enc'.length)));
      else if (path.startsWith('blobs/')) {
        const header = readBlobHeader(join(pkg, path));
        if (header && !ring.key(header.keyId)) throw new BackupError('damaged', `this backup is damaged: ${path} needs a key its key ring lacks`);
        renameSync(join(pkg, path), join(data, path));
      }
    }
    checkDatabase(join(data, 'clindoc.db'));

    if (options.keyFile) copyFileSync(options.keyFile, generatedKeyPath(data));
    let previous: string | undefined;
    if (existsSync(dataDir)) {
      for (const name of INSTALLATION_KEYS) {
        if (existsSync(join(dataDir, name)) && !existsSync(join(data, name))) copyFileSync(join(dataDir, name), join(data, name));
      }
      if (readdirSync(dataDir).length) {
        previous = `${dataDir}.before-restore-${new Date().toISOString().replace(/[-:.]/g, '')}`;
        renameSync(dataDir, previous);
      } else {
        rmSync(dataDir, { recursive: true });
      }
    }
    for (const name of INSTALLATION_KEYS) if (existsSync(join(data, name))) chmodSync(join(data, name), 0o600);
    renameSync(data, dataDir);
    chmodSync(dataDir, 0o700);
    return { dataDir, createdAt: manifest.createdAt, counts: manifest.counts, ...(previous ? { previous } : {}) };
  } catch (err) {
    // The disk filled after the checks (another program writing): still "disk full", never "damaged".
    if (!(err instanceof BackupError) && isOutOfSpace(err)) throw diskFull(0, freeBytes(staging), dirname(dataDir));
    throw err;
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}
