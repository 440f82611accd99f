/**
 * End to end in Debian's Chromium with two real Clindoc servers: this computer's local API, which
 * serves the interface, and a "clinic" server with its own data folder that lets the local
 * interface's origin call it (CLINDOC_CORS_ORIGINS; CLINDOC_ALLOWED_ORIGINS alone lets the origin
 * through the guard but gives no CORS headers, so a browser cannot read its answers). The
 * physician tests the clinic server from Settings (a wrong key, a server that refuses this
 * origin, then the right key), saves it, and dictates and writes a note: the visit, the note and
 * the live socket are the clinic server's and the local API stays empty. Back on this computer,
 * what is written stays local again.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { ensureRendererBuild, missingTools, openApp, RENDERER, ROOT, speechRecording } from './harness.js';

const missing = missingTools();
const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');

const TRANSCRIPT = `Doctor: What brings you in today?
Patient: Pain in the right knee since a fall last week.
Doctor: Mild swelling, full range of motion. Plan: ice, ibuprofen, come back in two weeks.`;

interface Listed { data: { items: { id: string; patient: { name?: string }; preview: string }[] } }

describe.skipIf(missing.length > 0)('The interface uses a clinic server chosen in Settings, and goes back to this computer', () => {
  let local: TestServer;
  let clinic: TestServer;
  let refusing: TestServer;
  let browser: Browser;
  let page: Page;
  let work: string;

  const nav = (name: string) => page.getByRole('button', { name, exact: true });
  const dictated = () => page.getByLabel('Dictated text', { exact: true });
  const header = () => page.locator('header .conn');
  const panel = () => page.getByRole('region', { name: 'Clinic server' });
  const form = () => panel().getByRole('form', { name: 'Clinic server' });
  const shot = async (name: string): Promise<void> => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
  };
  const visitsOf = async (server: TestServer): Promise<Listed['data']['items']> =>
    ((await (await fetch(`${server.base}/v1/visits`, { headers: server.headers() })).json()) as Listed).data.items;
  const notesOf = async (server: TestServer): Promise<unknown[]> =>
    ((await (await fetch(`${server.base}/v1/notes`, { headers: server.headers() })).json()) as { data: { items: unknown[] } }).data.items;
  const fill = async (url: string, accountId: string, apiKey: string): Promise<void> => {
    await form().getByLabel('Server address').fill(url);
    await form().getByLabel('Clinic account').fill(accountId);
    await form().getByLabel('Clinic key').fill(apiKey);
  };

  beforeAll(async () => {
    ensureRendererBuild();
    work = mkdtempSync(join(tmpdir(), 'clindoc-e2e-clinic-'));
    const mic = speechRecording(work, 'mic', [{ text: 'The knee is swollen but moves fully.' }]);
    local = await startServer({ CLINDOC_RENDERER_DIR: RENDERER });
    // The clinic lists the desktop's origin; its own data folder is a different temp folder.
    clinic = await startServer({ CLINDOC_ALLOWED_ORIGINS: local.base, CLINDOC_CORS_ORIGINS: local.base });
    // A clinic server that was not told about this computer.
    refusing = await startServer({ CLINDOC_JOB_CONCURRENCY: '0' });
    ({ browser, page } = await openApp(local, mic));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([local?.close(), clinic?.close(), refusing?.close()]);
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('answers Test connection with what is wrong: a wrong key, a server that refuses this origin; then accepts the right key', async () => {
    await nav('Settings').click();
    await expect.poll(() => page.getByTestId('clinic-where').textContent()).toContain('stay on this computer');
    // Folded away until asked for: most desktops never use one.
    expect(await form().isVisible()).toBe(false);
    await panel().getByText('Use a clinic server').click();

    await fill(clinic.base, clinic.creds.accountId, 'cdk_not-the-key-the-clinic-gave');
    await form().getByRole('button', { name: 'Test connection' }).click();
    await panel().getByRole('alert').filter({ hasText: 'invalid API key or account id' }).waitFor({ timeout: 90_000 });

    await fill(refusing.base, refusing.creds.accountId, refusing.creds.apiKey);
    await form().getByRole('button', { name: 'Test connection' }).click();
    const refusal = panel().getByRole('alert');
    await refusal.filter({ hasText: `CLINDOC_CORS_ORIGINS must list ${local.base}` }).waitFor({ timeout: 90_000 });
    expect(await refusal.textContent()).toContain(`127.0.0.1:${refusing.port} cannot be reached`);

    await fill('http://clinic.example', clinic.creds.accountId, clinic.creds.apiKey);
    await form().getByRole('button', { name: 'Test connection' }).click();
    await panel().getByRole('alert').filter({ hasText: 'must be reached over HTTPS' }).waitFor();

    await fill(clinic.base, clinic.creds.accountId, clinic.creds.apiKey);
    await form().getByRole('button', { name: 'Test connection' }).click();
    await panel().getByRole('status').filter({ hasText: 'accepted these credentials' }).waitFor({ timeout: 90_000 });
    // Testing changes nothing: the interface still works on this computer.
    expect(await header().textContent()).toBe('Local API connected');
    await shot('clinic-1-tested.png');
  }, 60_000);

  it('saves the clinic server: the header names it and the key is not shown again, even after a reload', async () => {
    await form().getByRole('button', { name: 'Save and use' }).click();
    await header().filter({ hasText: `Clinic server 127.0.0.1:${clinic.port}` }).waitFor({ timeout: 90_000 });
    // The header follows the connection store at once; the form clears its key a render later.
    await expect.poll(() => form().getByLabel('Clinic key').inputValue(), { timeout: 90_000 }).toBe('');
    const where = await page.getByTestId('clinic-where').textContent();
    expect(where).toContain(clinic.base);
    expect(where).toContain(`${clinic.creds.apiKey.slice(0, 4)}…${clinic.creds.apiKey.slice(-4)}`);
    // Settings no longer says the data stays on this computer.
    const data = await page.getByRole('region', { name: 'Data' }).textContent();
    expect(data).toContain(`kept by the clinic server at ${clinic.base}`);
    expect(data).not.toContain('stays on this computer');
    await page.getByText('Advanced: integrations').click();
    expect(await page.locator('main').innerHTML()).not.toContain(clinic.creds.apiKey);
    await shot('clinic-2-saved.png');

    await page.reload();
    await header().filter({ hasText: `Clinic server 127.0.0.1:${clinic.port}` }).waitFor({ timeout: 90_000 });
    await nav('Settings').click();
    expect(await page.locator('main').innerHTML()).not.toContain(clinic.creds.apiKey);
  }, 60_000);

  it('dictates, autosaves and writes the note on the clinic server, the live socket included; the local API gets nothing', async () => {
    const sockets: { url: string; frames: string[] }[] = [];
    page.on('websocket', (ws) => {
      const seen = { url: ws.url(), frames: [] as string[] };
      sockets.push(seen);
      ws.on('framereceived', (f) => seen.frames.push(String(f.payload)));
    });
    await nav('Dictation').click();
    await page.getByRole('button', { name: 'Start dictation' }).click();
    await expect.poll(() => sockets.some((s) => s.frames.some((f) => f.includes('"connected"'))), { timeout: 90_000 }).toBe(true);
    await page.getByRole('button', { name: 'Stop dictation' }).click();
    await page.getByRole('button', { name: 'Start dictation' }).waitFor({ timeout: 90_000 });
    expect(sockets.map((s) => new URL(s.url).port)).toEqual([String(clinic.port)]);

    await dictated().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Knee pain after a fall.', { delay: 5 });
    await nav('Note').click();
    await page.getByLabel('Patient name').fill('Clinic Patient');
    await page.getByLabel('Transcript', { exact: true }).fill(TRANSCRIPT);
    await page.getByRole('button', { name: 'Generate note' }).click();
    await page.getByRole('article', { name: 'Generated note' }).waitFor({ timeout: 60_000 });
    await page.getByTestId('autosave').filter({ hasText: /^Saved$/ }).waitFor({ timeout: 90_000 });
    await shot('clinic-3-note.png');

    const visits = await visitsOf(clinic);
    expect(visits.map((v) => v.patient.name)).toEqual(['Clinic Patient']);
    expect(await notesOf(clinic)).toHaveLength(1);
    expect(await visitsOf(local)).toEqual([]);
    expect(await notesOf(local)).toEqual([]);

    // Typed a moment before a reload: the page's last save (a keepalive PATCH, preflighted across
    // origins) reaches the clinic server, and the visit opens there again.
    await nav('Dictation').click();
    await dictated().click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type(' Saved as the page went.', { delay: 5 });
    await page.reload();
    await header().filter({ hasText: `Clinic server 127.0.0.1:${clinic.port}` }).waitFor({ timeout: 90_000 });
    await expect.poll(() => dictated().inputValue(), { timeout: 90_000 }).toContain('Knee pain after a fall. Saved as the page went.');
    expect(await visitsOf(local)).toEqual([]);
  }, 120_000);

  it('goes back to this computer: the open visit is closed, the header says so, and new work stays local', async () => {
    await nav('Settings').click();
    await panel().getByRole('button', { name: 'Use this computer' }).click();
    await header().filter({ hasText: 'Local API connected' }).waitFor({ timeout: 90_000 });
    await expect.poll(() => page.getByTestId('clinic-where').textContent()).toContain('stay on this computer');

    await nav('Dictation').click();
    await expect.poll(() => dictated().inputValue(), { timeout: 90_000 }).toBe('');
    await dictated().click();
    await page.keyboard.type('Back on this computer.', { delay: 5 });
    await page.getByTestId('autosave').filter({ hasText: /^Saved$/ }).waitFor({ timeout: 90_000 });
    await shot('clinic-4-local-again.png');

    expect((await visitsOf(local)).map((v) => v.preview)).toEqual(['Back on this computer.']);
    expect((await visitsOf(clinic)).map((v) => v.patient.name)).toEqual(['Clinic Patient']);
  }, 60_000);
});
