import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { ChildProcess } from 'node:child_process';
import { findRepositoryRoot, locateAppFiles, missingAppFiles } from '../../main/app-files.js';
import { loadConfig } from '../../main/config.js';
import { createClindoc } from '../../main/composition.js';
import { freePort, ROOT, startHeadless } from '../support/child.js';
import { waitFor } from '../support/server.js';
import { createFixtures, DIGIT_WORDS, DIGITS_TEXT, hits } from '../speech/fixtures.js';

const CLINICAL_DIR = join(ROOT, 'resources', 'asr');
const fixtures = createFixtures();
afterAll(() => fixtures.cleanup());
let digitsWav: Buffer | undefined;

/** Uploads speech, waits for the job, returns the finished record. */
async function transcribe(base: string, headers: Record<string, string>): Promise<{ status: string; text: string; error?: unknown }> {
  const res = await fetch(`${base}/v2/audio/transcriptions?diarization=false`, {
    method: 'POST', headers: { ...headers, 'content-type': 'audio/wav' }, body: new Uint8Array((digitsWav ??= readFileSync(fixtures.speak('digits', DIGITS_TEXT)))),
  });
  expect(res.status).toBe(202);
  const { id } = (await res.json()) as { id: string };
  return waitFor(async () => {
    const record = (await (await fetch(`${base}/v2/audio/transcriptions/${id}`, { headers })).json()) as { status: string; text: string };
    return record.status === 'completed' || record.status === 'failed' ? record : undefined;
  }, 60_000, 100);
}

/** Counting is what pocketsphinx hears reliably in espeak's voice (the speech tests use the same bar). */
const digitsHeard = (text: string): number => hits(text.toLowerCase().replace(/[^a-z\s]/g, ' '), DIGIT_WORDS).length;

