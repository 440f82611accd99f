/**
 * Issue 27 points 2, 7 and 8 in Debian's Chromium at 1366x768, against the real local API, as a
 * physician's first run goes: the one-time link, a new visit that asks for the patient first, the
 * header on every page of the visit, the Visits list with date of birth and the note's state and a
 * search by date of birth; a new tab (the browser reopened) still signed in, Sign out and the key
 * form; Settings > Data with the automatic backup and "Back up now", Settings > Coding saying the
 * code set is out of date; the header red within seconds when the local API stops, and green with
 * the banner gone when it is back. Screenshots go to test-artifacts/e2e/first-run-*.png.
 */
import { createServer } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { ensureRendererBuild, missingTools, openApp, RENDERER, ROOT, speechRecording } from './harness.js';

const missing = missingTools();
const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');
const TRANSCRIPT = `Doctor: What brings you in today?
Patient: My left knee hurts when I climb stairs, for two months now.
Doctor: Mild swelling, no redness. Plan: physiotherapy and ibuprofen as needed, come back in six weeks.`;

const freePort = (): Promise<number> => new Promise((resolve, reject) => {
  const probe = createServer().listen(0, '127.0.0.1', () => {
    const { port } = probe.address() as { port: number };
    probe.close(() => resolve(port));
  }).on('error', reject);
});

