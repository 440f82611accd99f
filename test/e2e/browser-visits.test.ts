/**
 * End to end in Debian's Chromium against the real local API, as a physician goes through a
 * day: open the app from the one-click sign-in link (and, in a second window, by pasting the
 * printed lines), dictate and type a visit and find all of it again after a reload, sign the note
 * and export it as FHIR (final), see a negated macro stay as spoken, and find, reopen and delete
 * visits. One browser for the file. Screenshots go to test-artifacts/e2e.
 *
 * The macro test puts the dictation socket in front of the page (Playwright's routeWebSocket) and
 * sends the final a recogniser would send, because the embedded recogniser does not hear
 * espeak-ng's "not" reliably; the page's own dictation code and the real macro endpoint do the rest.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { ensureRendererBuild, missingTools, openApp, RENDERER, ROOT, scriptableDictationSocket, speechRecording } from './harness.js';

const missing = missingTools();
const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');

const TRANSCRIPT = `Doctor: What brings you in today?
Patient: A dry cough for three days and a sore throat.
Doctor: Lungs are clear. Plan: fluids and rest, come back if it gets worse.`;

describe.skipIf(missing.length > 0)('A physician\'s day in a browser: sign-in, visits, signing, safe macros', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let work: string;
  /** The page's dictation socket; after `next()` the next one talks to this test instead of the local API. */
  let socket: Awaited<ReturnType<typeof scriptableDictationSocket>>;

  const shot = async (p: Page, name: string): Promise<void> => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await p.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
  };
  const nav = (p: Page, name: string) => p.getByRole('button', { name, exact: true });
  const dictated = (p: Page) => p.getByLabel('Dictated text', { exact: true });
  const saved = (p: Page) => p.getByTestId('autosave').filter({ hasText: /^Saved$/ }).waitFor({ timeout: 90_000 });

  beforeAll(async () => {
    ensureRendererBuild();
    work = mkdtempSync(join(tmpdir(), 'clindoc-e2e-visits-'));
    const mic = speechRecording(work, 'mic', [{ text: 'Follow up in two weeks.' }]);
    server = await startServer({ CLINDOC_RENDERER_DIR: RENDERER });
    await fetch(`${server.base}/v1/macro-library`, {
      method: 'POST', headers: server.headers(),
      body: JSON.stringify({ id: 'cardiac', examples: ['normal cardiac exam'], expansion_text: 'HEART: regular rate and rhythm, no murmurs.' }),
    });
    ({ browser, page } = await openApp(server, mic));
    socket = await scriptableDictationSocket(page);
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('opens from the sign-in link on Dictation, with the token gone from the address bar', async () => {
    expect(page.url()).toBe(`${server.base}/`);
    expect(page.url()).not.toContain(server.creds.apiKey);
    await page.getByRole('heading', { name: 'Dictation', level: 2 }).waitFor();
    expect(await nav(page, 'Dictation').getAttribute('aria-current')).toBe('page');
    await shot(page, 'visits-1-sign-in-link.png');
  }, 30_000);

  it('connects a window from the pasted printed lines and opens on Dictation; integration details wait under Advanced', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.base });
    const other = await context.newPage();
    try {
      await other.goto(`${server.base}/`);
      await other.getByRole('form', { name: 'Connect to the local API' }).waitFor({ timeout: 90_000 });
      await other.evaluate((text) => navigator.clipboard.writeText(text), `X-ACCOUNT-ID: ${server.creds.accountId}\nX-API-KEY: ${server.creds.apiKey}\n`);
      await other.getByLabel('Account id').click();
      await other.keyboard.press('Control+V');
      expect(await other.getByLabel('Account id').inputValue()).toBe(server.creds.accountId);
      expect(await other.getByLabel('API key').inputValue()).toBe(server.creds.apiKey);
      await other.getByRole('button', { name: 'Connect' }).click();
      await other.getByText('Local API connected').waitFor({ timeout: 90_000 });
      await other.getByRole('heading', { name: 'Dictation', level: 2 }).waitFor();
      await shot(other, 'visits-2-pasted-lines.png');
      await nav(other, 'Settings').click();
      const advanced = other.getByText('Advanced: integrations (API address, key, webhooks)');
      await advanced.waitFor();
      expect(await other.getByText('API base URL').isVisible()).toBe(false);
      await advanced.click();
      await other.getByText('API base URL').waitFor();
    } finally {
      await context.close();
    }
  }, 60_000);

  it('finds the whole visit again after a reload: dictation, transcript, patient, the note and its edits', async () => {
    await nav(page, 'Dictation').click();
    await dictated(page).click();
    await page.keyboard.type('Cough for three days, worse at night.', { delay: 5 });
    await nav(page, 'Note').click();
    await page.getByLabel('Patient name').fill('Reload Patient');
    await page.getByLabel('Transcript', { exact: true }).fill(TRANSCRIPT);
    await page.getByRole('button', { name: 'Generate note' }).click();
    await page.getByRole('article', { name: 'Generated note' }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Edit note' }).click();
    const editor = page.getByRole('group', { name: 'Edit note' }).locator('textarea').last();
    await editor.press('Control+End');
    await editor.pressSequentially('\n\nEdited before the reload.', { delay: 5 });
    await saved(page);

    await page.reload();
    await page.getByText('Local API connected').waitFor({ timeout: 90_000 });
    await expect.poll(() => dictated(page).inputValue(), { timeout: 90_000 }).toBe('Cough for three days, worse at night.');
    await nav(page, 'Note').click();
    expect(await page.getByLabel('Patient name').inputValue()).toBe('Reload Patient');
    expect(await page.getByLabel('Transcript', { exact: true }).inputValue()).toBe(TRANSCRIPT);
    const note = page.getByRole('article', { name: 'Generated note' });
    await note.filter({ hasText: 'Edited before the reload.' }).waitFor({ timeout: 90_000 });
    await shot(page, 'visits-3-after-reload.png');

    // Typed a moment before closing: saved as the page goes (pagehide), not lost with it.
    await nav(page, 'Dictation').click();
    await dictated(page).click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' No fever.', { delay: 5 });
    await page.reload();
    await page.getByText('Local API connected').waitFor({ timeout: 90_000 });
    await expect.poll(() => dictated(page).inputValue(), { timeout: 90_000 }).toBe('Cough for three days, worse at night. No fever.');
  }, 150_000);

  it('signs the note, which becomes read-only, and exports it as FHIR with docStatus final', async () => {
    await nav(page, 'Note').click();
    await page.getByRole('article', { name: 'Generated note' }).waitFor({ timeout: 90_000 });
    await page.getByLabel('Sign as').fill('Dr. Dana Signer');
    await page.getByRole('button', { name: 'Sign note' }).click();
    // The sign panel's status line (the visit's list of notes names the signer too).
    await page.getByRole('status').filter({ hasText: 'by Dr. Dana Signer' }).waitFor({ timeout: 90_000 });
    expect(await page.getByRole('button', { name: 'Edit note' }).count()).toBe(0);
    await shot(page, 'visits-4-signed.png');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export FHIR DocumentReference' }).click()]);
    const file = join(work, 'signed.fhir.json');
    await download.saveAs(file);
    const doc = JSON.parse(readFileSync(file, 'utf8')) as { docStatus: string; authenticator?: { display?: string }; subject?: { display?: string }; content: { attachment: { data: string } }[] };
    expect(doc.docStatus).toBe('final');
    expect(doc.authenticator?.display).toBe('Dr. Dana Signer');
    expect(doc.subject?.display).toBe('Reload Patient');
    expect(Buffer.from(doc.content[0]!.attachment.data, 'base64').toString('utf8')).toContain('Edited before the reload.');

    await page.getByLabel('Addendum', { exact: true }).fill('Throat swab negative.');
    await page.getByRole('button', { name: 'Add addendum' }).click();
    await page.getByRole('status').filter({ hasText: 'Signed, amended' }).waitFor({ timeout: 90_000 });
    const [again] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export FHIR DocumentReference' }).click()]);
    await again.saveAs(file);
    expect((JSON.parse(readFileSync(file, 'utf8')) as { docStatus: string }).docStatus).toBe('amended');
  }, 60_000);

  it('leaves a macro said in a negation as spoken, and expands the same macro said plainly', async () => {
    await nav(page, 'Visits').click();
    await page.getByRole('button', { name: 'New visit' }).click();
    await page.getByRole('heading', { name: 'Dictation', level: 2 }).waitFor();
    await expect.poll(() => dictated(page).inputValue()).toBe('');
    const scripted = socket.next();
    await page.getByRole('button', { name: 'Start dictation' }).click();
    const say = await scripted;
    await say('This was not a normal cardiac exam.');
    const held = page.locator('mark.macro[data-macro-id="cardiac"][data-skipped="negated"]');
    await held.waitFor({ timeout: 90_000 });
    expect(await dictated(page).inputValue()).toBe('This was not a normal cardiac exam.');
    await page.getByRole('button', { name: 'Expand macro cardiac anyway (said in a negation)' }).waitFor();
    await say('Normal cardiac exam.');
    await page.locator('mark.macro[data-macro-id="cardiac"]:not(.undone)').waitFor({ timeout: 90_000 });
    expect(await dictated(page).inputValue()).toBe('This was not a normal cardiac exam. HEART: regular rate and rhythm, no murmurs.');
    await shot(page, 'visits-5-negated-macro.png');
    await page.getByRole('button', { name: 'Stop dictation' }).click();
    await page.getByRole('button', { name: 'Start dictation' }).waitFor({ timeout: 90_000 });
    await saved(page);
  }, 60_000);

  it('lists today\'s visits, finds one by the patient\'s name, reopens it and deletes another after confirming', async () => {
    await nav(page, 'Visits').click();
    await page.getByRole('heading', { name: 'Today', level: 3 }).waitFor({ timeout: 90_000 });
    const items = page.locator('li.visit');
    await expect.poll(() => items.count()).toBe(2);
    await page.getByLabel('Search visits').fill('reload patient');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => items.count()).toBe(1);
    await shot(page, 'visits-6-search.png');
    await page.getByRole('button', { name: 'Open the visit of Reload Patient' }).click();
    await expect.poll(() => dictated(page).inputValue(), { timeout: 90_000 }).toBe('Cough for three days, worse at night. No fever.');

    await nav(page, 'Visits').click();
    await page.getByRole('button', { name: 'Show all' }).click();
    await expect.poll(() => items.count()).toBe(2);
    await page.getByRole('button', { name: 'Delete the visit of No patient name' }).click();
    const confirm = page.getByRole('alertdialog');
    await confirm.waitFor();
    await shot(page, 'visits-7-delete-confirm.png');
    await confirm.getByRole('button', { name: 'Delete visit' }).click();
    await expect.poll(() => items.count()).toBe(1);
    const listed = (await (await fetch(`${server.base}/v1/visits`, { headers: server.headers() })).json()) as { data: { items: { patient: { name?: string } }[] } };
    expect(listed.data.items.map((v) => v.patient.name)).toEqual(['Reload Patient']);
  }, 60_000);

  it('asks before Clear throws the dictation away', async () => {
    await nav(page, 'Dictation').click();
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(await dictated(page).inputValue()).toBe('Cough for three days, worse at night. No fever.');
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    await page.getByRole('button', { name: 'Clear text' }).click();
    expect(await dictated(page).inputValue()).toBe('');
  }, 30_000);
});
