/**
 * Reads the data sets' CSV files (ACI-Bench, MTS-Dialog) with csv-parse, a maintained RFC 4180
 * parser: quoted fields hold commas, doubled quotes and line breaks, as the dialogues do.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';

/** The rows of a CSV file whose first line names the columns, each as `{column: value}`. */
export function readCsv(path: string): Record<string, string>[] {
  return parse(readFileSync(path, 'utf8'), { columns: true, skip_empty_lines: true, bom: true }) as Record<string, string>[];
}
