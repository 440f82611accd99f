import { execFileSync } from 'node:child_process';
import { closeSync, fstatSync, ftruncateSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small real file system (tmpfs) that tests can fill to the last byte. */
export interface TinyDisk {
  dir: string;
  unmount(): void;
}

/**
 * Mounts a `megabytes` tmpfs as root, or through passwordless sudo (CI runners). Undefined where
 * mounting is not permitted (a container without CAP_SYS_ADMIN, a developer's laptop): the tests
 * that need it skip and say why in their title.
 */
export function mountTinyDisk(megabytes: number): TinyDisk | undefined {
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-tinydisk-'));
  const uid = process.getuid?.() ?? 0;
  const gid = process.getgid?.() ?? 0;
  const options = `size=${megabytes}m,mode=0700,uid=${uid},gid=${gid}`;
  for (const runner of uid === 0 ? [[]] : [['sudo', '-n']]) {
    try {
      const [cmd, ...pre] = [...runner, 'mount'];
      execFileSync(cmd!, [...pre, '-t', 'tmpfs', '-o', options, 'tmpfs', dir], { stdio: 'ignore' });
      return {
        dir,
        unmount() {
          const [ucmd, ...upre] = [...runner, 'umount'];
          execFileSync(ucmd!, [...upre, dir], { stdio: 'ignore' });
          rmSync(dir, { recursive: true, force: true });
        },
      };
    } catch {
      // not allowed here
    }
  }
  rmSync(dir, { recursive: true, force: true });
  return undefined;
}

/**
 * Whether a tmpfs can be mounted here (tried once, and unmounted at once). Tests decide to skip
 * with this when they are collected and mount their disk in `beforeAll`, so a test file filtered
 * out or cut short leaves no mount behind.
 */
export function canMount(): boolean {
  const probe = mountTinyDisk(1);
  probe?.unmount();
  return probe !== undefined;
}

/**
 * Fills the file system holding `dir` to the last byte, or leaves `spareBytes` free, with a file
 * named `name` (a second filler needs a second name); returns its path.
 */
export function fill(dir: string, spareBytes = 0, name = 'filler'): string {
  const path = join(dir, name);
  const fd = openSync(path, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
    // A last, smaller write takes what a whole chunk could not.
    try {
      for (;;) writeSync(fd, Buffer.alloc(512, 1));
    } catch {
      // full
    }
  } finally {
    closeSync(fd);
  }
  if (spareBytes > 0) {
    const fd2 = openSync(path, 'r+');
    try {
      ftruncateSync(fd2, Math.max(0, fstatSync(fd2).size - spareBytes));
    } finally {
      closeSync(fd2);
    }
  }
  return path;
}
