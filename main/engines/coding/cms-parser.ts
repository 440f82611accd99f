import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import sax from 'sax';
import type { CodeNotes } from '../../services/coding/ports.js';

/**
 * Parser of the CMS ICD-10-CM release files: the fixed-width order file and the tabular list
 * XML. One module serves both the build script that makes the bundled resource and
 * `clindoc codes import`, which loads a newer release an operator drops in, so both read a
 * release the same way.
 */

/** One order-file line (1-based columns: 1-5 order, 7-13 code, 15 billable flag, 17-76 short, 78- long). */
export interface OrderLine {
  order: number;
  /** Without the dot, as in the file (`E119`). */
  code: string;
  billable: boolean;
  short: string;
  long: string;
}

export class CmsFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CmsFormatError';
  }
}

/** A release file read from disk: gzip is undone; the digest is over the uncompressed bytes. */
export interface SourceFile {
  name: string;
  text: string;
  sha256: string;
}

/** Reads a release file (plain or `.gz`) and digests its uncompressed content. */
export function readSourceFile(path: string): SourceFile {
  return sourceFromBytes(basename(path), readFileSync(path));
}

/** Largest uncompressed release file (the FY tabular XML is about 40 MB): a gzip bomb stops here. */
export const MAX_SOURCE_BYTES = 256 * 1024 * 1024;

/** A release file received as bytes (an upload): gzip is undone, the digest is over the uncompressed bytes. */
export function sourceFromBytes(name: string, raw: Buffer): SourceFile {
  let bytes = raw;
  if (bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: MAX_SOURCE_BYTES });
    } catch {
      throw new CmsFormatError(`${name}: not a readable gzip file, or larger than ${MAX_SOURCE_BYTES} bytes uncompressed`);
    }
  }
  return { name, text: bytes.toString('utf8'), sha256: createHash('sha256').update(bytes).digest('hex') };
}

const CODE = /^[A-Z][0-9][0-9A-Z]{1,5}$/;

/** Parses the order file; a line that does not follow the layout is an error naming its number. */
export function parseOrderFile(text: string): OrderLine[] {
  const lines: OrderLine[] = [];
  const raw = text.split(/\r?\n/);
  for (let i = 0; i < raw.length; i++) {
    const line = raw[i]!;
    if (!line.trim()) continue;
    const order = line.slice(0, 5);
    const code = line.slice(6, 13).trim();
    const flag = line[14];
    if (!/^\d{5}$/.test(order) || !CODE.test(code) || (flag !== '0' && flag !== '1') || line.length < 78) {
      throw new CmsFormatError(`order file line ${i + 1} does not follow the CMS layout (order, code, billable flag, short and long description)`);
    }
    lines.push({ order: Number(order), code, billable: flag === '1', short: line.slice(16, 76).trim(), long: line.slice(77).trim() });
  }
  if (!lines.length) throw new CmsFormatError('order file has no codes');
  return lines;
}

/** What the tabular list holds beyond the order file. */
export interface TabularList {
  /** `<version>` of the XML (e.g. `2021`). */
  version: string;
  /** Notes by code without the dot. */
  notes: Map<string, CodeNotes>;
}

const NOTE_KINDS: Record<string, keyof Omit<CodeNotes, 'seventh'>> = {
  inclusionTerm: 'inclusion', includes: 'includes', excludes1: 'excludes1', excludes2: 'excludes2',
  codeFirst: 'codeFirst', useAdditionalCode: 'useAdditionalCode', codeAlso: 'codeAlso',
};

