/**
 * End to end in Debian's Chromium: a physician installs a speech model from Settings (watching its
 * download progress), switches to it without a restart, and the next dictation is transcribed by
 * it. The "hub" is a loopback server holding a generated tiny Whisper export (it reads any speech
 * as "no fever today."), reached through CLINDOC_MODEL_MIRROR as a clinic's mirror would be.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { startServer, type TestServer } from '../support/server.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { readTree, startModelServer, tinyCatalog, type ModelServer } from '../models/model-server.js';
import { ensureRendererBuild, missingTools, openApp, RENDERER, shot, speechRecording } from './harness.js';

const missing = missingTools();

describe.skipIf(missing.length > 0)('installing a model from Settings and switching to it', () => {
  let work: string;
  let hub: ModelServer;
  let server: TestServer;
  let browser: Browser;
  let page: Page;
  let held: ReturnType<ModelServer['holdNext']>;

  beforeAll(async () => {
    ensureRendererBuild();
    work = mkdtempSync(join(tmpdir(), 'clindoc-e2e-models-'));
    const whisper = readTree(writeTinyWhisper(join(work, 'whisper')));
    const fixture = tinyCatalog(whisper);
    hub = await startModelServer(fixture.files);
    // The decoder file waits half-way, so the test sees the download under way.
    const decoder = Object.keys(fixture.files).find((p) => p.startsWith('/tiny-whisper/') && p.endsWith('decoder_model_merged.onnx'))!;
    held = hub.holdNext(decoder, Math.floor(fixture.files[decoder]!.length / 2));
    writeFileSync(join(work, 'catalog.json'), JSON.stringify(fixture.catalog));
    const mic = speechRecording(work, 'dictation', [{ text: 'The patient reports a cough for two weeks.' }], 3);
    server = await startServer({ CLINDOC_RENDERER_DIR: RENDERER, CLINDOC_MODEL_CATALOG: join(work, 'catalog.json'), CLINDOC_MODEL_MIRROR: hub.url, CLINDOC_RATE_LIMIT: '100000' });
    ({ browser, page } = await openApp(server, mic));
  }, 120_000);

  afterAll(async () => {
    held?.release();
    await browser?.close();
    await server?.close();
    await hub?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('shows the download progress, installs, and the next dictation uses the new model', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const card = page.locator('li.model[data-model="tiny-whisper"]');
    await card.getByRole('button', { name: 'Install Tiny Whisper' }).click();

    const bar = page.getByRole('progressbar', { name: 'Downloading Tiny Whisper' });
    await held.reached;
    await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 90_000, interval: 100 }).toBeGreaterThan(0);
    const max = Number(await bar.getAttribute('max'));
    expect(Number(await bar.getAttribute('value'))).toBeLessThan(max);
    await expect.poll(async () => (await card.textContent()) ?? '', { timeout: 90_000 }).toMatch(/MB of \d/);
    await shot(page, 'models-1-downloading.png');
    held.release();

    await card.getByText('Installed').waitFor({ timeout: 90_000 });
    await card.getByRole('button', { name: 'Use for dictation and recordings' }).click();
    await page.getByText('Saved: from the next one, dictation and recordings use Tiny Whisper.').waitFor({ timeout: 90_000 });
    await card.getByText('In use for dictation').waitFor();
    expect(await page.getByLabel('Recogniser for dictation and recordings (this account)').inputValue()).toBe('tiny-whisper');
    await shot(page, 'models-2-in-use.png');

    await page.getByRole('button', { name: 'Dictation', exact: true }).click();
    await page.getByRole('button', { name: 'Start dictation' }).click();
    await page.getByTestId('final-text').filter({ hasText: /no fever today/i }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Stop dictation' }).click();
    await shot(page, 'models-3-dictated.png');
  }, 180_000);
});
