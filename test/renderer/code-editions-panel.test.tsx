// @vitest-environment happy-dom
// @vitest-environment-options {"url": "http://localhost:4000/", "settings": {"fetch": {"disableSameOriginPolicy": true}}}
/** Settings > Coding against the local API: the edition in use, a refused file, an imported release. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { editionAge, editionYear, fiscalYearOf } from '../../renderer/state/code-edition-age.js';
import { createApiClient } from '../../renderer/api/client.js';
import { CodeEditionsPanel } from '../../renderer/components/code-editions-panel.js';
import { createAppStores, StoresProvider } from '../../renderer/state/stores.js';
import { startServer, type TestServer } from '../support/server.js';

const orderLine = (n: number, code: string, billable: boolean, title: string): string =>
  `${String(n).padStart(5, '0')} ${code.padEnd(7)} ${billable ? 1 : 0} ${title.slice(0, 60).padEnd(60)} ${title}`;

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ CLINDOC_ALLOWED_ORIGINS: 'http://localhost:4000', CLINDOC_CORS_ORIGINS: 'http://localhost:4000' });
});
afterAll(async () => server?.close());

describe('Settings: ICD-10-CM code set', () => {
  it('shows the edition in use, explains a malformed file, and imports a newer release', async () => {
    const storage = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };
    const app = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: storage, local: storage, clearHash: () => undefined }, local: storage });
    app.connection.setState({ status: 'ready', client: createApiClient({ baseUrl: server.base, ...server.creds }) });
    await act(async () => render(<StoresProvider stores={app}><CodeEditionsPanel /></StoresProvider>));
    // Waits for the answer, however long a loaded machine takes (two suites at once took over the default second).
    await waitFor(() => expect(screen.getByTestId('active-edition').textContent).toBe('ICD-10-CM edition in use: FY2021'), { timeout: 60_000 });
    const button = screen.getByRole('button', { name: 'Import code set' }) as HTMLButtonElement;
    expect(button.disabled).toBe(true);

    fireEvent.change(screen.getByLabelText('Order file'), { target: { files: [new File(['not an order file\n'], 'icd10cm-order-2026.txt')] } });
    await act(async () => fireEvent.click(button));
    expect((await screen.findByRole('alert', {}, { timeout: 60_000 })).textContent).toMatch(/Import failed: .*line 1/);

    const order = [orderLine(1, 'I10', true, 'Essential (primary) hypertension'), orderLine(2, 'R05', false, 'Cough'), orderLine(3, 'R051', true, 'Acute cough')].join('\n');
    fireEvent.change(screen.getByLabelText('Order file'), { target: { files: [new File([order], 'icd10cm-order-2025.txt')] } });
    await act(async () => fireEvent.click(button));
    await screen.findByText('Imported ICD-10-CM FY2025: 2 billable codes, now in use.', {}, { timeout: 60_000 });
    await waitFor(() => expect(screen.getByTestId('active-edition').textContent).toBe('ICD-10-CM edition in use: FY2025'), { timeout: 60_000 });
    expect(screen.getByRole('list', { name: 'ICD-10-CM editions' }).textContent).toContain('FY2021 (bundled');
  });
});

describe('Settings: a code set CMS has replaced', () => {
  it('knows which edition is in force on a day: a new one every 1 October', () => {
    expect(editionYear('FY2021')).toBe(2021);
    expect(editionYear('fy 2025')).toBe(2025);
    expect(editionYear('2024')).toBe(2024);
    expect(editionYear('clinic-custom')).toBeUndefined();
    expect(fiscalYearOf(new Date(2021, 8, 30))).toBe(2021);
    expect(fiscalYearOf(new Date(2021, 9, 1))).toBe(2022);
    expect(editionAge('FY2021', new Date(2021, 8, 30))).toBeUndefined();
    expect(editionAge('FY2021', new Date(2021, 9, 1))).toEqual({ edition: 2021, current: 2022, replacedOn: new Date(2021, 9, 1) });
    expect(editionAge('FY2021', new Date(2026, 10, 27))).toMatchObject({ current: 2027 });
    expect(editionAge('clinic-custom', new Date(2026, 10, 27))).toBeUndefined();
  });

  it('says a newer edition exists and how to import it only once the edition in use was replaced', async () => {
    const storage = { getItem: () => null, setItem: () => undefined, removeItem: () => undefined };
    const open = async (today: Date): Promise<void> => {
      cleanup();
      const app = createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: storage, local: storage, clearHash: () => undefined }, local: storage });
      app.connection.setState({ status: 'ready', client: createApiClient({ baseUrl: server.base, ...server.creds }) });
      await act(async () => render(<StoresProvider stores={app}><CodeEditionsPanel today={today} /></StoresProvider>));
      await waitFor(() => expect(screen.getByTestId('active-edition').textContent).toMatch(/^ICD-10-CM edition in use: FY20\d\d$/), { timeout: 60_000 });
    };
    // This server's newest edition is the FY2025 imported above: in force until 30 September 2025.
    await open(new Date(2025, 8, 30));
    expect(screen.queryByTestId('edition-outdated')).toBeNull();
    await open(new Date(2026, 10, 27));
    const notice = screen.getByTestId('edition-outdated').textContent!;
    expect(notice).toContain('A newer ICD-10-CM edition exists.');
    expect(notice).toMatch(/FY2025 was replaced on .*2025; FY2027 is in force now \(2 editions newer than the one in use\)/);
    expect(notice).toContain('Code Descriptions in Tabular Order');
    expect(screen.getByRole('link', { name: 'the CMS ICD-10 page' }).getAttribute('href')).toBe('https://www.cms.gov/medicare/coding-billing/icd-10-codes');
    cleanup();
  });
});
