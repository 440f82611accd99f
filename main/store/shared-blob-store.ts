import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyRing } from './crypto/key-ring.js';
import { BLOB_KEY, createFileBlobStore, createLayoutBlobStore, type EncryptedBlobStore } from './blob-store.js';

const FAN = /^[a-f0-9]{2}$/;

/** Names every instance sharing one folder agrees on (docs/deploy.md, "Shared audio folder"). */
export const SHARED_LAYOUT = {
  /** Sealed audio: `blobs/ab/cd/<uuid>`, where `abcd` are the key's first four characters. */
  blobs: 'blobs',
  /** Files being written (`<host>-<pid>-<random>.part`), renamed into `blobs/` when whole. */
  temp: 'tmp',
  /** The key ring every instance opens with the shared CLINDOC_ENCRYPTION_KEY. */
  keyRing: 'keyring.json',
} as const;

/** Where a blob lives under a shared folder. */
export function sharedBlobPath(sharedDir: string, key: string): string {
  return join(sharedDir, SHARED_LAYOUT.blobs, key.slice(0, 2), key.slice(2, 4), key);
}

function listDir(path: string): string[] {
  try {
    return readdirSync(path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
}

/**
 * Audio blobs in a folder every instance mounts (CLINDOC_SHARED_DIR, NFS or SMB), for API and
 * worker instances on several hosts. Keys fan out over two folder levels so no folder holds more
 * than a few hundred entries however many recordings a clinic keeps; each write lands in `tmp/`
 * first and is renamed into place whole (same file system, so the rename is atomic on NFS and SMB
 * alike). The folder must exist: a missing mount fails start-up instead of filling the local disk
 * under the mount point.
 */
export function createSharedBlobStore(sharedDir: string, ring: KeyRing): EncryptedBlobStore {
  let info;
  try {
    info = statSync(sharedDir);
  } catch {
    throw new Error(`the shared folder ${sharedDir} (CLINDOC_SHARED_DIR) does not exist: mount it before starting Clindoc`);
  }
  if (!info.isDirectory()) throw new Error(`the shared folder ${sharedDir} (CLINDOC_SHARED_DIR) is not a folder`);
  const blobsDir = join(sharedDir, SHARED_LAYOUT.blobs);
  mkdirSync(blobsDir, { recursive: true, mode: 0o700 });
  return createLayoutBlobStore({
    fileOf: (key) => sharedBlobPath(sharedDir, key),
    tempDir: join(sharedDir, SHARED_LAYOUT.temp),
    keys() {
      const keys: string[] = [];
      for (const a of listDir(blobsDir).filter((n) => FAN.test(n))) {
        for (const b of listDir(join(blobsDir, a)).filter((n) => FAN.test(n))) {
          // Only a file in its own fan-out folder is a blob; a stray copy elsewhere is not listed twice.
          for (const name of listDir(join(blobsDir, a, b))) if (BLOB_KEY.test(name) && name.startsWith(a + b)) keys.push(name);
        }
      }
      return keys;
    },
  }, ring);
}

/** The blob store a configuration names: the clinic's shared folder when set, else the data folder's own. */
export function openBlobStore(folders: { dataDir: string; sharedDir?: string }, ring: KeyRing): EncryptedBlobStore {
  return folders.sharedDir ? createSharedBlobStore(folders.sharedDir, ring) : createFileBlobStore(join(folders.dataDir, 'blobs'), ring);
}
