import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, linkSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * Data-encryption keys (AES-256) with ids. The ring is kept in one JSON file in the data folder;
 * each key in it is itself sealed (AES-256-GCM) under the master key, which never touches the
 * data folder in the clear unless the operator chose the generated-key fallback. New writes use
 * the active key; every key stays in the ring so data written under an old one stays readable
 * until `clindoc data reencrypt` has moved it.
 */
export interface KeyRing {
  /** Id of the key new writes use. */
  readonly activeKeyId: string;
  /** The key with this id, or undefined when the ring does not hold it. */
  key(id: string): Buffer | undefined;
  keyIds(): string[];
  /** Adds a fresh key, makes it active and saves the ring. Returns the new id. */
  rotate(): string;
  /** Drops keys other than the active one (call only after re-encryption). Returns their ids. */
  prune(keep?: (id: string) => boolean): string[];
}

export class KeyRingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KeyRingError';
  }
}

interface RingFile {
  version: 1;
  active: string;
  keys: Array<{ id: string; createdAt: string; sealed: string }>;
}

const IV = 12;
const TAG = 16;

function wrap(master: Buffer, id: string, key: Buffer): string {
  const iv = randomBytes(IV);
  const c = createCipheriv('aes-256-gcm', master, iv);
  c.setAAD(Buffer.from(`clindoc-keyring:v1:${id}`));
  const ct = Buffer.concat([c.update(key), c.final()]);
  return Buffer.concat([iv, c.getAuthTag(), ct]).toString('base64');
}

function unwrap(master: Buffer, id: string, sealed: string): Buffer {
  const raw = Buffer.from(sealed, 'base64');
  const d = createDecipheriv('aes-256-gcm', master, raw.subarray(0, IV));
  d.setAAD(Buffer.from(`clindoc-keyring:v1:${id}`));
  d.setAuthTag(raw.subarray(IV, IV + TAG));
  return Buffer.concat([d.update(raw.subarray(IV + TAG)), d.final()]);
}

const newId = (): string => `k${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/**
 * Opens the key ring at `path` with the master key, creating it (with one key) when absent.
 * Throws KeyRingError when the master key does not open it, so a wrong
 * CLINDOC_ENCRYPTION_KEY stops start-up instead of writing data nobody can read later.
 */
export function openKeyRing(path: string, master: Buffer): KeyRing {
  if (master.length !== 32) throw new KeyRingError('the master encryption key must be 32 bytes');
  let keys = new Map<string, Buffer>();
  let file: RingFile;
  let loadedMtime = 0;
  let checkedAt = 0;
  const load = (): void => {
    let next: RingFile;
    try {
      next = JSON.parse(readFileSync(path, 'utf8')) as RingFile;
    } catch {
      throw new KeyRingError(`the key ring ${path} is not readable JSON`);
    }
    const opened = new Map<string, Buffer>();
    for (const entry of next.keys) {
      try {
        opened.set(entry.id, unwrap(master, entry.id, entry.sealed));
      } catch {
        throw new KeyRingError(`the encryption key does not open the key ring ${path} (wrong CLINDOC_ENCRYPTION_KEY or keychain entry?)`);
      }
    }
    if (!opened.has(next.active)) throw new KeyRingError(`the key ring ${path} names an active key it does not hold`);
    // Keys dropped from the file stay known to a running process, so nothing it can still see becomes unreadable.
    for (const [id, key] of keys) if (!opened.has(id)) opened.set(id, key);
    file = next;
    keys = opened;
    loadedMtime = statSync(path).mtimeMs;
  };
  /** Picks up a rotation made by the CLI while this process runs (checked at most every 2 s). */
  const refresh = (force = false): void => {
    const t = Date.now();
    if (!force && t - checkedAt < 2000) return;
    checkedAt = t;
    try {
      if (statSync(path).mtimeMs !== loadedMtime) load();
    } catch {
      // keep the ring already in memory
    }
  };
  if (existsSync(path)) {
    load();
  } else {
    const id = newId();
    const key = randomBytes(32);
    const created: RingFile = { version: 1, active: id, keys: [{ id, createdAt: new Date().toISOString(), sealed: wrap(master, id, key) }] };
    // Several instances sharing one ring (clinic mode) may start at once: the first ring written
    // wins and the others open it, so no process ever encrypts under a key nobody else holds.
    if (createOnce(path, created)) {
      keys.set(id, key);
      file = created;
      loadedMtime = statSync(path).mtimeMs;
    } else load();
  }

  return {
    get activeKeyId() {
      refresh();
      return file.active;
    },
    key(id) {
      if (!keys.has(id)) refresh(true);
      return keys.get(id);
    },
    keyIds: () => [...keys.keys()],
    rotate() {
      let id = newId();
      while (keys.has(id)) id = newId();
      const key = randomBytes(32);
      keys.set(id, key);
      file = { ...file, active: id, keys: [...file.keys, { id, createdAt: new Date().toISOString(), sealed: wrap(master, id, key) }] };
      save(path, file);
      loadedMtime = statSync(path).mtimeMs;
      return id;
    },
    prune(keep = () => false) {
      const dropped = file.keys.filter((k) => k.id !== file.active && !keep(k.id)).map((k) => k.id);
      if (!dropped.length) return [];
      file = { ...file, keys: file.keys.filter((k) => !dropped.includes(k.id)) };
      save(path, file);
      loadedMtime = statSync(path).mtimeMs;
      for (const id of dropped) keys.delete(id);
      return dropped;
    },
  };
}

/**
 * Publishes a new ring only if none exists: written whole to a temporary file, then hard-linked to
 * its name, which fails when another process got there first (atomic on local disks and NFS).
 */
function createOnce(path: string, file: RingFile): boolean {
  const tmp = `${path}.${hostname()}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  try {
    linkSync(tmp, path);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    rmSync(tmp, { force: true });
  }
}

/** Writes through a temporary file and a rename, owner-only, so a crash never leaves half a ring. */
function save(path: string, file: RingFile): void {
  const tmp = `${path}.${hostname()}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600);
  renameSync(tmp, path);
}
