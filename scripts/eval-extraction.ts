/**
 * Text-to-JSON quality figures:
 *  (a) coverage over every schema in ../shared/data/jsonschemabench/<subset>/ — accepted,
 *      answered, answer validates (checked again by an independent ajv instance) — with
 *      rejection reasons grouped by category;
 *  (b) field-level accuracy on the labelled clinical set in resources/eval/extraction/.
 * Run: npx tsx scripts/eval-extraction.ts [--coverage-only|--accuracy-only] [--limit N]
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createExtractionService } from '../main/services/extraction/index.js';
import { createIndependentValidator } from './eval-extraction-validator.js';
import { scoreLabelledSet } from './eval-extraction-accuracy.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const benchDir = join(root, '..', 'shared', 'data', 'jsonschemabench');
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
  const service = createExtractionService();
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
