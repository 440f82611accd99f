// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:4000/", "settings": {"fetch": {"disableSameOriginPolicy": true}}}
/**
 * Settings > Clinic server against two real Clindoc servers: "this computer" (reached through a
 * desktop bridge) and a clinic server. The form says what is wrong before anything is saved,
 * saves only a server that answers, never shows the saved key again, and every call of the
 * interface follows the choice, across a reload and back.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { ClinicServerPanel } from '../../renderer/components/clinic-server-panel.js';
import { CLINIC_SERVER_KEY, maskKey, normalizeServerUrl, readClinicServer, saveClinicServer } from '../../renderer/api/clinic-server.js';
import type { DesktopBridge } from '../../renderer/api/connection.js';
import { createAppStores, StoresProvider, type AppStores } from '../../renderer/state/stores.js';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { MemoryStorage } from '../support/memory-storage.js';

const PAGE_ORIGIN = 'http://localhost:4000';

afterEach(cleanup);

describe('clinic server address', () => {
  it('takes HTTPS anywhere and plain HTTP on loopback only, without a trailing slash', () => {
    expect(normalizeServerUrl(' https://clindoc.clinic.example/ ')).toEqual({ baseUrl: 'https://clindoc.clinic.example' });
    expect(normalizeServerUrl('https://clinic.example:8443/clindoc/')).toEqual({ baseUrl: 'https://clinic.example:8443/clindoc' });
    expect(normalizeServerUrl('http://127.0.0.1:9000')).toEqual({ baseUrl: 'http://127.0.0.1:9000' });
    expect(normalizeServerUrl('http://clinic.example')).toMatchObject({ error: expect.stringContaining('HTTPS') });
    expect(normalizeServerUrl('clinic.example')).toMatchObject({ error: expect.stringContaining('in full') });
    expect(normalizeServerUrl('https://user:pw@clinic.example')).toMatchObject({ error: expect.stringContaining('password') });
  });

  it('shows a key by its ends only', () => {
    expect(maskKey('cdk_0123456789abcdef')).toBe('cdk_…cdef');
    expect(maskKey('short')).toBe('••••');
  });
});

describe('Settings > Clinic server', () => {
  let here: TestServer;
  let clinic: TestServer;
  let local: MemoryStorage;
  beforeAll(async () => {
    here = await startServer({ CLINDOC_ALLOWED_ORIGINS: PAGE_ORIGIN, CLINDOC_CORS_ORIGINS: PAGE_ORIGIN, CLINDOC_JOB_CONCURRENCY: '0' });
    clinic = await startServer({ CLINDOC_ALLOWED_ORIGINS: PAGE_ORIGIN, CLINDOC_CORS_ORIGINS: PAGE_ORIGIN, CLINDOC_JOB_CONCURRENCY: '0' });
    local = new MemoryStorage();
  });
  afterAll(async () => {
    await Promise.all([here?.close(), clinic?.close()]);
  });

  /** The app's stores as a window builds them: the desktop bridge names this computer's API. */
  const open = async (): Promise<AppStores> => {
    const bridge = { connection: async () => ({ baseUrl: here.base, ...here.creds }) } as unknown as DesktopBridge;
    const stores = createAppStores({ bridge, connectionEnv: { bridge, hash: '', session: new MemoryStorage(), local, clearHash: () => undefined }, local, autosaveMs: 10 });
    await act(async () => {
      render(<StoresProvider stores={stores}><ClinicServerPanel /></StoresProvider>);
      await stores.connection.getState().load();
    });
    return stores;
  };
  const panel = () => screen.getByRole('region', { name: 'Clinic server' });
  const form = () => within(panel()).getByRole('form', { name: 'Clinic server' });
  /** Unfolds the form ("Use a clinic server" / "Change the clinic server"). */
  const unfold = (): void => {
    const details = panel().querySelector('details')!;
    if (!details.open) fireEvent.click(within(panel()).getByText(/clinic server$/, { selector: 'summary' }));
    expect(details.open).toBe(true);
  };
  const type = (label: string, value: string): void => void fireEvent.change(within(form()).getByLabelText(label), { target: { value } });
  const press = async (name: string): Promise<void> => {
    await act(async () => {
      fireEvent.click(within(panel()).getByRole('button', { name }));
    });
  };
  const visits = async (server: TestServer): Promise<{ preview: string }[]> =>
    ((await (await fetch(`${server.base}/v1/visits`, { headers: server.headers() })).json()) as { data: { items: { preview: string }[] } }).data.items;

  it('says what is wrong on Test connection and keeps using this computer', { timeout: 20_000 }, async () => {
    const stores = await open();
    expect(stores.connection.getState()).toMatchObject({ status: 'ready', source: 'desktop' });
    expect(screen.getByTestId('clinic-where').textContent).toContain('stay on this computer');
    expect(within(panel()).queryByRole('button', { name: 'Use this computer' })).toBeNull();
    expect(panel().querySelector('details')!.open).toBe(false);
    unfold();

    type('Server address', 'http://clinic.example');
    type('Clinic account', clinic.creds.accountId);
    type('Clinic key', clinic.creds.apiKey);
    await press('Test connection');
    expect((await within(panel()).findByRole('alert')).textContent).toContain('must be reached over HTTPS');

    type('Server address', clinic.base);
    type('Clinic key', 'cdk_not-the-key-the-clinic-gave');
    await press('Test connection');
    expect((await within(panel()).findByRole('alert', {}, { timeout: 10_000 })).textContent).toBe('invalid API key or account id');

    // Nothing listens there: the message names the server and what its operator must allow.
    type('Server address', 'http://127.0.0.1:9');
    type('Clinic key', clinic.creds.apiKey);
    await press('Test connection');
    const unreachable = (await within(panel()).findByRole('alert', {}, { timeout: 10_000 })).textContent ?? '';
    expect(unreachable).toContain('The clinic server at 127.0.0.1:9 cannot be reached');
    expect(unreachable).toContain(`CLINDOC_CORS_ORIGINS must list ${PAGE_ORIGIN}`);

    type('Server address', `${clinic.base}/`);
    await press('Test connection');
    await within(panel()).findByText(`The clinic server at 127.0.0.1:${clinic.port} accepted these credentials.`, {}, { timeout: 10_000 });
    // A test saves nothing and moves nothing.
    expect(local.getItem(CLINIC_SERVER_KEY)).toBeNull();
    expect(stores.connection.getState().connection?.baseUrl).toBe(here.base);
  });

  it('saves and uses the clinic server: the open visit stays where it was written, the key is shown by its ends only', { timeout: 20_000 }, async () => {
    const stores = await open();
    // This computer's macros are in the dictation store; they must not expand on the clinic's visits.
    const macro = await fetch(`${here.base}/v1/macro-library`, {
      method: 'POST', headers: here.headers(), body: JSON.stringify({ id: 'knee', examples: ['normal knee exam'], expansion_text: 'KNEE: no effusion.' }),
    });
    expect(macro.status).toBe(201);
    await act(() => stores.dictation.getState().loadMacros());
    expect(stores.dictation.getState().macros.map((m) => m.id)).toEqual(['knee']);
    // Something typed on this computer is saved here before the switch, then closed.
    act(() => stores.dictation.getState().replaceText('Typed on this computer.'));
    await waitFor(async () => (stores.visits.getState().save === 'saved' ? true : undefined));

    unfold();
    type('Server address', clinic.base);
    type('Clinic account', clinic.creds.accountId);
    type('Clinic key', clinic.creds.apiKey);
    await press('Save and use');
    await within(panel()).findByText(`Notes now go to the clinic server at 127.0.0.1:${clinic.port}.`);

    const state = stores.connection.getState();
    expect(state).toMatchObject({ status: 'ready', source: 'clinic', clinic: { baseUrl: clinic.base, accountId: clinic.creds.accountId, keyHint: maskKey(clinic.creds.apiKey) } });
    expect(state.client?.connection.baseUrl).toBe(clinic.base);
    expect(readClinicServer(local)).toEqual({ baseUrl: clinic.base, ...clinic.creds });
    expect((within(form()).getByLabelText('Clinic key') as HTMLInputElement).value).toBe('');
    expect(document.body.innerHTML).not.toContain(clinic.creds.apiKey);
    expect(screen.getByTestId('clinic-where').textContent).toContain(maskKey(clinic.creds.apiKey));
    expect(stores.dictation.getState().text()).toBe('');
    expect(stores.dictation.getState().macros).toEqual([]);
    expect((await visits(here)).map((v) => v.preview)).toEqual(['Typed on this computer.']);

    // What is typed now autosaves into a visit on the clinic server.
    act(() => stores.dictation.getState().replaceText('Typed for the clinic.'));
    await waitFor(async () => ((await visits(clinic)).length ? true : undefined), 10_000);
    expect((await visits(clinic)).map((v) => v.preview)).toEqual(['Typed for the clinic.']);
    expect(await visits(here)).toHaveLength(1);
  });

  it('finds the clinic server again after a reload, and Use this computer goes back', { timeout: 20_000 }, async () => {
    const stores = await open();
    expect(stores.connection.getState()).toMatchObject({ status: 'ready', source: 'clinic' });
    // With a clinic server in use the form is open, filled in but for the key.
    expect(panel().querySelector('details')!.open).toBe(true);
    expect((within(form()).getByLabelText('Server address') as HTMLInputElement).value).toBe(clinic.base);
    expect((within(form()).getByLabelText('Clinic key') as HTMLInputElement).placeholder).toContain(maskKey(clinic.creds.apiKey));

    // A blank key with the same address and account tests the saved key.
    await press('Test connection');
    await within(panel()).findByText(`The clinic server at 127.0.0.1:${clinic.port} accepted these credentials.`, {}, { timeout: 10_000 });

    await press('Use this computer');
    await within(panel()).findByText('Notes now stay on this computer.');
    expect(local.getItem(CLINIC_SERVER_KEY)).toBeNull();
    expect(stores.connection.getState()).toMatchObject({ status: 'ready', source: 'desktop' });
    expect(stores.connection.getState().clinic).toBeUndefined();
    expect(screen.getByTestId('clinic-where').textContent).toContain('stay on this computer');
  });

  it('refuses to change servers while the open visit cannot be saved, so nothing on screen is lost', { timeout: 20_000 }, async () => {
    const stores = await open();
    expect(stores.connection.getState().source).toBe('desktop');
    act(() => stores.dictation.getState().replaceText('Written here first.'));
    await waitFor(async () => (stores.visits.getState().save === 'saved' ? true : undefined));
    const { currentId, version } = stores.visits.getState();
    // Another window changes the visit, so this window's next save is a conflict.
    const other = await fetch(`${here.base}/v1/visits/${currentId}`, {
      method: 'PATCH', headers: here.headers({ 'If-Match': `"${version}"` }), body: JSON.stringify({ patient: { name: 'Other Window' } }),
    });
    expect(other.status).toBe(200);
    act(() => stores.dictation.getState().replaceText('Written here first, and more.'));
    await waitFor(async () => (stores.visits.getState().save === 'conflict' ? true : undefined));

    unfold();
    type('Server address', clinic.base);
    type('Clinic account', clinic.creds.accountId);
    type('Clinic key', clinic.creds.apiKey);
    await press('Save and use');
    expect((await within(panel()).findByRole('alert', {}, { timeout: 10_000 })).textContent).toContain('The open visit is not saved yet');
    expect(local.getItem(CLINIC_SERVER_KEY)).toBeNull();
    expect(stores.connection.getState()).toMatchObject({ status: 'ready', source: 'desktop' });
    expect(stores.dictation.getState().text()).toBe('Written here first, and more.');
  });

  it('with the clinic key revoked, says so and still lets the physician go back to this computer', { timeout: 20_000 }, async () => {
    // Awaited: the account service's key calls return promises on the async-storage branch.
    const created = await clinic.clindoc.accounts.createKey(clinic.creds.accountId);
    saveClinicServer(local, { baseUrl: clinic.base, accountId: clinic.creds.accountId, apiKey: created.apiKey });
    await clinic.clindoc.accounts.revokeKey(created.keyId);
    const stores = await open();
    expect(stores.connection.getState()).toMatchObject({ status: 'rejected', source: 'clinic' });
    expect(screen.getByTestId('clinic-where').textContent).toContain(clinic.base);

    await press('Use this computer');
    await within(panel()).findByText('Notes now stay on this computer.');
    expect(stores.connection.getState()).toMatchObject({ status: 'ready', source: 'desktop' });
    expect(readClinicServer(local)).toBeUndefined();
  });
});
