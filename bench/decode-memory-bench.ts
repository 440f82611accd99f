/**
 * Memory of one long decode (issue 29): a 5-hour stereo FLAC against the default 4-hour limit.
 * Prints whether it was refused, the process's peak RSS during the decode and its RSS once the
 * garbage collector has run a few times. Run by hand: `node --expose-gc --import tsx bench/decode-memory-bench.ts`.
 * Prints figures only; it never fails on them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFfmpegDecoder } from '../main/engines/audio/ffmpeg-decoder.js';

const mb = (bytes: number): number => Math.round(bytes / 1e6);
const dir = mkdtempSync(join(tmpdir(), 'clindoc-decode-bench-'));
try {
  const file = join(dir, 'five-hours.flac');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=frequency=440:sample_rate=8000:duration=18000', '-ac', '2', file]);
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) console.warn('run with node --expose-gc for the after-GC figure');
  const before = process.memoryUsage().rss;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
  const outcome = await createFfmpegDecoder().decodeFile(file).then((d) => `decoded ${Math.round(d.durationSec)} s`, (err: Error) => `refused: ${err.message}`);
  clearInterval(sampler);
  // Backing stores of large arrays are freed by a sweeper after the collection that found them dead.
  for (let i = 0; i < 6; i++) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    gc?.();
  }
  console.log(JSON.stringify({ outcome, rssBeforeMB: mb(before), peakRssMB: mb(peak), rssAfterGcMB: mb(process.memoryUsage().rss) }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
