/**
 * An account's adapted acoustic model as one blob, and the private folder pocketsphinx loads it
 * from. Only the files adaptation changes are stored (means, variances, mixture weights,
 * transition matrices, about 10 MB); the rest (mdef, feat.params, noisedict) is Debian's model's.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The files adaptation writes, in the order they are packed. */
export const ADAPTED_FILES = ['means', 'variances', 'mixture_weights', 'transition_matrices'] as const;
/** The files of the base model an adapted folder shares unchanged (no `sendump`: pocketsphinx would prefer it to the adapted weights). */
const SHARED_FILES = ['mdef', 'feat.params', 'noisedict'] as const;
const MAGIC = Buffer.from('clindoc-adapted-hmm 1\n', 'latin1');

export function packModel(files: Record<string, Buffer>): Buffer {
  const parts = ADAPTED_FILES.map((name) => {
    const data = files[name];
    if (!data) throw new Error(`adapted model: ${name} is missing`);
    return data;
  });
  const sizes = Buffer.alloc(4 * parts.length);
  parts.forEach((p, i) => sizes.writeUInt32LE(p.length, 4 * i));
  return Buffer.concat([MAGIC, sizes, ...parts]);
}

export function unpackModel(blob: Buffer): Record<string, Buffer> {
  if (!blob.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error('adapted model: not a packed model');
  const files: Record<string, Buffer> = {};
  let offset = MAGIC.length + 4 * ADAPTED_FILES.length;
  ADAPTED_FILES.forEach((name, i) => {
    const size = blob.readUInt32LE(MAGIC.length + 4 * i);
    if (offset + size > blob.length) throw new Error('adapted model: truncated');
    files[name] = blob.subarray(offset, offset + size);
    offset += size;
  });
  return files;
}

/**
 * A private folder (mode 0700, RAM-backed /dev/shm where there is one) named `clindoc-<pid>-…` like
 * the blob store's plaintext copies, so a process killed while one exists has it swept at the next
 * start (sweepPlaintextCopies).
 */
export function privateFolder(): string {
  const base = existsSync('/dev/shm') && statSync('/dev/shm').isDirectory() ? '/dev/shm' : tmpdir();
  try {
    return mkdtempSync(join(base, `clindoc-${process.pid}-`));
  } catch {
    return mkdtempSync(join(tmpdir(), `clindoc-${process.pid}-`));
  }
}

/** Writes a packed model beside the base model's shared files into a new private folder; `remove` deletes it. */
export function materializeModel(blob: Buffer, baseHmmDir: string): { dir: string; remove(): void } {
  const files = unpackModel(blob);
  const dir = privateFolder();
  try {
    for (const name of SHARED_FILES) {
      if (existsSync(join(baseHmmDir, name))) copyFileSync(join(baseHmmDir, name), join(dir, name));
    }
    for (const [name, data] of Object.entries(files)) writeFileSync(join(dir, name), data, { mode: 0o600 });
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