describe.skipIf(missing.length > 0)('first run in a browser: patient first, stays signed in, backups and connection in sight', () => {
  let server: TestServer;
  let env: Record<string, string>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let work: string;
  let backups: string;

  const shot = async (p: Page, name: string): Promise<void> => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await p.screenshot({ path: join(ARTIFACTS, name) });
  };
  const nav = (p: Page, name: string) => p.getByRole('button', { name, exact: true });

  beforeAll(async () => {
    ensureRendererBuild();
    work = mkdtempSync(join(tmpdir(), 'clindoc-e2e-first-run-'));
    backups = join(work, 'backups');
    const mic = speechRecording(work, 'mic', [{ text: 'Knee pain for two months.' }]);
    env = { CLINDOC_RENDERER_DIR: RENDERER, CLINDOC_DATA_DIR: join(work, 'data'), CLINDOC_PORT: String(await freePort()), CLINDOC_BACKUP_DIR: backups };
    server = await startServer(env);
    ({ browser, context, page } = await openApp(server, mic));
    await page.setViewportSize({ width: 1366, height: 768 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('asks a new visit for the patient, keeps them in the header, and lists the visit with date of birth and note state', async () => {
    const form = page.getByRole('form', { name: 'New visit: who is the patient?' });
    await form.waitFor({ timeout: 90_000 });
    await shot(page, 'first-run-1-new-visit.png');
    await form.getByLabel('Patient name').fill('Ingrid Larsen');
    await form.getByLabel('Date of birth').fill('1958-07-21');
    await form.getByLabel('Encounter date').fill('2026-11-27');
    await form.getByRole('button', { name: 'Start visit' }).click();
    const header = page.getByRole('group', { name: 'Patient of this visit' });
    await expect.poll(() => header.textContent()).toMatch(/^Ingrid Larsenborn .*1958 \(68\)visit of .*2026Edit patient$/);
    await page.getByRole('button', { name: 'Start dictation' }).waitFor();
    await shot(page, 'first-run-2-visit-header.png');

    await nav(page, 'Note').click();
    expect(await header.getByTestId('visit-patient').textContent()).toBe('Ingrid Larsen');
    expect(await page.getByLabel('Patient name').inputValue()).toBe('Ingrid Larsen');
    await page.getByLabel('Transcript', { exact: true }).fill(TRANSCRIPT);
    await page.getByRole('button', { name: 'Generate note' }).click();
    await page.getByRole('article', { name: 'Generated note' }).waitFor({ timeout: 90_000 });
    await page.getByTestId('autosave').filter({ hasText: /^Saved$/ }).waitFor({ timeout: 90_000 });

    await nav(page, 'Visits').click();
    const row = page.locator('li.visit').filter({ hasText: 'Ingrid Larsen' });
    await row.waitFor({ timeout: 90_000 });
    expect(await row.getByTestId('visit-born').textContent()).toMatch(/^born .*1958$/);
    await expect.poll(() => row.getByTestId('visit-note-state').textContent()).toMatch(/^Draft note today \d/);
    expect(await row.textContent()).toMatch(/Visit of .*2026/);

    const search = page.getByRole('search');
    await search.getByLabel('Date of birth').fill('1958-07-21');
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    await expect.poll(() => page.locator('li.visit').count()).toBe(1);
    await shot(page, 'first-run-3-visits.png');
    await search.getByLabel('Date of birth').fill('1958-07-22');
    await search.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByText('No visit matches.').waitFor();
    await search.getByRole('button', { name: 'Show all' }).click();
    await row.waitFor();
  }, 150_000);

  it('stays signed in when the browser opens again, keeps the key to its own origin, and signs out plainly', async () => {
    // A new tab without the link: sessionStorage is empty there, as after the browser was closed.
    const reopened = await context.newPage();
    await reopened.setViewportSize({ width: 1366, height: 768 });
    await reopened.goto(server.base);
    await reopened.getByText('Local API connected').waitFor({ timeout: 90_000 });
    expect(await reopened.getByLabel('Account id').count()).toBe(0);
    // The same server under another origin (localhost, not 127.0.0.1) cannot read the sign-in.
    const foreign = await context.newPage();
    await foreign.goto(`http://localhost:${server.port}/healthz`);
    expect(await foreign.evaluate(() => localStorage.getItem('clindoc.credentials'))).toBeNull();
    await foreign.close();

    await nav(reopened, 'Settings').click();
    await reopened.getByTestId('signed-in').filter({ hasText: 'stays signed in on this computer until you sign out' }).waitFor();
    await reopened.getByRole('main').getByRole('button', { name: 'Sign out' }).click();
    await reopened.getByLabel('Account id').waitFor();
    expect(await reopened.getByRole('checkbox', { name: 'Remember on this computer' }).isChecked()).toBe(true);
    await reopened.getByText('You signed out.', { exact: false }).first().waitFor();
    await shot(reopened, 'first-run-4-signed-out.png');
    // Sign out closed the open visit for this computer, so the next person does not find it.
    expect(await reopened.evaluate(() => localStorage.getItem('clindoc.visit'))).toBeNull();
    // Signed out for the whole computer: the first tab finds no sign-in on its next start either.
    expect(await reopened.evaluate(() => localStorage.getItem('clindoc.credentials'))).toBeNull();
    await reopened.getByLabel('Account id').fill(server.creds.accountId);
    await reopened.getByLabel('API key').fill(server.creds.apiKey);
    await reopened.getByRole('button', { name: 'Connect' }).click();
    await reopened.getByText('Local API connected').waitFor({ timeout: 90_000 });
    await reopened.close();
  }, 60_000);

  it('shows the backups with Back up now, and says the code set is out of date and how to update it', async () => {
    await page.reload();
    await page.getByText('Local API connected').waitFor({ timeout: 90_000 });
    await nav(page, 'Settings').click();
    await expect.poll(() => page.getByTestId('last-backup').textContent(), { timeout: 90_000 }).toMatch(/\d{4}.*, \d/);
    expect(await page.getByTestId('backup-where').textContent()).toContain(backups);
    await page.getByRole('button', { name: 'Back up now' }).click();
    await page.getByText(/^Backed up at /).waitFor({ timeout: 90_000 });
    expect(readdirSync(backups).filter((f) => f.endsWith('.tar')).length).toBeGreaterThanOrEqual(2);
    await page.getByText('How to restore a backup').click();
    await page.getByRole('heading', { name: 'Backups' }).scrollIntoViewIfNeeded();
    await shot(page, 'first-run-5-backups.png');

    const outdated = page.getByTestId('edition-outdated');
    await outdated.waitFor({ timeout: 90_000 });
    expect(await outdated.textContent()).toMatch(/A newer ICD-10-CM edition exists\. FY2021 was replaced on .*2021; FY20\d\d is in force now/);
    await outdated.scrollIntoViewIfNeeded();
    await shot(page, 'first-run-6-coding.png');
  }, 60_000);

  it('turns the header red within seconds when the local API stops, and clears it when the API is back', async () => {
    // Signing out (in the other tab) closed the open visit on this computer: open it again from Visits.
    await nav(page, 'Visits').click();
    await page.getByRole('button', { name: 'Open the visit of Ingrid Larsen' }).click();
    await page.getByTestId('visit-patient').filter({ hasText: 'Ingrid Larsen' }).waitFor({ timeout: 90_000 });
    const conn = page.locator('header .conn');
    await expect.poll(() => conn.textContent()).toBe('Local API connected');
    const stoppedAt = Date.now();
    await server.close();
    await page.getByText('Connection problem').waitFor({ timeout: 90_000 });
    const redAfterMs = Date.now() - stoppedAt;
    expect(await conn.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(179, 38, 30)');
    await page.getByRole('alert').filter({ hasText: 'The local API stopped answering' }).waitFor();
    // The patient stays in sight, and nothing sends the physician to Settings for an outage.
    expect(await page.getByTestId('visit-patient').textContent()).toBe('Ingrid Larsen');
    expect(await page.getByText('Connect to the local API in Settings to dictate.').count()).toBe(0);
    await shot(page, 'first-run-7-api-down.png');

    server = await startServer(env);
    const backAt = Date.now();
    await page.getByText('Local API connected').waitFor({ timeout: 90_000 });
    const greenAfterMs = Date.now() - backAt;
    expect(await page.getByRole('alert').filter({ hasText: 'stopped answering' }).count()).toBe(0);
    console.log(`[e2e] header red ${redAfterMs} ms after the local API stopped, green ${greenAfterMs} ms after it was back`);
    await shot(page, 'first-run-8-api-back.png');
  }, 90_000);
});
