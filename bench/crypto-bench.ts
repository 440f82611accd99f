/**
 * What encryption at rest costs: column seal/open per value, and audio blob write + decrypt
 * throughput. Prints figures; never fails on time. Run: npx tsx bench/crypto-bench.ts
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { openKeyRing } from '../main/store/crypto/key-ring.js';
import { createFieldCipher } from '../main/store/crypto/field-cipher.js';
import { createFileBlobStore } from '../main/store/blob-store.js';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-crypto-bench-'));
  try {
    const ring = openKeyRing(join(dir, 'ring.json'), randomBytes(32));
    const cipher = createFieldCipher(ring);
    for (const size of [200, 4_000, 100_000]) {
      const text = 'x'.repeat(size);
      const n = size > 10_000 ? 500 : 5_000;
      let t = process.hrtime.bigint();
      const sealed: string[] = [];
      for (let i = 0; i < n; i++) sealed.push(cipher.seal(text, `notes.markdown:${i}`));
      const sealUs = Number(process.hrtime.bigint() - t) / 1e3 / n;
      t = process.hrtime.bigint();
      for (let i = 0; i < n; i++) cipher.open(sealed[i]!, `notes.markdown:${i}`);
      const openUs = Number(process.hrtime.bigint() - t) / 1e3 / n;
      const overhead = sealed[0]!.length - size;
      console.log(`column ${size} B: seal ${sealUs.toFixed(1)} us, open ${openUs.toFixed(1)} us, +${overhead} B stored (base64 of IV, tag and ciphertext, plus the key-id prefix)`);
    }
    const blobs = createFileBlobStore(join(dir, 'blobs'), ring);
    const audio = randomBytes(50 * 1024 * 1024);
    let t = process.hrtime.bigint();
    const { key } = await blobs.write(Readable.from([audio]), 200 * 1024 * 1024);
    const writeS = Number(process.hrtime.bigint() - t) / 1e9;
    t = process.hrtime.bigint();
    await blobs.withPlaintext(key, async (path) => readFileSync(path).length);
    const readS = Number(process.hrtime.bigint() - t) / 1e9;
    console.log(`audio 50 MiB: encrypted write ${(50 / writeS).toFixed(0)} MiB/s, decrypt to private copy ${(50 / readS).toFixed(0)} MiB/s`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();
