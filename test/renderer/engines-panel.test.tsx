// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import { EnginesPanel } from '../../renderer/components/engines-panel.js';
import { createAppStores, StoresProvider } from '../../renderer/state/stores.js';
import type { ApiClient } from '../../renderer/api/client.js';
import { createEngineSettingsService, type ClinicalLanguageModelView } from '../../main/services/transcriptions/engine-settings.js';

afterEach(cleanup);

/** The panel against the real engine-settings service, answering as the local API would. */
async function showPanel(clinicalLanguageModel: ClinicalLanguageModelView): Promise<string> {
  const memory = new Map<string, string | null>();
  const engines = createEngineSettingsService({
    store: { getAsrEngine: (id) => memory.get(id) ?? null, setAsrEngine: (id, e) => void memory.set(id, e) },
    defaultEngine: 'pocketsphinx', available: ['pocketsphinx'], clinicalLanguageModel,
  });
  const storage = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };
  const app = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: storage, local: storage, clearHash: () => undefined }, local: storage });
  const client = { engineSettings: async () => engines.get('acct'), setEngineSettings: async (e: string | null) => engines.set('acct', e), listModels: async () => ({ items: [] }) };
  app.connection.setState({ status: 'ready', client: client as unknown as ApiClient });
  await act(async () => {
    render(<StoresProvider stores={app}><EnginesPanel /></StoresProvider>);
  });
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
