/**
 * Desktop interface figures (prints, never fails on time):
 *  - local API ready time (composition + listen + first /healthz),
 *  - production bundle size of the initial load, gzipped (goal < 500 kB),
 *  - renderer first render in Chromium (navigation start to the first frame after React's render),
 *  - dictation latency in the browser: audio end of a word to its final text on screen, with
 *    a fake microphone playing espeak-ng speech (goal < 1 s with the embedded engine).
 * Run: npx tsx bench/renderer-bench.ts
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { startServer } from '../test/support/server.js';

const ROOT = resolve(import.meta.dirname, '..');
const RENDERER = join(ROOT, 'dist', 'renderer');
const CHROMIUM = '/usr/bin/chromium';
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  // Always a fresh production build: a dist/ left by someone else's build would measure the wrong bundle.
  execFileSync('npx', ['vite', 'build'], { cwd: ROOT, stdio: 'ignore' });

  const html = readFileSync(join(RENDERER, 'index.html'), 'utf8');
  const initial = [...html.matchAll(/(?:src|href)="\/([^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  let gz = 0;
  let raw = 0;
  for (const f of initial) {
    const bytes = readFileSync(join(RENDERER, f));
    raw += bytes.length;
    gz += gzipSync(bytes, { level: 9 }).length;
  }
  console.log(`bundle: initial load ${initial.length} files, ${(raw / 1024).toFixed(1)} kB raw, ${(gz / 1024).toFixed(1)} kB gzipped (goal < 500 kB)`);
  const lazy = execFileSync('ls', [join(RENDERER, 'assets')]).toString().split('\n').filter((f) => f && !initial.includes(`assets/${f}`));
  const lazyBytes = lazy.reduce((n, f) => n + statSync(join(RENDERER, 'assets', f)).size, 0);
  console.log(`bundle: loaded on demand (PDF export) ${lazy.length} files, ${(lazyBytes / 1024).toFixed(1)} kB raw`);

  const t0 = performance.now();
  const server = await startServer({ CLINDOC_RENDERER_DIR: RENDERER });
  await fetch(`${server.base}/healthz`);
  console.log(`local API ready: ${(performance.now() - t0).toFixed(0)} ms (composition, SQLite, listen, first request)`);

  if (!existsSync(CHROMIUM)) {
    console.log(`browser figures skipped: ${CHROMIUM} not installed`);
    await server.close();
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'clindoc-bench-'));
  execFileSync('espeak-ng', ['-v', 'en-us+m3', '-s', '140', '-w', join(work, 's.wav'), 'Follow up in two weeks. Normal physical exam. The patient has no chest pain.']);
  execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-i', join(work, 's.wav'), '-af', 'apad=pad_dur=1.5', '-ar', '48000', '-ac', '1', join(work, 'mic.wav')]);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', `--use-file-for-fake-audio-capture=${join(work, 'mic.wav')}`, '--no-first-run'],
  });
  try {
    const renders: number[] = [];
    for (let i = 0; i < 5; i++) {
      const page = await browser.newPage();
      await page.goto(`${server.base}/`);
      const t = await page.waitForFunction(() => performance.getEntriesByName('clindoc:first-render')[0]?.startTime);
      renders.push(Number(await t.jsonValue()));
      await page.close();
    }
    console.log(`first render in Chromium: median ${median(renders).toFixed(0)} ms over ${renders.length} loads (min ${Math.min(...renders).toFixed(0)}, max ${Math.max(...renders).toFixed(0)})`);

    const page = await browser.newPage();
    await page.goto(`${server.base}/#account=${server.creds.accountId}&key=${server.creds.apiKey}`);
    await page.getByText('Local API connected').waitFor();
    await page.getByRole('button', { name: 'Start dictation' }).click();
    const latencies: number[] = [];
    let lastCount = 0;
    const deadline = Date.now() + 40_000;
    while (Date.now() < deadline && latencies.length < 8) {
      const { count, ms } = await page.evaluate(() => ({
        count: document.querySelectorAll('[data-testid="final-text"] .segment').length,
        ms: document.querySelector('[data-testid="final-latency"]')?.getAttribute('data-ms'),
      }));
      if (count > lastCount && ms) {
        latencies.push(Number(ms));
        lastCount = count;
      }
      await page.waitForTimeout(50);
    }
    await page.getByRole('button', { name: 'Stop dictation' }).click();
    console.log(`dictation latency (speech end -> final text on screen): median ${median(latencies)} ms over ${latencies.length} finals [${latencies.join(', ')}] (goal < 1000 ms)`);
  } finally {
    await browser.close();
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
