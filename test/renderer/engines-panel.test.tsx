// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:4000/", "settings": {"fetch": {"disableSameOriginPolicy": true}}}
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EnginesPanel } from '../../renderer/components/engines-panel.js';
import { createAppStores, StoresProvider } from '../../renderer/state/stores.js';
import { createApiClient, type ApiClient } from '../../renderer/api/client.js';
import { createEngineSettingsService, type ClinicalLanguageModelView } from '../../main/services/transcriptions/engine-settings.js';
import { startServer, type TestServer } from '../support/server.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';
import { answer, startChatServer, type ChatServer } from '../llm/chat-server.js';

afterEach(cleanup);

function mount(client: ApiClient): void {
  const storage = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };
  const app = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: storage, local: storage, clearHash: () => undefined }, local: storage });
  app.connection.setState({ status: 'ready', client });
  render(<StoresProvider stores={app}><EnginesPanel /></StoresProvider>);
}

/** The panel against the real engine-settings service, answering as the local API would. */
async function showPanel(clinicalLanguageModel: ClinicalLanguageModelView): Promise<string> {
  const memory = new Map<string, string | null>();
  const engines = createEngineSettingsService({
    store: {
      getAsrEngine: async (id) => memory.get(id) ?? null, setAsrEngine: async (id, e) => void memory.set(id, e),
      getNoteEngine: async () => null, setNoteEngine: async () => undefined,
      getFailurePolicy: async () => null, setFailurePolicy: async () => undefined, getServers: async () => null, setServers: async () => undefined,
    },
    defaultEngine: 'pocketsphinx', available: ['pocketsphinx'], clinicalLanguageModel,
  });
  const client = { engineSettings: async () => engines.get('acct'), setEngineSettings: async (c: { asrEngine?: string | null }) => engines.choose('acct', c), listModels: async () => ({ items: [] }), engineStatus: async () => ({ tasks: [] }) };
  await act(async () => mount(client as unknown as ApiClient));
  return (await screen.findByTestId('clinical-model')).textContent ?? '';
}

describe('engines panel: clinical language model', () => {
  it('says the model is loaded and from where', async () => {
    expect(await showPanel({ loaded: true, path: '/opt/clindoc/resources/asr' })).toBe('Clinical language model: loaded from /opt/clindoc/resources/asr.');
  });

  it('says when it is missing and that the general model transcribes instead', async () => {
    const text = await showPanel({ loaded: false, path: '/opt/clindoc/resources/asr', reason: 'missing' });
    expect(text).toContain('not loaded, not found in /opt/clindoc/resources/asr');
    expect(text).toContain('general English model');
  });

  it('says when configuration turned it off', async () => {
    expect(await showPanel({ loaded: false, reason: 'disabled' })).toContain('turned off (CLINDOC_ASR_MEDICAL=0)');
  });
});

describe('engines panel against the local API: choosing an installed model', () => {
  let server: TestServer;
  let work: string;
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'clindoc-panel-'));
    // The page's origin (happy-dom's URL above) is one the API is told to accept, as a clinic would.
    server = await startServer({ CLINDOC_ALLOWED_ORIGINS: 'http://localhost:4000', CLINDOC_CORS_ORIGINS: 'http://localhost:4000' });
    const res = await fetch(`${server.base}/v1/models/import`, { method: 'POST', headers: server.headers(), body: JSON.stringify({ path: writeTinyWhisper(join(work, 'w')), id: 'office-whisper' }) });
    expect(res.status).toBe(201);
  });
  afterAll(async () => {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('offers the installed model by name, switches to it, and says what the next dictation uses', { timeout: 30_000 }, async () => {
    mount(createApiClient({ baseUrl: server.base, ...server.creds }));
    const select = await screen.findByLabelText('Recogniser for dictation and recordings (this account)', {}, { timeout: 10_000 });
    await waitFor(() => expect(within(select).getByRole('option', { name: 'w' })).toBeTruthy(), { timeout: 10_000 });
    const card = (await screen.findByText('w', { selector: 'strong' }, { timeout: 10_000 })).closest('li')!;
    fireEvent.click(within(card as HTMLElement).getByRole('button', { name: 'Use for dictation and recordings' }));
    // Choosing loads the model first (a few seconds on a busy machine).
    await screen.findByText('Saved: from the next one, dictation and recordings use w.', {}, { timeout: 20_000 });
    expect((select as HTMLSelectElement).value).toBe('office-whisper');
    expect(within(card as HTMLElement).getByText('In use for dictation')).toBeTruthy();
    const settings = (await (await fetch(`${server.base}/v1/settings/engines`, { headers: server.headers() })).json()) as { data: { asrEngine: string } };
    expect(settings.data.asrEngine).toBe('office-whisper');
  });
});

describe('engines panel against the local API: a server of the account', () => {
  let server: TestServer;
  let broken: ChatServer;
  let good: ChatServer;
  beforeAll(async () => {
    broken = await startChatServer((_req, res) => {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end('{}');
    });
    good = await startChatServer((_req, res) => answer(res, 'OK'));
    server = await startServer({ CLINDOC_ALLOWED_ORIGINS: 'http://localhost:4000', CLINDOC_CORS_ORIGINS: 'http://localhost:4000', CLINDOC_LLM_MAX_RETRIES: '0' });
  });
  afterAll(async () => {
    await server.close();
    await broken.close();
    await good.close();
  });

  it('refuses a server that answers 500 with what it answered, then tests and uses a working one', { timeout: 60_000 }, async () => {
    mount(createApiClient({ baseUrl: server.base, ...server.creds }));
    const form = (await screen.findByText('Language-model server for notes (this account)', {}, { timeout: 10_000 })).closest('fieldset') as HTMLElement;
    const fill = (url: string): void => {
      fireEvent.change(within(form).getByLabelText('Server URL'), { target: { value: url } });
      fireEvent.change(within(form).getByLabelText('Model name'), { target: { value: 'clinic-llm' } });
      fireEvent.change(within(form).getByLabelText('Key (optional)'), { target: { value: 'sk-test' } });
      fireEvent.click(within(form).getByRole('button', { name: 'Test and use' }));
    };
    fill(broken.baseUrl);
    await screen.findByText(/failed a test request, so nothing was saved: language model server is failing \(HTTP 500\)/, {}, { timeout: 20_000 });
    fill(good.baseUrl);
    await screen.findByText("Saved: from the next one, notes are written by This account's server.", {}, { timeout: 20_000 });
    expect(screen.getByTestId('server-notes').textContent).toContain(`In use: ${good.baseUrl}, model clinic-llm, key kept (sealed).`);
    expect(good.requests.at(-1)!.headers.authorization).toBe('Bearer sk-test');
  });
});
