/**
 * End to end in Debian's Chromium against the real local API, with a fake microphone playing a
 * real speech recording (espeak-ng): dictate, see final text, see a macro expand and undo it,
 * generate a note from a transcript, export markdown and FHIR. Screenshots go to test-results/e2e.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { ensureRendererBuild } from './harness.js';
import { hasCommand as has } from '../../scripts/system-tools.js';

const CHROMIUM = '/usr/bin/chromium';
const ROOT = resolve(import.meta.dirname, '..', '..');
const RENDERER = join(ROOT, 'dist', 'renderer');
const OUT = join(ROOT, 'test-results', 'e2e');
const missing = [!existsSync(CHROMIUM) && CHROMIUM, !has('espeak-ng') && 'espeak-ng', !has('ffmpeg') && 'ffmpeg'].filter(Boolean);
if (missing.length) console.warn(`[e2e] skipped: ${missing.join(', ')} not installed`);

const TRANSCRIPT = `Doctor: Good morning, what brings you in?
Patient: I have had a sore throat and fever for three days, and it hurts to swallow.
Doctor: Any cough or trouble breathing? Patient: A mild dry cough, no trouble breathing.
Doctor: Temperature is 38.4. The throat is red with swollen tonsils, lungs are clear.
Doctor: This looks like viral pharyngitis. Take paracetamol 1 g up to four times a day, drink fluids, and come back if it is not better in a week.`;

describe.skipIf(missing.length > 0)('Clindoc in a browser', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let work: string;

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    ensureRendererBuild(); // rebuilt when any renderer source is newer than the build
    work = mkdtempSync(join(tmpdir(), 'clindoc-e2e-'));
    // Real speech: a synthetic voice saying short clinical phrases, padded with silence so
    // endpointing closes each utterance; Chromium loops the file as the microphone.
    execFileSync('espeak-ng', ['-v', 'en-us+m3', '-s', '140', '-w', join(work, 'speech.wav'),
      'Follow up in two weeks. Normal physical exam. The patient has no chest pain. Follow up in two weeks. Normal physical exam.']);
    execFileSync('ffmpeg', ['-y', '-loglevel', 'error', '-i', join(work, 'speech.wav'), '-af', 'apad=pad_dur=1.5', '-ar', '48000', '-ac', '1', join(work, 'mic.wav')]);
    server = await startServer({ CLINDOC_RENDERER_DIR: RENDERER });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream',
        `--use-file-for-fake-audio-capture=${join(work, 'mic.wav')}`, '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
    await context.grantPermissions(['microphone', 'clipboard-read', 'clipboard-write'], { origin: server.base });
    // A bound for waiting on the page, not a time the page must meet: two suites on two cores answer slowly.
    context.setDefaultTimeout(90_000);
    page = await context.newPage();
    await page.goto(server.clindoc.signInLink());
    await page.getByText('Local API connected').waitFor({ timeout: 90_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('keeps the credentials out of the address bar', () => {
    expect(page.url()).not.toContain('token=');
    expect(page.url()).not.toContain(server.creds.apiKey);
  });

  it('saves a macro in the library', async () => {
    await page.getByRole('button', { name: 'Macros', exact: true }).click();
    await page.getByLabel('Macro id').fill('exam');
    await page.getByLabel('Spoken forms (one per line)').fill('physical exam');
    await page.getByLabel('Expansion text').fill('Physical exam: alert and oriented, heart regular, lungs clear.');
    await page.getByRole('button', { name: 'Add macro' }).click();
    await expectVisible(page.getByRole('cell', { name: 'Physical exam: alert and oriented, heart regular, lungs clear.' }));
    await page.screenshot({ path: join(OUT, '1-macros.png'), fullPage: true });
  }, 30_000);

  it('dictates from the microphone: final words appear, a macro expands and can be undone', async () => {
    await page.getByRole('button', { name: 'Dictation', exact: true }).click();
    await page.getByRole('button', { name: 'Start dictation' }).click();
    await page.getByText('Listening', { exact: false }).first().waitFor({ timeout: 90_000 });
    const finals = page.getByTestId('final-text');
    await finals.filter({ hasText: /weeks/i }).waitFor({ timeout: 90_000 });
    const mark = page.locator('mark.macro[data-macro-id="exam"]').first();
    await mark.waitFor({ timeout: 60_000 });
    expect(await mark.textContent()).toContain('lungs clear');
    await page.screenshot({ path: join(OUT, '2-dictation.png'), fullPage: true });
    await page.getByRole('button', { name: 'Undo expansion of macro exam' }).first().click();
    expect((await page.locator('mark.macro.undone').first().textContent())?.toLowerCase()).toContain('physical exam');
    await page.getByRole('button', { name: 'Stop dictation' }).click();
    await page.getByRole('button', { name: 'Start dictation' }).waitFor({ timeout: 90_000 });
    expect((await finals.textContent())?.toLowerCase()).toContain('weeks');
    await page.screenshot({ path: join(OUT, '3-dictation-stopped.png'), fullPage: true });
  }, 150_000);

  it('generates a note from a transcript and exports markdown and FHIR', async () => {
    await page.getByRole('button', { name: 'Note', exact: true }).click();
    await page.getByLabel('Transcript').fill(TRANSCRIPT);
    await page.getByLabel('Patient name').fill('Alex Example');
    await page.getByLabel('Encounter date').fill('2026-11-20');
    await page.getByRole('button', { name: 'Generate note' }).click();
    const note = page.getByRole('article', { name: 'Generated note' });
    await note.waitFor({ timeout: 60_000 });
    expect((await note.textContent())?.toLowerCase()).toContain('throat');
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(OUT, '4-note.png'), fullPage: true });

    const [md] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export Markdown' }).click()]);
    await md.saveAs(join(OUT, 'note.md'));
    expect(readFileSync(join(OUT, 'note.md'), 'utf8').toLowerCase()).toContain('throat');

    const [fhir] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export FHIR DocumentReference' }).click()]);
    await fhir.saveAs(join(OUT, 'note.fhir.json'));
    const doc = JSON.parse(readFileSync(join(OUT, 'note.fhir.json'), 'utf8')) as { resourceType: string; subject?: { display?: string }; content: { attachment: { data: string } }[] };
    expect(doc.resourceType).toBe('DocumentReference');
    expect(doc.subject?.display).toBe('Alex Example');
    // The Markdown file is the FHIR document's text inside its attestation (patient, status, codes).
    const exported = readFileSync(join(OUT, 'note.md'), 'utf8');
    expect(exported).toContain(Buffer.from(doc.content[0]!.attachment.data, 'base64').toString('utf8').trim());
    expect(exported).toContain('**Patient:** Alex Example\n');
    expect(exported).toContain('**PRELIMINARY: not signed.**');
  }, 120_000);
});

async function expectVisible(locator: ReturnType<Page['getByRole']>): Promise<void> {
  await locator.waitFor({ state: 'visible', timeout: 90_000 });
}
