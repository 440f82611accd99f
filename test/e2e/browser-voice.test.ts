/**
 * Issue 27 point 9 end to end in Debian's Chromium at 1366x768, against the real local API and its
 * real adaptation (sphinxtrain): "Learn my voice" opens from the Dictation page's recogniser line;
 * each enrollment sentence shown is spoken by espeak-ng into Chromium's fake microphone (the file is
 * replaced before each Record: Chromium reads it again at every capture) and read with Record and
 * Stop, from the keyboard, through the app's own capture; "Adapt to my voice" runs the adaptation,
 * the page gives the measured before/after the API reports; the switches survive a reload; Delete my
 * voice data asks first and removes it all. axe-core finds nothing serious or critical, nothing
 * overflows the window. Screenshots go to test-results/e2e (voice-*.png).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { AdaptationState } from '../../shared/api/voice-adaptation.js';
import { startServer, type TestServer } from '../support/server.js';
import { durationOf, ensureRendererBuild, missingTools, openApp, OUT, RENDERER, seriousAxeFindings, shot, speechRecording } from './harness.js';

const missing = missingTools();

describe.skipIf(missing.length > 0)('learning the physician\'s voice, in a browser', () => {
  let work: string;
  let mic: string;
  let server: TestServer;
  let browser: Browser;
  let page: Page;

  const adaptation = async (): Promise<AdaptationState> =>
    ((await (await fetch(`${server.base}/v1/speech/adaptation`, { headers: server.headers() })).json()) as { data: AdaptationState }).data;
  /** No horizontal scrolling at the window's width. */
  const overflow = (): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  beforeAll(async () => {
    ensureRendererBuild();
    work = mkdtempSync(join(tmpdir(), 'clindoc-e2e-voice-'));
    mic = join(work, 'mic.wav');
    copyFileSync(speechRecording(work, 'quiet', [{ text: 'Quiet.' }]), mic);
    server = await startServer({ CLINDOC_RENDERER_DIR: RENDERER, CLINDOC_RATE_LIMIT: '100000' });
    // %noloop: after the sentence the microphone is silent, never the sentence again.
    ({ browser, page } = await openApp(server, `${mic}%noloop`));
    await page.setViewportSize({ width: 1366, height: 768 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('enrolls through the microphone, adapts, keeps the switches over a reload, and deletes after asking', { timeout: 600_000 }, async () => {
    await page.getByRole('button', { name: 'Dictation', exact: true }).click();
    const skip = page.getByRole('button', { name: 'Skip for now' });
    if (await skip.isVisible()) await skip.click();
    const learn = page.getByTestId('recogniser-line').getByRole('button', { name: 'Learn my voice' });
    await learn.waitFor({ timeout: 90_000 });
    await learn.click();
    const panel = page.locator('#voice-learning');
    const progress = panel.getByTestId('voice-progress');
    const start = await adaptation();
    expect(start.status).toBe('not_enrolled');
    expect(await progress.textContent()).toBe(`0 of ${start.sentences.length} read, about 2 minutes to go`);
    const adapt = panel.getByRole('button', { name: 'Adapt to my voice' });
    expect(await adapt.isDisabled()).toBe(true);
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(await overflow()).toBeLessThanOrEqual(0);
    await shot(page, 'voice-1-first-sentence.png');

    // Each sentence as the page shows it, spoken into the microphone; Enter on the one Record/Stop button.
    const record = panel.getByRole('button', { name: 'Record', exact: true });
    await record.focus();
    for (let k = 0; k < start.minimumRecordings; k++) {
      const shown = panel.getByTestId('voice-sentence');
      const id = await shown.getAttribute('data-sentence-id');
      const text = (await shown.textContent())!;
      expect(start.sentences.find((s) => s.id === id)?.text).toBe(text);
      // Silence first, as a physician waits for "read the sentence now": Chromium starts the file when the
      // microphone opens, before the page's capture runs, and would clip the first words. On a loaded machine
      // (two suites at once and more) that gap passed one second and no reading could be aligned: three seconds.
      const wav = join(work, `sentence-${k}-lead.wav`);
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-i', speechRecording(work, `sentence-${k}`, [{ text, voice: 'en-us+m3' }], 0.8), '-af', 'adelay=3000:all=1', wav]);
      copyFileSync(wav, mic);
      await page.keyboard.press('Enter');
      // Stop once the whole sentence came through the capture (counted in captured audio, not waited for).
      const spoken = durationOf(wav) - 0.6;
      await expect.poll(async () => Number(await panel.getByTestId('voice-recording').getAttribute('data-seconds').catch(() => '0')), { timeout: 60_000, interval: 100 })
        .toBeGreaterThanOrEqual(spoken);
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Stop');
      // The reading has the microphone: dictation waits.
      if (k === 0) expect(await page.getByRole('button', { name: 'Start dictation' }).isDisabled()).toBe(true);
      await page.keyboard.press('Enter');
      await panel.getByText(`saved (`).filter({ hasText: `Sentence ${start.sentences.findIndex((s) => s.id === id) + 1} saved` }).waitFor({ timeout: 90_000 });
      // The focus stayed on the button, now Record for the next sentence.
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Record');
      expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).not.toBe('none');
    }
    const enrolled = await adaptation();
    const read = enrolled.sentences.filter((s) => s.recorded);
    expect(read.length).toBe(start.minimumRecordings);
    expect(Math.min(...read.map((s) => s.durationSeconds ?? 0))).toBeGreaterThan(1);
    expect(await progress.textContent()).toMatch(new RegExp(`^${read.length} of ${start.sentences.length} read`));

    await adapt.click();
    const result = panel.getByTestId('voice-result');
    await result.or(panel.getByText('The last adaptation failed')).waitFor({ timeout: 300_000 });
    const done = await adaptation();
    expect(done.status, done.error?.message).toBe('ready');
    const m = done.measured!;
    const pct = (x: number): string => `${Math.round(x * 100)}%`;
    expect(await result.textContent()).toContain(`Misheard words on your ${m.heldOutSentences} held-out sentence`);
    expect(await result.textContent()).toContain(`${pct(m.werBefore)} before, ${pct(m.werAfter)} after`);
    if (m.werAfter >= m.werBefore) expect(await result.textContent()).toContain('did not help');
    console.log(`[e2e voice] held-out ${m.heldOutSentences}: WER ${pct(m.werBefore)} -> ${pct(m.werAfter)}, ${done.recordingsUsed} readings used`);
    // The recogniser line says when the adapted model answers, with what it measured.
    const adaptedNote = page.getByTestId('recogniser-adapted');
    if (done.enabled) expect(await adaptedNote.textContent()).toContain(`adapted to your voice (misheard ${pct(m.werBefore)} before, ${pct(m.werAfter)} after`);
    else expect(await adaptedNote.count()).toBe(0);
    await shot(page, 'voice-2-result.png');

    // Both switches to the opposite of what the server chose, then a reload: they stay as set.
    const use = panel.getByRole('checkbox', { name: 'Use my adapted voice model for dictation and recordings' });
    const consent = panel.getByRole('checkbox', { name: 'Also learn from my corrected dictation' });
    expect(await consent.isChecked()).toBe(false);
    expect(await use.isChecked()).toBe(done.enabled);
    await use.click();
    await expect.poll(async () => (await adaptation()).enabled).toBe(!done.enabled);
    await consent.click();
    await expect.poll(async () => (await adaptation()).useCorrectedDictation).toBe(true);
    await page.reload();
    await page.getByText('Local API connected').waitFor({ timeout: 90_000 });
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const settings = page.locator('section[aria-labelledby="voice-title"]');
    await settings.getByTestId('voice-result').waitFor({ timeout: 90_000 });
    expect(await settings.getByRole('checkbox', { name: 'Use my adapted voice model for dictation and recordings' }).isChecked()).toBe(!done.enabled);
    expect(await settings.getByRole('checkbox', { name: 'Also learn from my corrected dictation' }).isChecked()).toBe(true);
    await settings.scrollIntoViewIfNeeded();
    expect(await seriousAxeFindings(page)).toEqual([]);
    expect(await overflow()).toBeLessThanOrEqual(0);
    // What the window shows at 1366x768 with the enrollment in view, and the whole page.
    await page.screenshot({ path: join(OUT, 'voice-3-settings-window.png') });
    await shot(page, 'voice-3-settings.png');

    // Deleting asks first; Cancel keeps everything.
    await settings.getByRole('button', { name: 'Delete my voice data' }).click();
    const question = settings.getByRole('group', { name: 'Delete my voice data?' });
    await question.getByRole('button', { name: 'Cancel' }).click();
    expect((await adaptation()).status).toBe('ready');
    await settings.getByRole('button', { name: 'Delete my voice data' }).click();
    await question.getByRole('button', { name: 'Delete', exact: true }).click();
    await settings.getByText('Your voice data was deleted').waitFor({ timeout: 90_000 });
    const gone = await adaptation();
    expect(gone.status).toBe('not_enrolled');
    expect(gone.enabled).toBe(false);
    expect(gone.sentences.filter((s) => s.recorded)).toEqual([]);
    expect(gone.measured).toBeUndefined();
    expect(await settings.getByTestId('voice-progress').textContent()).toBe(`0 of ${gone.sentences.length} read, about 2 minutes to go`);
    expect(await settings.getByTestId('voice-result').count()).toBe(0);
    expect(await seriousAxeFindings(page)).toEqual([]);
  });
});