describe('where the app finds its own files', () => {
  it('resolves the bundled resources from the repository, from source or a build, never the working directory', () => {
    const files = locateAppFiles();
    expect(files.layout).toBe('repository');
    expect(files.asrDir).toBe(CLINICAL_DIR);
    expect(files.promptsDir).toBe(join(ROOT, 'resources', 'prompts'));
    expect(files.codesDir).toBe(join(ROOT, 'resources', 'codes'));
    expect(files.rendererDir).toBe(join(ROOT, 'dist', 'renderer'));
    expect(existsSync(join(files.promptsDir, 'note.md'))).toBe(true);
    // The compiled module (dist/main/app-files.js) finds the same repository.
    expect(findRepositoryRoot(join(ROOT, 'dist', 'main'))).toBe(ROOT);
    expect(findRepositoryRoot(tmpdir())).toBeUndefined();

    const elsewhere = mkdtempSync(join(tmpdir(), 'clindoc-cwd-'));
    try {
      const config = loadConfig({ CLINDOC_DATA_DIR: join(elsewhere, 'data') }, elsewhere);
      expect(config.resources.asrDir).toBe(CLINICAL_DIR);
      expect(config.rendererDir).toBe(join(ROOT, 'dist', 'renderer'));
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it('in the packaged app, reads resources from Electron\'s resources path and the interface from the app archive', () => {
    const files = locateAppFiles({ resourcesPath: '/opt/Clindoc/resources', appPath: '/opt/Clindoc/resources/app.asar' });
    expect(files).toEqual({
      layout: 'packaged',
      asrDir: '/opt/Clindoc/resources/resources/asr',
      promptsDir: '/opt/Clindoc/resources/resources/prompts',
      codesDir: '/opt/Clindoc/resources/resources/codes',
      modelsDir: '/opt/Clindoc/resources/resources/models',
      rendererDir: '/opt/Clindoc/resources/app.asar/dist/renderer',
    });
  });

  it('packages every resource folder it resolves (electron-builder extraResources)', () => {
    const yml = readFileSync(join(ROOT, 'electron-builder.yml'), 'utf8');
    const listed = [...yml.matchAll(/^\s*-\s*from:\s*(\S+)\s*\n\s*to:\s*(\S+)/gm)].map((m) => [m[1], m[2]]);
    for (const folder of ['asr', 'prompts', 'codes', 'models']) expect(listed).toContainEqual([`resources/${folder}`, `resources/${folder}`]);
    // The interface bundle travels inside the app archive.
    expect(yml).toMatch(/^files:\s*\n\s*- dist\/\*\*/m);
  });

  it('names a missing interface bundle or prompt folder as warnings instead of failing', () => {
    const empty = mkdtempSync(join(tmpdir(), 'clindoc-empty-'));
    try {
      expect(missingAppFiles({ rendererDir: empty, promptsDir: empty }).map((m) => m.what)).toEqual(['prompt files', 'interface bundle']);
      expect(missingAppFiles({ rendererDir: empty }).map((m) => m.what)).toEqual(['interface bundle']);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('headless server started from another working directory', () => {
  const cwd = mkdtempSync(join(tmpdir(), 'clindoc-elsewhere-'));
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill('SIGKILL');
    rmSync(cwd, { recursive: true, force: true });
  });

  it('uses the clinical language model and transcribes', { timeout: 120_000 }, async () => {
    const port = await freePort();
    const dataDir = join(cwd, 'data');
    mkdirSync(dataDir);
    const started = await startHeadless({ CLINDOC_PORT: String(port), CLINDOC_DATA_DIR: dataDir }, { cwd });
    child = started.child;
    const creds = JSON.parse(readFileSync(join(dataDir, 'local-credentials.json'), 'utf8')) as { accountId: string; apiKey: string };
    const headers = { 'X-API-KEY': creds.apiKey, 'X-ACCOUNT-ID': creds.accountId };
    const base = `http://127.0.0.1:${port}`;

    const settings = (await (await fetch(`${base}/v1/settings/engines`, { headers })).json()) as { data: { clinicalLanguageModel: unknown } };
    expect(settings.data.clinicalLanguageModel).toEqual({ loaded: true, path: CLINICAL_DIR });

    const record = await transcribe(base, headers);
    expect(record.status).toBe('completed');
    expect(digitsHeard(record.text)).toBeGreaterThanOrEqual(3);

    // The interface comes from the repository too, not from the working directory.
    const page = await (await fetch(`${base}/`)).text();
    if (existsSync(join(ROOT, 'dist', 'renderer', 'index.html'))) expect(page).toBe(readFileSync(join(ROOT, 'dist', 'renderer', 'index.html'), 'utf8'));
    else expect(page).toContain('npm run build:renderer');
    expect(started.output()).not.toContain('clinical language model missing');
  });
});

describe('a missing clinical language model', () => {
  it('is a warning at start-up; transcription falls back to the general model and says so in the API', { timeout: 120_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clindoc-nolm-'));
    const emptyAsr = join(dir, 'no-asr');
    const logs: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const files = { ...locateAppFiles(), asrDir: emptyAsr };
    const clindoc = await createClindoc(loadConfig({ CLINDOC_PORT: '0', CLINDOC_DATA_DIR: join(dir, 'data'), CLINDOC_LOG_LEVEL: 'info' }, dir, files), { logDestination: sink });
    try {
      const port = await clindoc.listen();
      const base = `http://127.0.0.1:${port}`;
      const headers = { 'X-API-KEY': clindoc.localCredentials!.apiKey, 'X-ACCOUNT-ID': clindoc.localCredentials!.accountId };
      const warning = logs.map((l) => JSON.parse(l) as { level: number; msg: string; path?: string }).find((l) => l.msg.includes('clinical language model missing'));
      expect(warning).toMatchObject({ level: 40, path: emptyAsr });

      const settings = (await (await fetch(`${base}/v1/settings/engines`, { headers })).json()) as { data: { clinicalLanguageModel: unknown } };
      expect(settings.data.clinicalLanguageModel).toEqual({ loaded: false, path: emptyAsr, reason: 'missing' });

      const record = await transcribe(base, headers);
      expect(record.status).toBe('completed');
      expect(digitsHeard(record.text)).toBeGreaterThanOrEqual(3);
    } finally {
      await clindoc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('turned off by CLINDOC_ASR_MEDICAL=0 is reported as disabled, with no warning', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'clindoc-lmoff-'));
    const logs: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        logs.push(chunk.toString('utf8'));
        done();
      },
    });
    const clindoc = await createClindoc(loadConfig({ CLINDOC_PORT: '0', CLINDOC_DATA_DIR: join(dir, 'data'), CLINDOC_ASR_MEDICAL: '0' }, dir), { logDestination: sink });
    try {
      const port = await clindoc.listen();
      const headers = { 'X-API-KEY': clindoc.localCredentials!.apiKey, 'X-ACCOUNT-ID': clindoc.localCredentials!.accountId };
      const settings = (await (await fetch(`http://127.0.0.1:${port}/v1/settings/engines`, { headers })).json()) as { data: { clinicalLanguageModel: unknown } };
      expect(settings.data.clinicalLanguageModel).toEqual({ loaded: false, path: CLINICAL_DIR, reason: 'disabled' });
      expect(logs.join('')).not.toContain('clinical language model missing');
    } finally {
      await clindoc.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