/** Parses the tabular list XML (ICD10CM.tabular): notes and 7th characters of every diag. */
export function parseTabularXml(text: string): TabularList {
  const parser = sax.parser(true, { trim: false });
  const notes = new Map<string, CodeNotes>();
  const path: string[] = [];
  const diags: string[] = [];
  let version = '';
  let buffer = '';
  let noteKind: keyof Omit<CodeNotes, 'seventh'> | undefined;
  let extensionChar: string | undefined;
  let error: Error | undefined;

  const notesOf = (code: string): CodeNotes => {
    let n = notes.get(code);
    if (!n) notes.set(code, (n = {}));
    return n;
  };
  parser.onerror = (e) => {
    error = e;
  };
  parser.onopentag = (tag) => {
    path.push(tag.name);
    buffer = '';
    if (tag.name === 'diag') diags.push('');
    else if (NOTE_KINDS[tag.name] && diags.length) noteKind = NOTE_KINDS[tag.name];
    else if (tag.name === 'extension') extensionChar = String((tag.attributes as Record<string, string>).char ?? '');
  };
  parser.ontext = (t) => {
    buffer += t;
  };
  parser.oncdata = (t) => {
    buffer += t;
  };
  parser.onclosetag = (name) => {
    const parentTag = path[path.length - 2];
    const content = buffer.replace(/\s+/g, ' ').trim();
    const current = diags[diags.length - 1];
    if (name === 'version' && parentTag === 'ICD10CM.tabular') version = content;
    else if (name === 'name' && parentTag === 'diag' && diags.length) diags[diags.length - 1] = content.replace('.', '');
    else if (name === 'note' && noteKind && current && content) (notesOf(current)[noteKind] ??= []).push(content);
    else if (name === 'extension' && current && extensionChar) (notesOf(current).seventh ??= {})[extensionChar] = content;
    else if (NOTE_KINDS[name]) noteKind = undefined;
    else if (name === 'diag') diags.pop();
    path.pop();
    buffer = '';
  };
  parser.write(text).close();
  if (error) throw new CmsFormatError(`tabular XML is not well formed: ${error.message.split('\n')[0]}`);
  if (!version) throw new CmsFormatError('tabular XML has no <version>; is it the ICD-10-CM tabular list?');
  return { version, notes };
}

/** The serialised code set: the format of `resources/codes/icd10cm-*.json.gz` and of imports. */
export interface CodeSetFile {
  format: 'clindoc-icd10cm/1';
  system: 'ICD-10-CM';
  edition: string;
  source: {
    publisher: string;
    order: { file: string; sha256: string; lines: number; billable: number };
    tabular?: { file: string; sha256: string; version: string };
  };
  /** One code a line in table order: `code<TAB>billable(0|1)<TAB>long title`, codes without the dot. */
  codes: string;
  /** Notes by code without the dot (empty when no tabular list was given). */
  notes: Record<string, CodeNotes>;
}

/**
 * The edition label: the tabular list's version when given, else a year in the order file's
 * name (`icd10cm-order-2023.txt` -> `FY2023`), else what the caller passes.
 */
export function editionOf(order: SourceFile, tabular?: TabularList, explicit?: string): string {
  if (explicit) return explicit;
  if (tabular?.version && /^\d{4}$/.test(tabular.version)) return `FY${tabular.version}`;
  if (tabular?.version) return tabular.version;
  const year = /(20\d\d)/.exec(order.name)?.[1];
  if (!year) throw new CmsFormatError('cannot tell the edition from the file names; give it explicitly (--edition FY2025)');
  return `FY${year}`;
}

/** Builds the serialised code set from the release files. */
export function buildCodeSet(order: SourceFile, tabularFile?: SourceFile, explicitEdition?: string): CodeSetFile {
  const lines = parseOrderFile(order.text);
  const tabular = tabularFile ? parseTabularXml(tabularFile.text) : undefined;
  const known = new Set(lines.map((l) => l.code));
  const notes: Record<string, CodeNotes> = {};
  // Notes of codes the order file lacks (none in a consistent release) are dropped: the order file is the code list.
  for (const [code, n] of tabular?.notes ?? []) if (known.has(code)) notes[code] = n;
  return {
    format: 'clindoc-icd10cm/1',
    system: 'ICD-10-CM',
    edition: editionOf(order, tabular, explicitEdition),
    source: {
      publisher: 'CMS / NCHS (public domain)',
      order: { file: order.name, sha256: order.sha256, lines: lines.length, billable: lines.filter((l) => l.billable).length },
      ...(tabularFile && tabular ? { tabular: { file: tabularFile.name, sha256: tabularFile.sha256, version: tabular.version } } : {}),
    },
    codes: lines.map((l) => `${l.code}\t${l.billable ? 1 : 0}\t${l.long}`).join('\n'),
    notes,
  };
}
