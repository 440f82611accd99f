/**
 * Text-to-JSON quality figures:
 *  (a) coverage over every schema in jsonschemabench/<subset>/ of the data-set folder (CLINDOC_EVAL_DATA) — accepted,
 *      answered, answer validates (checked again by an independent ajv instance) — with
 *      rejection reasons grouped by category;
 *  (b) field-level accuracy on the labelled clinical set in resources/eval/extraction/.
 * Run: npx tsx scripts/eval-extraction.ts [--coverage-only|--accuracy-only] [--limit N]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedExtractor } from '../main/engines/extraction/index.js';
import { createExtractionService } from '../main/services/extraction/index.js';
import { evalDataPath } from './eval-data.js';
import { Ajv } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import * as draft04Module from 'ajv-draft-04';
import * as formatsModule from 'ajv-formats';
import draft06Meta from 'ajv/dist/refs/json-schema-draft-06.json' with { type: 'json' };
import { compileSafeRegExp } from '../main/services/extraction/safe-regexp.js';
import { detectDraft } from '../main/services/extraction/schema-walk.js';

const AjvDraft04 = ((draft04Module as unknown as { default: { default?: unknown } }).default.default ??
  (draft04Module as unknown as { default: unknown }).default) as typeof Ajv;
const addFormats = ((formatsModule as unknown as { default: { default?: unknown } }).default.default ??
  (formatsModule as unknown as { default: unknown }).default) as (ajv: InstanceType<typeof Ajv>) => unknown;

/**
 * A second opinion for the evaluation: fresh ajv instances (one compile per schema, nothing
 * shared with the service) judge each answer. Returns true, or the first error.
 */
function createIndependentValidator(): (schema: unknown, value: unknown) => true | string {
  const regExp = Object.assign((p: string, f: string) => compileSafeRegExp(p, f), { code: 'eval-safe-regexp' });
  const make = (draft: string): InstanceType<typeof Ajv> => {
    const opts = { strict: false, logger: false as const, addUsedSchema: false, code: { regExp } };
    const ajv = draft === '04' ? new AjvDraft04(opts) : draft === '2019' ? (new Ajv2019(opts) as unknown as InstanceType<typeof Ajv>)
      : draft === '2020' ? (new Ajv2020(opts) as unknown as InstanceType<typeof Ajv>) : new Ajv(opts);
    if (draft === '06' || draft === '07') ajv.addMetaSchema(draft06Meta);
    addFormats(ajv);
    return ajv;
  };
  return (schema, value) => {
    try {
      let validate;
      try {
        validate = make(detectDraft(schema)).compile(schema as object);
      } catch (err) {
        if (!/keyword "id"/.test((err as Error).message)) throw err;
        validate = make('04').compile(schema as object);
      }
      if (validate(value)) return true;
      const e = validate.errors?.[0];
      return `${e?.instancePath || '/'} ${e?.message ?? ''} (${e?.schemaPath ?? ''})`;
    } catch (err) {
      return `independent compile failed: ${(err as Error).message.slice(0, 120)}`;
    }
  };
}

interface LabelledCase {
  id: string;
  text: string;
  schema: Record<string, unknown>;
  /** Expected answer; a field absent here is not scored. `null` means "the text does not say". */
  expected: Record<string, unknown>;
  /** Kind of each scored field (for the per-kind table), keyed by dotted path. */
  kinds?: Record<string, string>;
  /** `dev` cases were used while building the engine; `holdout` cases were written after and never tuned on. */
  split?: string;
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
async function scoreLabelledSet(root: string): Promise<void> {
  const file = join(root, 'resources', 'eval', 'extraction', 'labelled-set.json');
  if (!existsSync(file)) {
    console.log(`accuracy: skipped, ${file} is absent`);
    return;
  }
  const cases = (JSON.parse(readFileSync(file, 'utf8')) as { cases: LabelledCase[] }).cases;
  const service = createExtractionService({ extractor: createEmbeddedExtractor() });
  const byKind = new Map<string, { ok: number; total: number }>();
  let ok = 0;
  let total = 0;
  const bySplit = new Map<string, { ok: number; total: number }>();
  const misses: string[] = [];
  for (const c of cases) {
    const answer = await service.extract(c.text, c.schema);
    const results: { path: string; ok: boolean }[] = [];
    score(c.expected, answer, '', results);
    for (const r of results) {
      total++;
      if (r.ok) ok++;
      const sp = bySplit.get(c.split ?? 'dev') ?? { ok: 0, total: 0 };
      sp.total++;
      if (r.ok) sp.ok++;
      bySplit.set(c.split ?? 'dev', sp);
      if (!r.ok) misses.push(`${c.id}.${r.path}: got ${JSON.stringify(pick(answer, r.path))}`);
      const kind = c.kinds?.[r.path] ?? r.path.split('.').pop() ?? r.path;
      const k = byKind.get(kind) ?? { ok: 0, total: 0 };
      k.total++;
      if (r.ok) k.ok++;
      byKind.set(kind, k);
    }
  }
  console.log(`accuracy: ${ok}/${total} fields correct (${((100 * ok) / total).toFixed(1)}%) over ${cases.length} labelled texts`);
  for (const [split, k] of bySplit) console.log(`  split ${split}: ${k.ok}/${k.total} (${((100 * k.ok) / k.total).toFixed(1)}%)`);
  if (process.argv.includes('--verbose')) for (const [kind, k] of [...byKind.entries()].sort()) console.log(`  ${kind.padEnd(22)} ${k.ok}/${k.total}`);
  if (process.argv.includes('--verbose')) for (const m of misses) console.log(`  miss ${m}`);
}

function pick(value: unknown, path: string): unknown {
  return path.split('.').reduce<unknown>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined), value);
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = evalDataPath('jsonschemabench');
const args = process.argv.slice(2);
const limit = args.includes('--limit') ? Number(args[args.indexOf('--limit') + 1]) : Number.POSITIVE_INFINITY;

