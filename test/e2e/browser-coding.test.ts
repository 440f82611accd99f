/**
 * Coding end to end in Debian's Chromium against the real local API: a note written from a
 * transcript about type 2 diabetes with CKD stage 3a and left knee osteoarthritis (chest pain
 * denied), Suggest codes, the evidence marked in the note, two codes accepted, a reload that
 * keeps them, and a FHIR export whose Bundle carries them as Conditions. Screenshots go to
 * test-artifacts/e2e.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { ensureRendererBuild, missingTools, openApp, RENDERER, ROOT, speechRecording } from './harness.js';

const missing = missingTools();
const ARTIFACTS = join(ROOT, 'test-artifacts', 'e2e');

const TRANSCRIPT = `Doctor: What brings you in today?
Patient: My sugars have been high and my left knee hurts when I walk.
Doctor: Any chest pain?
Patient: No, no chest pain.
Doctor: Your kidney function shows chronic kidney disease stage 3a from the diabetes.
Doctor: Assessment: type 2 diabetes with diabetic chronic kidney disease, CKD stage 3a. Left knee osteoarthritis. Patient denies chest pain.
Doctor: Plan: continue metformin, recheck kidney function in three months, physical therapy for the knee.`;

describe.skipIf(missing.length > 0)('Coding in a browser: suggest, see the evidence, accept, reload, export', () => {
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let work: string;

  const shot = async (name: string): Promise<void> => {
    mkdirSync(ARTIFACTS, { recursive: true });
    await page.screenshot({ path: join(ARTIFACTS, name), fullPage: true });
  };
  const nav = (name: string) => page.getByRole('button', { name, exact: true });
  const suggestion = (code: string) => page.locator(`li.code-suggestion[data-code="${code}"]`);

  beforeAll(async () => {
    ensureRendererBuild();
    work = mkdtempSync(join(tmpdir(), 'clindoc-e2e-coding-'));
    const mic = speechRecording(work, 'mic', [{ text: 'Follow up in three months.' }]);
    server = await startServer({ CLINDOC_RENDERER_DIR: RENDERER });
    ({ browser, page } = await openApp(server, mic));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('suggests E11.22, N18.31 and M17.12 (no chest pain code), keeps two accepted codes across a reload and exports them as Conditions', async () => {
    await nav('Note').click();
    await page.getByLabel('Patient name').fill('Coding Patient');
    await page.getByLabel('Transcript', { exact: true }).fill(TRANSCRIPT);
    await page.getByRole('button', { name: 'Generate note' }).click();
    await page.getByRole('article', { name: 'Generated note' }).waitFor({ timeout: 60_000 });

    await page.getByRole('button', { name: 'Suggest codes' }).click();
    const list = page.getByRole('list', { name: 'Suggested codes' });
    await list.waitFor({ timeout: 90_000 });
    const codes = await list.locator('li.code-suggestion').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')));
    expect(codes).toEqual(expect.arrayContaining(['E11.22', 'N18.31', 'M17.12']));
    expect(codes.filter((c) => c?.startsWith('R07'))).toEqual([]);

    // The evidence of a suggestion is marked in the note while it is hovered.
    await suggestion('M17.12').hover();
    const marked = page.getByRole('article', { name: /Note with the evidence for M17\.12/ }).locator('mark');
    await marked.first().waitFor({ timeout: 90_000 });
    expect((await marked.allTextContents()).join(' ').toLowerCase()).toContain('osteoarthritis');
    await shot('coding-1-evidence.png');

    // Accept two by keyboard and mouse alike; reject the third.
    await page.getByRole('button', { name: /^Accept E11\.22 / }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: /^Accept M17\.12 / }).click();
    await page.getByRole('button', { name: /^Reject N18\.31 / }).click();
    const accepted = page.getByRole('list', { name: 'Accepted codes' });
    await expect.poll(() => accepted.locator('strong').allTextContents(), { timeout: 90_000 }).toEqual(['E11.22', 'M17.12']);
    await page.getByTestId('autosave').filter({ hasText: /^Saved$/ }).waitFor({ timeout: 90_000 });
    await shot('coding-2-accepted.png');

    await page.reload();
    await page.getByText('Local API connected').waitFor({ timeout: 90_000 });
    await nav('Note').click();
    await expect.poll(() => page.getByRole('list', { name: 'Accepted codes' }).locator('strong').allTextContents(), { timeout: 90_000 }).toEqual(['E11.22', 'M17.12']);
    await page.getByRole('article', { name: 'Generated note' }).waitFor({ timeout: 90_000 });
    await shot('coding-3-after-reload.png');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export FHIR DocumentReference' }).click()]);
    const file = join(work, 'coded.fhir.json');
    await download.saveAs(file);
    const bundle = JSON.parse(readFileSync(file, 'utf8')) as {
      resourceType: string; type: string;
      entry: { fullUrl: string; resource: { resourceType: string; subject?: { reference?: string }; code?: { coding: { system: string; code: string }[] } } }[];
    };
    expect(bundle).toMatchObject({ resourceType: 'Bundle', type: 'collection' });
    const conditions = bundle.entry.filter((e) => e.resource.resourceType === 'Condition');
    expect(conditions.map((c) => c.resource.code!.coding[0])).toEqual([
      expect.objectContaining({ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'E11.22' }),
      expect.objectContaining({ system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'M17.12' }),
    ]);
    const patient = bundle.entry.find((e) => e.resource.resourceType === 'Patient')!;
    const doc = bundle.entry.find((e) => e.resource.resourceType === 'DocumentReference')!;
    expect(doc.resource.subject?.reference).toBe(patient.fullUrl);
    for (const c of conditions) expect(c.resource.subject?.reference).toBe(patient.fullUrl);
  }, 240_000);
});
