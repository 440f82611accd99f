import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { createFileBlobStore } from '../../main/store/blob-store.js';
import { openKeyRing } from '../../main/store/crypto/key-ring.js';

const base = existsSync('/dev/shm') && statSync('/dev/shm').isDirectory() ? '/dev/shm' : tmpdir();

describe('decrypted audio copies of a killed process', () => {
  const made: string[] = [];
  afterEach(() => {
    for (const path of made.splice(0)) rmSync(path, { recursive: true, force: true });
  });

  it('are removed when a blob store opens, while those of live processes stay', () => {
    // A process that has exited: its pid names nobody now (reuse within this test is not a concern).
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    const deadPid = Number(dead.stdout);
    expect(deadPid).toBeGreaterThan(0);
    const left = join(base, `clindoc-${deadPid}-${randomBytes(3).toString('hex')}`);
    const live = join(base, `clindoc-${process.ppid}-${randomBytes(3).toString('hex')}`);
    const other = join(base, `clindoc-notours-${randomBytes(3).toString('hex')}`);
    for (const dir of [left, live, other]) {
      mkdirSync(dir);
      writeFileSync(join(dir, 'audio'), 'decrypted audio stands in here');
      made.push(dir);
    }

    const data = mkdtempSync(join(tmpdir(), 'clindoc-sweep-'));
    made.push(data);
    createFileBlobStore(join(data, 'blobs'), openKeyRing(join(data, 'keyring.json'), randomBytes(32)));

    expect(existsSync(left)).toBe(false);
    expect(existsSync(live)).toBe(true);
    expect(existsSync(other)).toBe(true);
  });
});
