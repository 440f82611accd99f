/**
 * Builds the bundled ICD-10-CM code set (`resources/codes/icd10cm-<edition>.json.gz`) from the
 * CMS release in `icd10cm/` of the data-set folder (CLINDOC_EVAL_DATA, default ../shared/data):
 * the fixed-width order file and the tabular list XML. The same parser serves
 * `clindoc codes import`, so an operator's newer release is read exactly like this one.
 *
 * Run: npx tsx scripts/build-icd10cm.ts
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { buildCodeSet, readSourceFile } from '../main/engines/coding/cms-parser.js';
import { BUNDLED_CODES_DIR, writeCodeSetFile } from '../main/engines/coding/code-table.js';
import { evalDataPath } from './eval-data.js';

const folder = evalDataPath('icd10cm');
if (!existsSync(folder)) {
  console.log(`ICD-10-CM release folder ${folder} not found: skipping the code-set build (set CLINDOC_EVAL_DATA); the committed resource stays as it is`);
  process.exit(0);
}
const names = readdirSync(folder);
const orderName = names.find((n) => /order/i.test(n) && /\.txt(\.gz)?$/.test(n));
const tabularName = names.find((n) => /tabular/i.test(n) && /\.xml(\.gz)?$/.test(n));
if (!orderName) {
  console.error(`no order file (icd10cm-order-*.txt[.gz]) in ${folder}`);
  process.exit(1);
}
const order = readSourceFile(join(folder, orderName));
const tabular = tabularName ? readSourceFile(join(folder, tabularName)) : undefined;
const set = buildCodeSet(order, tabular);
const path = writeCodeSetFile(BUNDLED_CODES_DIR, set);
console.log(`${set.system} ${set.edition}: ${set.source.order.lines} lines, ${set.source.order.billable} billable codes, notes on ${Object.keys(set.notes).length} codes`);
console.log(`order   ${order.name} sha256 ${order.sha256}`);
if (tabular) console.log(`tabular ${tabular.name} sha256 ${tabular.sha256}`);
console.log(`wrote ${path}`);
