import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildCodeSet, parseOrderFile, readSourceFile, CmsFormatError } from '../../main/engines/coding/cms-parser.js';
import { BUNDLED_CODES_DIR, loadCodeTable, readCodeSetFile } from '../../main/engines/coding/code-table.js';
import { runCli } from '../support/child.js';
import { evalDataPath } from '../../scripts/eval-data.js';

const ORDER_SHA = '024c8cdaab815c987f3d43544758047992ef7b5677c92369b1a04ac69b83b48c';
const TABULAR_SHA = '436905e9470018c8667b25cdf646f6a2f4f0c95dbaeabd8692b530775db71afd';

/** An order-file line in the CMS layout. */
const orderLine = (n: number, code: string, billable: boolean, title: string): string =>
  `${String(n).padStart(5, '0')} ${code.padEnd(7)} ${billable ? 1 : 0} ${title.slice(0, 60).padEnd(60)} ${title}`;

describe('ICD-10-CM code set', () => {
  const table = loadCodeTable({ bundledDir: BUNDLED_CODES_DIR })!;

  it('bundles the complete FY2021 release: 72,621 billable codes, source and digests recorded', () => {
    expect(table.edition).toBe('FY2021');
    expect(table.counts.billable).toBe(72_621);
    expect(table.counts.codes).toBe(95_358);
    const set = readCodeSetFile(join(BUNDLED_CODES_DIR, 'icd10cm-FY2021.json.gz'));
    expect(set.source.order.sha256).toBe(ORDER_SHA);
    expect(set.source.tabular?.sha256).toBe(TABULAR_SHA);
    expect(readFileSync(join(BUNDLED_CODES_DIR, 'README.md'), 'utf8')).toContain(ORDER_SHA);
  });

  it('shows codes with the dot and tells headings from billable codes', () => {
    expect(table.get('E119')).toEqual({ code: 'E11.9', billable: true, title: 'Type 2 diabetes mellitus without complications' });
    expect(table.get('E11.9')?.code).toBe('E11.9');
    expect(table.get('E11')?.billable).toBe(false);
    expect(table.get('I10')).toMatchObject({ code: 'I10', billable: true });
    expect(table.get('S93.401A')).toMatchObject({ billable: true, title: expect.stringContaining('initial encounter') });
    expect(table.billableUnder('M17').map((e) => e.code)).toContain('M17.12');
    expect(table.billableUnder('M17').every((e) => e.billable)).toBe(true);
    expect(table.parent('E11.22')?.code).toBe('E11.2');
  });

  it('keeps the tabular notes the coder follows', () => {
    expect(table.notes('E11.22')?.useAdditionalCode?.join(' ')).toMatch(/N18\.1-N18\.6/);
    expect(table.notes('E11')?.excludes1?.join(' ')).toMatch(/type 1 diabetes mellitus \(E10\.-\)/);
    expect(table.notes('S93')?.seventh).toMatchObject({ A: 'initial encounter', D: 'subsequent encounter', S: 'sequela' });
    expect(table.notes('E11.21')?.inclusion).toContain('Type 2 diabetes mellitus with Kimmelstiel-Wilson disease');
  });

  it.skipIf(!existsSync(evalDataPath('icd10cm')))('rebuilds the committed resource byte for byte from the CMS files', () => {
    const folder = evalDataPath('icd10cm');
    const set = buildCodeSet(readSourceFile(join(folder, 'icd10cm-order-Jan-2021.txt.gz')), readSourceFile(join(folder, 'icd10cm-tabular-2021.xml.gz')));
    expect(JSON.stringify(set)).toBe(JSON.stringify(readCodeSetFile(join(BUNDLED_CODES_DIR, 'icd10cm-FY2021.json.gz'))));
  });

  it('refuses an order file that does not follow the layout, naming the line', () => {
    expect(() => parseOrderFile(`${orderLine(1, 'A00', false, 'Cholera')}\nthis is not an order file\n`)).toThrow(CmsFormatError);
    expect(() => parseOrderFile(`${orderLine(1, 'A00', false, 'Cholera')}\nthis is not an order file\n`)).toThrow(/line 2/);
  });
});

describe('clindoc codes import', () => {
  const dir = mkdtempSync(join(tmpdir(), 'clindoc-codes-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('loads a newer release into the data folder, and the newest edition wins', async () => {
    // A miniature "FY2025" release: R05 became a category with children in FY2022.
    const order = [
      orderLine(1, 'R05', false, 'Cough'),
      orderLine(2, 'R051', true, 'Acute cough'),
      orderLine(3, 'R059', true, 'Cough, unspecified'),
      orderLine(4, 'I10', true, 'Essential (primary) hypertension'),
    ].join('\r\n');
    const tabular = `<?xml version="1.0"?><ICD10CM.tabular><version>2025</version><chapter><name>18</name><section id="R05"><diag><name>R05</name><desc>Cough</desc>
      <diag><name>R05.1</name><desc>Acute cough</desc><inclusionTerm><note>Cough &amp; cold, acute</note></inclusionTerm></diag></diag></section></chapter></ICD10CM.tabular>`;
    writeFileSync(join(dir, 'icd10cm-order-2025.txt.gz'), gzipSync(order));
    writeFileSync(join(dir, 'icd10cm-tabular-2025.xml'), tabular);
    const dataDir = join(dir, 'data');
    const run = await runCli(['codes', 'import', join(dir, 'icd10cm-order-2025.txt.gz'), join(dir, 'icd10cm-tabular-2025.xml'), '--json'], { CLINDOC_DATA_DIR: dataDir });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout);
    expect(report).toMatchObject({ edition: 'FY2025', billable: 3, lines: 4 });

    const newest = loadCodeTable({ dataDir })!;
    expect(newest.edition).toBe('FY2025');
    expect(newest.get('R05')?.billable).toBe(false);
    expect(newest.get('R05.1')?.title).toBe('Acute cough');
    expect(newest.notes('R05.1')?.inclusion).toEqual(['Cough & cold, acute']);
  });

  it('answers a malformed release with a message and a failing exit code', async () => {
    writeFileSync(join(dir, 'bad-order-2026.txt'), 'not a CMS file\n');
    const run = await runCli(['codes', 'import', join(dir, 'bad-order-2026.txt')], { CLINDOC_DATA_DIR: join(dir, 'data2') });
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/line 1/);
    expect(loadCodeTable({ dataDir: join(dir, 'data2') })?.edition).toBe('FY2021');
  });
});
