// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:4000/", "settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * "Learn my voice" in Settings against the real local API (issue 27 point 9). The microphone is the
 * one seam: it hands over real espeak-ng speech at 16 kHz, as the browser capture would. The panel
 * shows the API's sentences one at a time; Record and Stop send each reading (a WAV the server
 * decodes: it answers its duration); a slip of the finger is refused in the error banner; Adapt
 * stays off until the minimum is read, then runs and the page follows the run to its result; the
 * consent switch is saved; Delete asks first and empties it all. A run that fails says why in the
 * error banner.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { SettingsPage } from '../../renderer/pages/settings-page.js';
import { createApiClient } from '../../renderer/api/client.js';
import type { AdaptationState } from '../../shared/api/voice-adaptation.js';
import type { CaptureOptions } from '../../renderer/audio/capture.js';
import { createAppStores, StoresProvider } from '../../renderer/state/stores.js';
import { startServer, type TestServer } from '../support/server.js';
import { speechWav } from '../support/audio.js';
import { localTime } from '../../shared/export/local-time.js';

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CLINDOC_RATE_LIMIT: '100000', CLINDOC_ALLOWED_ORIGINS: 'http://localhost:4000', CLINDOC_CORS_ORIGINS: 'http://localhost:4000' });
});
afterAll(async () => server?.close());
afterEach(cleanup);

const adaptation = async (): Promise<AdaptationState> =>
  ((await (await fetch(`${server.base}/v1/speech/adaptation`, { headers: server.headers() })).json()) as { data: AdaptationState }).data;

/** 16 kHz float samples of `text` spoken by espeak-ng (decoded by ffmpeg, as the capture would hand them over). */
function spoken(text: string): Float32Array {
  const { path } = speechWav(text, 'en-us+m3');
  const raw = execFileSync('ffmpeg', ['-v', 'error', '-i', path, '-f', 'f32le', '-ar', '16000', '-ac', '1', '-']);
  rmSync(dirname(path), { recursive: true, force: true });
  return new Float32Array(raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.length));
}

/** Settings with a microphone that says `next()` at each capture, in 0.1 s pieces. */
async function openSettings(next: () => Float32Array) {
  const storage = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };
  const opened: CaptureOptions[] = [];
  const app = createAppStores({
    bridge: undefined, connectionEnv: { hash: '', session: storage, local: storage, clearHash: () => undefined }, local: storage, voicePollMs: 50,
    dictation: {
      startCapture: async (options) => {
        opened.push(options);
        const audio = next();
        for (let at = 0; at < audio.length; at += 1600) options.onAudio(audio.subarray(at, at + 1600));
        return { sampleRate: 16_000, deviceLabel: 'test microphone', stop: async () => undefined };
      },
    },
  });
  app.connection.setState({ status: 'ready', client: createApiClient({ baseUrl: server.base, ...server.creds }) });
  await act(async () => render(<StoresProvider stores={app}><SettingsPage /></StoresProvider>));
  const panel = within(await screen.findByTestId('voice-enrollment', {}, { timeout: 10_000 }));
  return { panel, opened };
}

