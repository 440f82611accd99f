/**
 * Shared pieces of the browser end-to-end tests: the tools they need, a fresh renderer build,
 * speech recordings for the fake microphone, and Chromium opened on the app against a real
 * local API.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page, type WebSocketRoute } from 'playwright-core';
import axe from 'axe-core';
import type { TestServer } from '../support/server.js';
import { hasCommand as has } from '../../scripts/system-tools.js';

export const CHROMIUM = '/usr/bin/chromium';
export const ROOT = resolve(import.meta.dirname, '..', '..');
export const RENDERER = join(ROOT, 'dist', 'renderer');
export const OUT = join(ROOT, 'test-results', 'e2e');


/** The tools a browser e2e needs that are not installed here (empty when it can run). */
export function missingTools(): string[] {
  const missing = [!existsSync(CHROMIUM) && CHROMIUM, !has('espeak-ng') && 'espeak-ng', !has('ffmpeg') && 'ffmpeg'].filter((x): x is string => Boolean(x));
  if (missing.length) console.warn(`[e2e] skipped: ${missing.join(', ')} not installed`);
  return missing;
}

/**
 * Builds dist/renderer when it is missing or older than any renderer or shared source, so the
 * browser never tests a stale interface. Test files run in parallel, so the check and the build
 * happen under one lock: the second file waits and then finds the build fresh.
 */
export function ensureRendererBuild(): void {
  const index = join(RENDERER, 'index.html');
  const script = `if [ ! -f "${index}" ] || [ -n "$(find renderer shared vite.config.ts -newer "${index}" -type f -print -quit)" ]; then npx vite build; fi`;
  execFileSync('flock', ['/tmp/clindoc-renderer-build.lock', 'sh', '-c', script], { cwd: ROOT, stdio: 'ignore' });
}

/** One speaker's line of a recording: what is said, and the espeak-ng voice that says it. */
export interface SpokenLine { text: string; voice?: string }

/**
 * Writes a 48 kHz mono WAV of real (synthetic) speech for Chromium's fake microphone: each line
 * spoken by its voice, a pause between lines, and `tailSeconds` of silence so endpointing closes
 * the last utterance before Chromium loops the file.
 */
export function speechRecording(dir: string, name: string, lines: SpokenLine[], tailSeconds = 1.5): string {
  mkdirSync(dir, { recursive: true });
  const parts = lines.map((line, i) => {
    const raw = join(dir, `${name}-${i}.wav`);
    execFileSync('espeak-ng', ['-v', line.voice ?? 'en-us+m3', '-s', '140', '-w', raw, line.text]);
    return raw;
  });
  const out = join(dir, `${name}.wav`);
  const inputs = parts.flatMap((p) => ['-i', p]);
  // Each part is resampled to one format and followed by 0.6 s of silence, then all are joined.
  const chains = parts.map((_, i) => `[${i}:a]aresample=48000,aformat=sample_fmts=s16:channel_layouts=mono,apad=pad_dur=0.6[p${i}]`);
  const filter = `${chains.join(';')};${parts.map((_, i) => `[p${i}]`).join('')}concat=n=${parts.length}:v=0:a=1,apad=pad_dur=${tailSeconds}[out]`;
  execFileSync('ffmpeg', ['-y', '-loglevel', 'error', ...inputs, '-filter_complex', filter, '-map', '[out]', '-ar', '48000', '-ac', '1', out]);
  return out;
}

/** Seconds of audio in a WAV file, as ffprobe reads it. */
export function durationOf(path: string): number {
  return Number(execFileSync('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', path]).toString().trim());
}

export interface OpenApp { browser: Browser; context: BrowserContext; page: Page }

/**
 * Launches Debian's Chromium with `micWav` as the microphone, grants the microphone and the
 * clipboard to the app's origin only, and opens the app through a one-click sign-in link.
 */
export async function openApp(server: TestServer, micWav: string): Promise<OpenApp> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
      `--use-file-for-fake-audio-capture=${micWav}`, '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  await context.grantPermissions(['microphone', 'clipboard-read', 'clipboard-write'], { origin: server.base });
  // A bound for waiting on the page, not a time the page must meet: two suites on two cores answer slowly.
  context.setDefaultTimeout(90_000);
  const page = await context.newPage();
  await page.goto(server.clindoc.signInLink());
  await page.getByText('Local API connected').waitFor({ timeout: 90_000 });
  return { browser, context, page };
}

/** Saves a full-page screenshot under test-results/e2e. */
export async function shot(page: Page, name: string): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  await page.screenshot({ path: join(OUT, name), fullPage: true });
}

/** A final as a recogniser would send it; `say(text)` sends one, its words at 0.95 unless `confidences` gives theirs. */
export type Say = (text: string, confidences?: readonly number[]) => Promise<void>;

/**
 * Puts the page's dictation socket behind a switch (Playwright's routeWebSocket): after `next()`,
 * the next socket the page opens is answered by a scripted recogniser whose `say(text)` sends a
 * final with word times; every other socket reaches the local API, messages forwarded both ways.
 */
export async function scriptableDictationSocket(page: Page): Promise<{ next(): Promise<Say> }> {
  let fake: ((ws: WebSocketRoute) => void) | undefined;
  await page.routeWebSocket(/\/v1\/audio\/transcriptions\/stream/, (ws) => {
    const take = fake;
    fake = undefined;
    if (take) take(ws);
    else ws.connectToServer();
  });
  return {
    next: () =>
      new Promise<Say>((resolve) => {
        fake = (ws) => {
          let at = 0;
          ws.onMessage((m) => {
            // The page may already be gone; a failed close is nothing to report.
            if (String(m).includes('CloseStream')) void ws.close({ code: 1000 }).catch(() => undefined);
          });
          ws.send(JSON.stringify({ type: 'status', status: 'connected', timestamp: new Date().toISOString() }));
          resolve(async (text, confidences) => {
            const words = text.split(' ').map((w, i) => ({ word: w.toLowerCase(), punctuated_word: w, start: at + i * 0.4, end: at + i * 0.4 + 0.3, confidence: confidences?.[i] ?? 0.95 }));
            const end = at + words.length * 0.4;
            ws.send(JSON.stringify({ type: 'transcript', audio_start: at, audio_end: end, duration: end - at, text, is_final: true, isFinal: true, words, timestamp: new Date().toISOString() }));
            at = end + 0.5;
          });
        };
      }),
  };
}

/** axe-core's serious and critical violations on the page as it stands, one line each (rule, element). */
export async function seriousAxeFindings(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) {
    // The app's Content-Security-Policy refuses inline scripts (rightly); the debugger protocol's evaluate is not a page script.
    const cdp = await page.context().newCDPSession(page);
    try {
      await cdp.send('Runtime.evaluate', { expression: axe.source });
    } finally {
      await cdp.detach();
    }
  }
  const violations = await page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => String(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.targets.map((t) => `${v.impact} ${v.id}: ${t}`));
}
