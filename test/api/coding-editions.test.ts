/**
 * ICD-10-CM editions from Settings: GET lists the bundled and imported code sets with the one in
 * use; POST imports a CMS release (multipart, the CLI's parser) and coding switches to it at once;
 * a malformed file is a 400 naming the line and changes nothing; both need authentication.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gzipSync } from 'node:zlib';
import { startServer, type TestServer } from '../support/server.js';
import { onPostgres } from '../support/database.js';

/** An order-file line in the CMS layout. */
const orderLine = (n: number, code: string, billable: boolean, title: string): string =>
  `${String(n).padStart(5, '0')} ${code.padEnd(7)} ${billable ? 1 : 0} ${title.slice(0, 60).padEnd(60)} ${title}`;

const ORDER_2025 = [
  orderLine(1, 'R05', false, 'Cough'),
  orderLine(2, 'R051', true, 'Acute cough'),
  orderLine(3, 'R059', true, 'Cough, unspecified'),
  orderLine(4, 'I10', true, 'Essential (primary) hypertension'),
].join('\r\n');
const TABULAR_2025 = `<?xml version="1.0"?><ICD10CM.tabular><version>2025</version><chapter><name>18</name><section id="R05"><diag><name>R05</name><desc>Cough</desc>
  <diag><name>R05.1</name><desc>Acute cough</desc><inclusionTerm><note>Cough &amp; cold, acute</note></inclusionTerm></diag></diag></section></chapter></ICD10CM.tabular>`;

describe('ICD-10-CM editions (Settings import)', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s?.close());

  const auth = (): Record<string, string> => ({ 'X-API-KEY': s.creds.apiKey, 'X-ACCOUNT-ID': s.creds.accountId });
  const list = async () => (await (await fetch(`${s.base}/v1/coding/editions`, { headers: auth() })).json()) as { data: { active?: string; items: { edition: string; source: string; active: boolean; billable: number }[] } };
  const upload = (form: FormData, headers: Record<string, string> = auth()) => fetch(`${s.base}/v1/coding/editions`, { method: 'POST', headers, body: form });

  it('lists the bundled FY2021 edition as the one in use', async () => {
    const { data } = await list();
    expect(data.active).toBe('FY2021');
    expect(data.items).toEqual([expect.objectContaining({ edition: 'FY2021', source: 'bundled', active: true, billable: 72_621 })]);
  });

  // A clinic server's code sets are imported on every instance by its operator (next test).
  it.skipIf(onPostgres)('refuses a malformed order file with a 400 naming the line, and keeps the edition in use', async () => {
    const form = new FormData();
    form.set('order', new Blob([`${orderLine(1, 'A00', false, 'Cholera')}\nthis is not an order file\n`]), 'icd10cm-order-2026.txt');
    const res = await upload(form);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { message: string }).message).toMatch(/line 2/);
    const noFile = new FormData();
    noFile.set('edition', 'FY2026');
    expect((await upload(noFile)).status).toBe(400);
    expect((await list()).data.active).toBe('FY2021');
  });

  it('needs an account of this installation to list or import', async () => {
    expect((await fetch(`${s.base}/v1/coding/editions`)).status).toBe(401);
    const form = new FormData();
    form.set('order', new Blob([ORDER_2025]), 'icd10cm-order-2025.txt');
    expect((await upload(form, { 'X-API-KEY': 'wrong', 'X-ACCOUNT-ID': s.creds.accountId })).status).toBe(401);
    expect((await list()).data.items.map((i) => i.edition)).toEqual(['FY2021']);
  });

  it.skipIf(onPostgres)('imports a newer release (gzip order file and tabular XML) and coding names the new edition at once', async () => {
    const form = new FormData();
    form.set('order', new Blob([gzipSync(ORDER_2025)]), 'icd10cm-order-2025.txt.gz');
    form.set('tabular', new Blob([TABULAR_2025]), 'icd10cm-tabular-2025.xml');
    const res = await upload(form);
    expect(res.status).toBe(201);
    const body = (await res.json()) as { data: { edition: string; billable: number; lines: number; active: boolean; sha256: { order: string; tabular?: string } } };
    expect(body.data).toMatchObject({ edition: 'FY2025', billable: 3, lines: 4, active: true });
    expect(body.data.sha256.tabular).toMatch(/^[0-9a-f]{64}$/);

    const { data } = await list();
    expect(data.active).toBe('FY2025');
    expect(data.items.map((i) => [i.edition, i.source, i.active])).toEqual([['FY2025', 'imported', true], ['FY2021', 'bundled', false]]);

    const coded = await fetch(`${s.base}/v1/coding/analyze`, { method: 'POST', headers: s.headers(), body: JSON.stringify({ text: 'Assessment: essential hypertension.' }) });
    const analysis = (await coded.json()) as { data: { edition: string; codes: { code: string; edition?: string }[] } };
    expect(analysis.data.edition).toBe('FY2025');
    expect(analysis.data.codes.find((c) => c.code === 'I10')?.edition).toBe('FY2025');
  });

  it.runIf(onPostgres)('on a clinic server refuses an import through the API and points to the command, keeping the edition in use', async () => {
    const form = new FormData();
    form.set('order', new Blob([ORDER_2025]), 'icd10cm-order-2025.txt');
    const res = await upload(form);
    expect(res.status).toBe(409);
    expect(((await res.json()) as { message: string }).message).toMatch(/clindoc codes import/);
    expect((await list()).data.items.map((i) => i.edition)).toEqual(['FY2021']);
  });
});
