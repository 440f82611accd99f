// A second process on the shared folder, started by shared-blob-store.test.ts:
//   <master key hex> write <dir> <tag> <count>   writes <count> blobs and prints {key: sha256} as JSON
//   <master key hex> read <dir> <key>...         prints {key: sha256} of the plaintext of each blob
//   <master key hex> hang <dir>                  starts a write that never ends and prints "writing" once bytes are on disk
// The key ring is the folder's keyring.json, opened with the test's throwaway master key.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { openKeyRing } from '../../main/store/crypto/key-ring.js';
import { SHARED_LAYOUT, createSharedBlobStore } from '../../main/store/shared-blob-store.js';

const [masterHex, mode, dir, ...rest] = process.argv.slice(2);
const ring = openKeyRing(join(dir!, SHARED_LAYOUT.keyRing), Buffer.from(masterHex!, 'hex'));
const blobs = createSharedBlobStore(dir!, ring);
const sha = (b: Buffer): string => createHash('sha256').update(b).digest('hex');

function recording(tag: string, i: number): Buffer {
  // Distinct, a few hundred KB, several stream chunks.
  return Buffer.concat(Array.from({ length: 40 }, (_, n) => Buffer.alloc(8192, `${tag}:${i}:${n};`)));
}

if (mode === 'write') {
  const out: Record<string, string> = {};
  const [tag, count] = rest;
  await Promise.all(Array.from({ length: Number(count) }, async (_, i) => {
    const data = recording(tag!, i);
    const { key } = await blobs.write(Readable.from([data.subarray(0, 100_000), data.subarray(100_000)]), 10_000_000);
    out[key] = sha(data);
  }));
  process.stdout.write(JSON.stringify(out));
} else if (mode === 'read') {
  const out: Record<string, string> = {};
  for (const key of rest) out[key] = await blobs.withPlaintext(key, async (path) => sha(readFileSync(path)));
  process.stdout.write(JSON.stringify(out));
} else if (mode === 'hang') {
  const temp = join(dir!, SHARED_LAYOUT.temp);
  const forever = async function* (): AsyncGenerator<Buffer> {
    yield Buffer.alloc(65536, 1);
    for (;;) {
      const part = readdirSync(temp).find((n) => n.endsWith('.part'));
      if (part && statSync(join(temp, part)).size > 0) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    process.stdout.write('writing\n');
    // Held open until the test kills this process; the timer keeps the event loop alive.
    setInterval(() => undefined, 60_000);
    await new Promise(() => undefined);
  };
  await blobs.write(Readable.from(forever()), 10_000_000);
}