const SAMPLE_TEXT = readFileSync(join(root, 'resources', 'eval', 'extraction', 'coverage-sample.txt'), 'utf8');

function category(message: string): string {
  if (message.startsWith('schema is invalid')) return 'invalid schema (fails its meta-schema)';
  if (message.includes('cannot be resolved')) return 'unresolvable $ref (external document)';
  if (message.startsWith('unsupported keyword') || message.startsWith('unsupported draft-03')) return 'unsupported keyword';
  if (message.startsWith('schema is unsatisfiable')) return 'unsatisfiable (or not satisfied by the builder)';
  if (message.includes('pattern')) return 'unusable pattern';
  if (message.startsWith('schema cannot be compiled')) return 'does not compile';
  return message.slice(0, 60);
}

async function coverage(): Promise<void> {
  if (!existsSync(benchDir)) {
    console.log(`coverage: skipped, ${benchDir} is absent`);
    return;
  }
  const service = createExtractionService({ extractor: createEmbeddedExtractor() });
  const independent = createIndependentValidator();
  const totals = { total: 0, parsed: 0, accepted: 0, answered: 0, validates: 0 };
  const reasons = new Map<string, { count: number; examples: string[] }>();
  const invalidAnswers: string[] = [];
  const started = performance.now();
  for (const subset of readdirSync(benchDir).filter((d) => !d.includes('.')).sort()) {
    const sub = { total: 0, accepted: 0, validates: 0 };
    for (const file of readdirSync(join(benchDir, subset)).sort()) {
      if (totals.total >= limit) break;
      totals.total++;
      sub.total++;
      let schema: unknown;
      try {
        schema = JSON.parse(readFileSync(join(benchDir, subset, file), 'utf8'));
        totals.parsed++;
      } catch {
        bump(reasons, 'file is not JSON', `${subset}/${file}`);
        continue;
      }
      let answer: unknown;
      try {
        answer = await service.extract(SAMPLE_TEXT, schema);
      } catch (err) {
        bump(reasons, category((err as Error).message), `${subset}/${file}: ${(err as Error).message.slice(0, 140)}`);
        continue;
      }
      totals.accepted++;
      totals.answered++;
      sub.accepted++;
      const verdict = independent(schema, answer);
      if (verdict === true) {
        totals.validates++;
        sub.validates++;
      } else invalidAnswers.push(`${subset}/${file}: ${verdict}`);
    }
    console.log(`  ${subset.padEnd(16)} schemas ${sub.total}  accepted ${sub.accepted} (${pct(sub.accepted, sub.total)})  answer validates ${sub.validates}/${sub.accepted}`);
  }
  console.log(`coverage: ${totals.total} schema files, ${totals.accepted} accepted (${pct(totals.accepted, totals.total)}), ` +
    `${totals.answered} answered, ${totals.validates} answers validate (${pct(totals.validates, totals.answered)}), ` +
    `${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log('rejections by category:');
  for (const [reason, { count, examples }] of [...reasons.entries()].sort((a, b) => b[1].count - a[1].count)) {
    console.log(`  ${String(count).padStart(5)}  ${reason}`);
    for (const e of examples) console.log(`           e.g. ${e}`);
  }
  if (invalidAnswers.length > 0) {
    console.log(`answers that did NOT validate (${invalidAnswers.length}):`);
    for (const line of invalidAnswers.slice(0, 20)) console.log(`  ${line}`);
  }
}

function bump(map: Map<string, { count: number; examples: string[] }>, key: string, example: string): void {
  const entry = map.get(key) ?? { count: 0, examples: [] };
  entry.count++;
  if (entry.examples.length < (args.includes('--verbose') ? 50 : 3)) entry.examples.push(example);
  map.set(key, entry);
}

const pct = (a: number, b: number): string => (b === 0 ? 'n/a' : `${((100 * a) / b).toFixed(1)}%`);

if (!args.includes('--accuracy-only')) await coverage();
if (!args.includes('--coverage-only')) await scoreLabelledSet(root);
