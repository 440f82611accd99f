import { createHash, createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';

/**
 * The manifest of a Clindoc backup: the first entry of the archive, in the clear so a damaged or
 * foreign file can be named before any key is tried, and sealed with an HMAC under a key derived
 * from one of the installation's data keys, so nobody without that key can edit it (and the
 * checksums it lists) unnoticed.
 */
export interface BackupManifest {
  format: 'clindoc-backup';
  version: 1;
  createdAt: string;
  appVersion: string;
  /** The database's migration level (`PRAGMA user_version`) when it was copied. */
  schemaVersion: number;
  /** Data key (in the archive's key ring) that encrypted the archive's own entries and keys the HMAC. */
  keyId: string;
  /** What the copy holds, for the operator's report; no content. */
  counts: { accounts: number; notes: number; transcriptions: number; audioFiles: number };
  /** Every other entry of the archive with its size and SHA-256 as stored (after encryption). */
  files: Array<{ path: string; bytes: number; sha256: string }>;
  /** HMAC-SHA256 of the manifest without this field. */
  mac: string;
}

export const MANIFEST_NAME = 'manifest.json';
export const BACKUP_FORMAT = 'clindoc-backup';

/**
 * A refusal to restore a backup: `damaged` (cut short, checksum or authentication failure),
 * `foreign` (another installation's key ring), `format` (not a Clindoc backup, or a newer one),
 * `key` (no master key to try), `target` (the data folder already holds a database).
 */
export class BackupError extends Error {
  constructor(readonly reason: 'damaged' | 'foreign' | 'format' | 'key' | 'target' | 'space', message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

/** The manifest's own key: derived, so the data key itself never signs anything directly. */
const macKey = (dataKey: Buffer): Buffer => Buffer.from(hkdfSync('sha256', dataKey, Buffer.alloc(0), 'clindoc-backup-manifest-v1', 32));

/** Canonical bytes of a manifest without its MAC (fixed key order, as written). */
function signedBytes(manifest: Omit<BackupManifest, 'mac'>): Buffer {
  const { format, version, createdAt, appVersion, schemaVersion, keyId, counts, files } = manifest;
  return Buffer.from(JSON.stringify({ format, version, createdAt, appVersion, schemaVersion, keyId, counts, files }));
}

export function sealManifest(manifest: Omit<BackupManifest, 'mac'>, dataKey: Buffer): BackupManifest {
  return { ...manifest, mac: createHmac('sha256', macKey(dataKey)).update(signedBytes(manifest)).digest('hex') };
}

export function manifestSealed(manifest: BackupManifest, dataKey: Buffer): boolean {
  const expected = createHmac('sha256', macKey(dataKey)).update(signedBytes(manifest)).digest();
  const given = Buffer.from(typeof manifest.mac === 'string' ? manifest.mac : '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** Reads and shape-checks a manifest; anything else is a `format` refusal. */
export function parseManifest(text: string): BackupManifest {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BackupError('format', 'this file is not a Clindoc backup (its manifest is not readable)');
  }
  const m = value as Partial<BackupManifest> | null;
  if (!m || m.format !== BACKUP_FORMAT) throw new BackupError('format', 'this file is not a Clindoc backup');
  if (m.version !== 1) throw new BackupError('format', `this backup uses format version ${String(m.version)}, which this Clindoc cannot read`);
  const fileOk = (f: unknown): boolean => {
    const e = f as { path?: unknown; bytes?: unknown; sha256?: unknown };
    return typeof e?.path === 'string' && Number.isSafeInteger(e.bytes) && typeof e.sha256 === 'string' && /^[a-f0-9]{64}$/.test(e.sha256);
  };
  if (typeof m.keyId !== 'string' || !Number.isSafeInteger(m.schemaVersion) || !Array.isArray(m.files) || !m.files.every(fileOk) || typeof m.mac !== 'string') {
    throw new BackupError('format', 'this Clindoc backup has an incomplete manifest');
  }
  return m as BackupManifest;
}

/** SHA-256 (hex) and size of a file, streamed. */
export async function digestFile(path: string): Promise<{ sha256: string; bytes: number }> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { sha256: hash.digest('hex'), bytes };
}
