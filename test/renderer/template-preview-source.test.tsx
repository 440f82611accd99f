// @vitest-environment happy-dom
/**
 * The template builder previews with the open visit's own transcript when there is one (issue 27
 * point 10: it previewed a canned visit), says which conversation it used, and switches between
 * the visit's and the sample with one press.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { TemplatesPage } from '../../renderer/pages/templates-page.js';
import { createAppStores, StoresProvider, type AppStores } from '../../renderer/state/stores.js';
import { SAMPLE_TRANSCRIPT } from '../../renderer/state/template-preview.js';
import { createApiClient } from '../../renderer/api/client.js';
import { MemoryStorage } from '../support/memory-storage.js';
import { startServer, type TestServer } from '../support/server.js';

let server: TestServer;
beforeAll(async () => {
  // happy-dom's page origin (localhost:4000) allowed, as the real interface's origin would be.
  server = await startServer({ CLINDOC_ALLOWED_ORIGINS: 'http://localhost:4000', CLINDOC_CORS_ORIGINS: 'http://localhost:4000' });
}, 60_000);
afterAll(async () => server?.close());
afterEach(cleanup);

function stores(): AppStores {
  const s = new MemoryStorage();
  const app = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: s, local: s, clearHash: () => undefined }, local: s, autosaveMs: 3_600_000 });
  app.connection.setState({ status: 'ready', client: createApiClient({ baseUrl: server.base, ...server.creds }) });
  return app;
}

const conversation = (): HTMLTextAreaElement => screen.getByLabelText('Conversation for the preview') as HTMLTextAreaElement;

describe('template preview source', () => {
  it('uses the open visit\'s transcript, and the sample at a press', async () => {
    const app = stores();
    app.notes.getState().set({ transcript: 'Doctor: What brings you in?\nPatient: My ankle hurts since Sunday.' });
    render(<StoresProvider stores={app}><TemplatesPage /></StoresProvider>);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'New template' })));
    expect(conversation().value).toContain('My ankle hurts since Sunday.');
    expect(screen.getByTestId('preview-source').textContent).toBe('Written from the open visit\'s transcript');

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Use the sample conversation' })));
    expect(conversation().value).toBe(SAMPLE_TRANSCRIPT);
    expect(screen.getByTestId('preview-source').textContent).toBe('Written from a sample conversation');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Use the open visit\'s transcript' })));
    expect(conversation().value).toContain('My ankle hurts');
  });

  it('falls back to the sample conversation without an open transcript', async () => {
    render(<StoresProvider stores={stores()}><TemplatesPage /></StoresProvider>);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'New template' })));
    expect(conversation().value).toBe(SAMPLE_TRANSCRIPT);
    expect(screen.queryByRole('button', { name: 'Use the open visit\'s transcript' })).toBeNull();
  });
});
