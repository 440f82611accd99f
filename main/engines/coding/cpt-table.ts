import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { CptTable } from '../../services/coding/ports.js';

/** One CSV record: fields split on commas outside double quotes, `""` inside quotes is a quote. */
function csvFields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') (field += '"'), i++;
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') (out.push(field), (field = ''));
    else field += ch;
  }
  out.push(field);
  return out;
}

/**
 * Reads an operator's licensed CPT table (`CLINDOC_CPT_TABLE`): CSV `code,descriptor`, an optional
 * header line. CPT descriptors are the AMA's: Clindoc never ships them, it only shows what the
 * operator's licence supplies. A line that is not a five-character code is an error naming it.
 */
export function readCptTable(path: string): CptTable {
  const byCode = new Map<string, string>();
  const lines = readFileSync(path, 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    const [code = '', ...rest] = csvFields(line);
    const c = code.trim().toUpperCase();
    if (i === 0 && !/^\d{4}[0-9A-Z]$/.test(c)) return; // header
    if (!/^\d{4}[0-9A-Z]$/.test(c) || !rest.join(',').trim()) throw new Error(`${basename(path)} line ${i + 1}: expected code,descriptor`);
    byCode.set(c, rest.join(',').trim());
  });
  return { source: basename(path), size: byCode.size, descriptor: (code) => byCode.get(code.toUpperCase()) };
}
