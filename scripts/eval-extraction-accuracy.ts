import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createExtractionService } from '../main/services/extraction/index.js';

interface LabelledCase {
  id: string;
  text: string;
  schema: Record<string, unknown>;
  /** Expected answer; a field absent here is not scored. `null` means "the text does not say". */
  expected: Record<string, unknown>;
  /** Kind of each scored field (for the per-kind table), keyed by dotted path. */
  kinds?: Record<string, string>;
}

const norm = (v: unknown): string => String(v).toLowerCase().replace(/\s+/g, ' ').replace(/[.]$/, '').trim();

/** A leaf is right when equal after normalising case and spacing (numbers within 0.05). */
function same(expected: unknown, actual: unknown): boolean {
  if (expected === null || actual === null || expected === undefined || actual === undefined) return (expected ?? null) === (actual ?? null);
  if (typeof expected === 'number') return typeof actual === 'number' && Math.abs(expected - actual) <= 0.05;
  if (typeof expected === 'boolean') return expected === actual;
  return norm(expected) === norm(actual);
}

/** Arrays are compared as sets (order-free); objects field by field. */
function score(expected: unknown, actual: unknown, path: string, out: { path: string; ok: boolean }[]): void {
  if (Array.isArray(expected)) {
    const got = Array.isArray(actual) ? actual : [];
    const ok = expected.length === got.length && expected.every((e) => got.some((g) => deepSame(e, g)));
    out.push({ path, ok });
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    const a = actual !== null && typeof actual === 'object' ? (actual as Record<string, unknown>) : {};
    for (const [k, v] of Object.entries(expected)) score(v, a[k], path ? `${path}.${k}` : k, out);
    return;
  }
  out.push({ path, ok: same(expected, actual) });
}

function deepSame(e: unknown, a: unknown): boolean {
  if (e !== null && typeof e === 'object' && !Array.isArray(e)) {
    if (a === null || typeof a !== 'object') return false;
    return Object.entries(e).every(([k, v]) => deepSame(v, (a as Record<string, unknown>)[k]));
  }
  return same(e, a);
}

/** Scores the labelled set field by field and prints overall and per-kind accuracy. */
export async function scoreLabelledSet(root: string): Promise<void> {
  const file = join(root, 'resources', 'eval', 'extraction', 'labelled-set.json');
  if (!existsSync(file)) {
    console.log(`accuracy: skipped, ${file} is absent`);
    return;
  }
  const cases = (JSON.parse(readFileSync(file, 'utf8')) as { cases: LabelledCase[] }).cases;
  const service = createExtractionService();
  const byKind = new Map<string, { ok: number; total: number }>();
  let ok = 0;
  let total = 0;
  const misses: string[] = [];
  for (const c of cases) {
    const answer = await service.extract(c.text, c.schema);
    const results: { path: string; ok: boolean }[] = [];
    score(c.expected, answer, '', results);
    for (const r of results) {
      total++;
      if (r.ok) ok++;
      else misses.push(`${c.id}.${r.path}: got ${JSON.stringify(pick(answer, r.path))}`);
      const kind = c.kinds?.[r.path] ?? r.path.split('.').pop() ?? r.path;
      const k = byKind.get(kind) ?? { ok: 0, total: 0 };
      k.total++;
      if (r.ok) k.ok++;
      byKind.set(kind, k);
    }
  }
  console.log(`accuracy: ${ok}/${total} fields correct (${((100 * ok) / total).toFixed(1)}%) over ${cases.length} labelled texts`);
  for (const [kind, k] of [...byKind.entries()].sort()) console.log(`  ${kind.padEnd(22)} ${k.ok}/${k.total}`);
  if (process.argv.includes('--verbose')) for (const m of misses) console.log(`  miss ${m}`);
}

function pick(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}
