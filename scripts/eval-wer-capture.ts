/**
 * `npm run eval:wer -- --capture`: what the browser's microphone processing does to recognition.
 * Each real-speech clip is played through Chromium's fake microphone
 * (`--use-file-for-fake-audio-capture`) and captured by the app's own capture code
 * (renderer/audio/capture.ts: AudioWorklet, shared resampler to 16 kHz), once with echo
 * cancellation, noise suppression and automatic gain on and once with them off; the captured
 * audio goes to the recogniser as live dictation sends it, and WER is printed for both, beside
 * the microphone files themselves read without a browser (same silence around the speech, so
 * the difference is the browser's). The level of each variant is printed too, which shows
 * whether the browser's processing ran. Skips with a message where Chromium or ffmpeg is missing.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { hasCommand as has } from './system-tools.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '..');

export interface CaptureClip { id: string; pcm: Int16Array; reference: string }

/** Turns 16 kHz audio into text and scores it (eval-wer's streaming evaluation). */
export type Scorer = (label: string, clips: CaptureClip[]) => Promise<string>;


/** The page script: the app's capture code, run for a given time, its 16 kHz output returned as 16-bit PCM in base64. */
async function pageScript(): Promise<string> {
  const out = await build({
    stdin: {
      contents: `
        import { startCapture } from ${JSON.stringify(join(ROOT, 'renderer', 'audio', 'capture.ts'))};
        import { toLinear16, bytesToBase64 } from ${JSON.stringify(join(ROOT, 'renderer', 'audio', 'pcm.ts'))};
        window.runCapture = async (ms, processing) => {
          const parts = [];
          const capture = await startCapture({ processing, onAudio: (s) => parts.push(s), onLevel: () => undefined });
          await new Promise((r) => setTimeout(r, ms));
          await capture.stop();
          const all = new Float32Array(parts.reduce((n, p) => n + p.length, 0));
          let at = 0;
          for (const p of parts) { all.set(p, at); at += p.length; }
          return bytesToBase64(toLinear16(all));
        };`,
      resolveDir: ROOT,
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
  });
  return out.outputFiles[0]!.text;
}

/** Serves the capture page and the worklet on loopback (getUserMedia needs a secure origin; localhost is one). */
async function serve(script: string): Promise<{ server: Server; url: string }> {
  const worklet = readFileSync(join(ROOT, 'renderer', 'public', 'audio', 'pcm-capture-worklet.js'));
  const server = createServer((req, res) => {
    if (req.url === '/capture.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    if (req.url === '/audio/pcm-capture-worklet.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(worklet);
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><meta charset="utf-8"><script type="module" src="/capture.js"></script>');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  return { server, url: `http://localhost:${port}/` };
}

/** A 48 kHz WAV of the clip with silence around it, as a microphone would deliver it. */
function micFile(dir: string, clip: CaptureClip): { path: string; seconds: number } {
  const raw = join(dir, 'clip.raw');
  writeFileSync(raw, Buffer.from(clip.pcm.buffer, clip.pcm.byteOffset, clip.pcm.byteLength));
  const path = join(dir, 'clip.wav');
  execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-f', 's16le', '-ar', '16000', '-ac', '1', '-i', raw,
    '-af', 'adelay=500,apad=pad_dur=1', '-ar', '48000', '-ac', '1', path]);
  return { path, seconds: clip.pcm.length / 16_000 + 1.5 };
}

/** RMS level of all clips together, in dBFS. */
function level(clips: CaptureClip[]): string {
  let sum = 0;
  let n = 0;
  for (const c of clips) for (const v of c.pcm) { sum += (v / 32768) ** 2; n++; }
  return n ? (10 * Math.log10(sum / n + 1e-12)).toFixed(1) : 'n/a';
}

/**
 * Plays every clip through the fake microphone with processing on and off and prints a table row
 * per variant (`score` formats it as eval-wer's table does).
 */
export async function captureComparison(clips: CaptureClip[], score: Scorer): Promise<void> {
  const missing = [!existsSync(CHROMIUM) && CHROMIUM, !has('ffmpeg') && 'ffmpeg'].filter(Boolean);
  if (missing.length) {
    console.log(`capture set skipped: ${missing.join(', ')} not installed (needs Debian's chromium and ffmpeg)`);
    return;
  }
  if (clips.length === 0) {
    console.log('capture set skipped: no real-speech clips found');
    return;
  }
  const { server, url } = await serve(await pageScript());
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-capture-'));
  const captured: Record<'file' | 'on' | 'off', CaptureClip[]> = { file: [], on: [], off: [] };
  try {
    for (const clip of clips) {
      const mic = micFile(dir, clip);
      const direct = execFileSync('ffmpeg', ['-loglevel', 'error', '-i', mic.path, '-ar', '16000', '-ac', '1', '-f', 's16le', '-'], { maxBuffer: 1 << 28 });
      captured.file.push({ id: clip.id, reference: clip.reference, pcm: new Int16Array(direct.buffer, direct.byteOffset, direct.length / 2) });
      // The fake microphone's file is a launch argument, so one browser per clip; %noloop plays it once.
      const browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
          `--use-file-for-fake-audio-capture=${mic.path}%noloop`, '--autoplay-policy=no-user-gesture-required'],
      });
      try {
        const context = await browser.newContext();
        await context.grantPermissions(['microphone'], { origin: new URL(url).origin });
        for (const mode of ['off', 'on'] as const) {
          // A fresh page opens the fake device again, so the file plays from its start.
          const page = await context.newPage();
          await page.goto(url);
          await page.waitForFunction(() => 'runCapture' in window);
          const b64 = await page.evaluate(([ms, processing]) => (window as unknown as { runCapture(ms: number, p: boolean): Promise<string> }).runCapture(ms, processing), [mic.seconds * 1000, mode === 'on'] as [number, boolean]);
          const bytes = Buffer.from(b64, 'base64');
          captured[mode].push({ id: clip.id, reference: clip.reference, pcm: new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2) });
          await page.close();
        }
      } finally {
        await browser.close();
      }
    }
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`set capture: ${clips.length} real-speech clips through Chromium's fake microphone and the app's capture code`);
  console.log('| engine / set | clips | audio s | ref words | WER | RTF |');
  console.log('|---|---|---|---|---|---|');
  console.log(await score('microphone files read without a browser', captured.file));
  console.log(await score('captured, processing off (the default)', captured.off));
  console.log(await score('captured, echo cancellation + noise suppression + auto gain on', captured.on));
  console.log(`level (RMS dBFS): files ${level(captured.file)}, processing off ${level(captured.off)}, processing on ${level(captured.on)}`);
}