describe('Learn my voice in Settings', () => {
  it('records sentence by sentence, adapts, saves consent, and deletes after asking', { timeout: 300_000 }, async () => {
    const start = await adaptation();
    let say = (): Float32Array => spoken(start.sentences[0]!.text);
    const { panel, opened } = await openSettings(() => say());
    expect(panel.getByTestId('voice-progress').textContent).toBe(`0 of ${start.sentences.length} read, about 2 minutes to go`);
    expect(panel.getByTestId('voice-sentence').textContent).toBe(start.sentences[0]!.text);
    const adapt = panel.getByRole('button', { name: 'Adapt to my voice' }) as HTMLButtonElement;
    expect(adapt.disabled).toBe(true);
    expect(panel.getByText(`Read at least ${start.minimumRecordings} sentences first (0 so far).`)).toBeTruthy();

    // A press and release with nothing said is refused in the banner, and nothing is sent.
    say = () => new Float32Array(1600);
    await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Record' })));
    await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Stop' })));
    expect(panel.getByRole('alert').textContent).toContain('too short to keep');
    expect((await adaptation()).sentences[0]!.recorded).toBe(false);

    for (let k = 0; k < start.minimumRecordings; k++) {
      const sentence = start.sentences[k]!;
      await waitFor(() => expect(panel.getByTestId('voice-sentence').getAttribute('data-sentence-id')).toBe(sentence.id));
      const audio = spoken(sentence.text);
      say = () => audio;
      await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Record' })));
      expect(Number(panel.getByTestId('voice-recording').getAttribute('data-seconds'))).toBeCloseTo(audio.length / 16_000, 1);
      await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Stop' })));
      await panel.findByText(new RegExp(`^Sentence ${k + 1} saved \\(\\d+\\.\\d s\\)\\.$`), {}, { timeout: 20_000 });
      // The server decoded the WAV: the duration it stored is the reading's.
      expect((await adaptation()).sentences[k]!.durationSeconds).toBeCloseTo(audio.length / 16_000, 1);
    }
    expect(opened.every((o) => o.deviceId === undefined)).toBe(true);
    const n = start.sentences.length;
    expect(panel.getByTestId('voice-progress').textContent).toMatch(new RegExp(`^${start.minimumRecordings} of ${n} read, `));

    // A sentence read already offers Re-record.
    await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Previous sentence' })));
    expect(panel.getByRole('button', { name: 'Re-record' })).toBeTruthy();
    expect(panel.getByText(new RegExp(`^Sentence ${start.minimumRecordings} of ${n} · read \\(`))).toBeTruthy();

    expect(adapt.disabled).toBe(false);
    await act(async () => fireEvent.click(adapt));
    // The page reads the run again until it is over, and says what it measured.
    const result = await panel.findByTestId('voice-result', {}, { timeout: 240_000 });
    const done = await adaptation();
    expect(done.status).toBe('ready');
    expect(result.textContent).toContain(`${Math.round(done.measured!.werBefore * 100)}% before, ${Math.round(done.measured!.werAfter * 100)}% after`);
    // When it was adapted: the physician's local time with its zone, as every time the interface shows.
    expect(result.textContent).toContain(`Adapted ${localTime(Date.parse(done.adaptedAt!))}`);
    expect(localTime(Date.parse(done.adaptedAt!))).toMatch(/\b(?:UTC|GMT[+-]?\d*|[A-Z]{3,5})$/);
    const use = panel.getByRole('checkbox', { name: 'Use my adapted voice model for dictation and recordings' }) as HTMLInputElement;
    expect(use.checked).toBe(done.enabled);
    expect(use.disabled).toBe(false);

    const consent = panel.getByRole('checkbox', { name: 'Also learn from my corrected dictation' }) as HTMLInputElement;
    expect(consent.checked).toBe(false);
    expect(consent.getAttribute('aria-describedby')).toBeTruthy();
    await act(async () => fireEvent.click(consent));
    await waitFor(() => expect(consent.checked).toBe(true));
    expect((await adaptation()).useCorrectedDictation).toBe(true);

    await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Delete my voice data' })));
    expect((await adaptation()).status).toBe('ready');
    const question = panel.getByRole('group', { name: 'Delete my voice data?' });
    await act(async () => fireEvent.click(within(question).getByRole('button', { name: 'Delete' })));
    await panel.findByText(/^Your voice data was deleted/, {}, { timeout: 15_000 });
    const gone = await adaptation();
    expect(gone.status).toBe('not_enrolled');
    expect(gone.sentences.some((s) => s.recorded)).toBe(false);
    expect(panel.getByTestId('voice-progress').textContent).toBe(`0 of ${n} read, about 2 minutes to go`);
    expect(panel.queryByTestId('voice-result')).toBeNull();
  });

  it('says in the error banner why a run failed, and leaves the adapted-model switch off', { timeout: 300_000 }, async () => {
    // A hum instead of speech: the server stores it (it decodes) but cannot align a word of any sentence.
    const hum = new Float32Array(16_000 * 2).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 300 * i) / 16_000));
    const { panel } = await openSettings(() => hum);
    const { minimumRecordings } = await adaptation();
    for (let k = 0; k < minimumRecordings; k++) {
      await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Record' })));
      await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Stop' })));
      await panel.findByText(new RegExp(`^Sentence ${k + 1} saved`), {}, { timeout: 20_000 });
    }
    await act(async () => fireEvent.click(panel.getByRole('button', { name: 'Adapt to my voice' })));
    const failed = await panel.findByText(/^The last adaptation failed: /, {}, { timeout: 240_000 });
    const state = await adaptation();
    expect(state.status).toBe('failed');
    expect(failed.textContent).toBe(`The last adaptation failed: ${state.error!.message}`);
    expect(failed.closest('[role="alert"]')).toBeTruthy();
    const use = panel.getByRole('checkbox', { name: /^Use my adapted voice model for dictation and recordings/ }) as HTMLInputElement;
    expect(use.checked).toBe(false);
    expect(use.disabled).toBe(true);
    expect(panel.queryByTestId('voice-result')).toBeNull();
  });
});
