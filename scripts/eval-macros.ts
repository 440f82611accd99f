/**
 * Quality of macro detection on a labelled set generated from the repo's own rules
 * (resources/eval/macros/catalog.json): 60 macros, 20 carrier sentences, and noise of each kind a
 * recogniser or a clinician produces. Prints precision, recall and F1 overall and per category
 * (span-overlap scoring with the right macro id), the false-positive count on negative texts,
 * and how often detections at each confidence level were right.
 *
 * Run: npx tsx scripts/eval-macros.ts [--seed N] [--per-category N] [--min-confidence X]
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createMacroService, MACRO_LIMITS, type MacroDefinition, type MacroDetection } from '../main/services/macros/index.js';

interface Catalog {
  macros: MacroDefinition[];
  carriers: string[];
  fillers: string[];
  triggers: string[];
  homophones: Record<string, string[]>;
  negatives: string[];
  distractors: string[];
  /** Words that change the finding ("normal" -> "abnormal"): near misses that must not fire. */
  contrasts: Record<string, string[]>;
}

interface Gold { macro: string; start: number; end: number }
interface Case { category: string; text: string; gold: Gold[] }

const CATEGORIES = ['exact', 'cased', 'punctuated', 'misspelt', 'sound-alike', 'filler', 'trigger', 'combined', 'two-macros'] as const;

function argValue(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  return i >= 0 && i + 1 < process.argv.length ? Number(process.argv[i + 1]) : fallback;
}

/** Small seeded generator (mulberry32) so every run scores the same set. */
function createRandom(seed: number): { next(): number; pick<T>(xs: readonly T[]): T; int(n: number): number } {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (n) => Math.floor(next() * n), pick: (xs) => xs[Math.floor(next() * xs.length)] };
}
type Random = ReturnType<typeof createRandom>;

const KEYBOARD: Record<string, string> = {
  a: 'qsz', b: 'vn', c: 'xv', d: 'sf', e: 'wr', f: 'dg', g: 'fh', h: 'gj', i: 'uo', j: 'hk', k: 'jl', l: 'k', m: 'n',
  n: 'bm', o: 'ip', p: 'o', q: 'w', r: 'et', s: 'ad', t: 'ry', u: 'yi', v: 'cb', w: 'qe', x: 'zc', y: 'tu', z: 'x',
};

function misspell(word: string, r: Random): string {
  const i = 1 + r.int(word.length - 1);
  switch (r.int(4)) {
    case 0: return word.slice(0, i) + word.slice(i + 1);
    case 1: return i + 1 < word.length ? word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2) : word.slice(0, i);
    case 2: {
      const near = KEYBOARD[word[i].toLowerCase()] ?? 'e';
      return word.slice(0, i) + r.pick([...near]) + word.slice(i + 1);
    }
    default: return word.slice(0, i) + word[i] + word.slice(i);
  }
}

const RESPELL: Array<[RegExp, string]> = [
  [/ph/, 'f'], [/ck/, 'k'], [/c([aou])/, 'k$1'], [/ee/, 'ea'], [/tion/, 'shun'], [/ous$/, 'us'], [/y$/, 'ee'],
  [/er$/, 'ur'], [/al$/, 'le'], [/ght/, 'te'], [/ea/, 'ee'], [/kn/, 'n'], [/wr/, 'r'], [/s$/, 'z'], [/ie/, 'ee'],
];

function soundAlike(words: string[], catalog: Catalog, r: Random): string[] | null {
  const order = words.map((_, i) => i).sort(() => r.next() - 0.5);
  for (const i of order) {
    const options = catalog.homophones[words[i].toLowerCase()];
    if (options !== undefined) return words.map((w, k) => (k === i ? r.pick(options) : w));
  }
  for (const i of order) {
    for (const [re, to] of RESPELL) {
      if (words[i].length >= 4 && re.test(words[i])) return words.map((w, k) => (k === i ? w.replace(re, to) : w));
    }
  }
  return null;
}

function recase(phrase: string, r: Random): string {
  switch (r.int(4)) {
    case 0: return phrase.toUpperCase();
    case 1: return phrase.replace(/\b\p{L}/gu, (c) => c.toUpperCase());
    case 2: return phrase.charAt(0).toUpperCase() + phrase.slice(1);
    default: return [...phrase].map((c) => (r.next() < 0.35 ? c.toUpperCase() : c)).join('');
  }
}

function punctuate(words: string[], r: Random): string {
  const seps = words.slice(1).map(() => r.pick([' ', ' ', ', ', '-', ' - ', '... ', ': ', ' / ']));
  let out = words[0] + words.slice(1).map((w, i) => seps[i] + w).join('');
  const wrap = r.int(4);
  if (wrap === 1) out = `"${out}"`;
  else if (wrap === 2) out = `(${out})`;
  else if (wrap === 3) out = out + r.pick(['!', '?', ';', ',']);
  return out;
}

function withFillers(words: string[], catalog: Catalog, r: Random): string {
  const out = [...words];
  const count = words.length > 2 && r.next() < 0.3 ? 2 : 1;
  for (let k = 0; k < count; k++) out.splice(1 + r.int(out.length - 1), 0, r.pick(catalog.fillers));
  return out.join(' ');
}

function noisy(category: string, example: string, catalog: Catalog, r: Random): string | null {
  const words = example.split(/\s+/);
  const misspelt = (): string[] => {
    const idx = words.map((w, i) => (w.length >= 4 ? i : -1)).filter((i) => i >= 0);
    if (idx.length === 0) return words;
    const copy = [...words];
    const times = idx.length >= 3 && r.next() < 0.3 ? 2 : 1;
    for (let k = 0; k < times; k++) {
      const i = r.pick(idx);
      copy[i] = misspell(copy[i], r);
    }
    return copy;
  };
  switch (category) {
    case 'exact': return example;
    case 'cased': return recase(example, r);
    case 'punctuated': return words.length > 1 ? punctuate(words, r) : `"${example}".`;
    case 'misspelt': return words.some((w) => w.length >= 4) ? misspelt().join(' ') : null;
    case 'sound-alike': return soundAlike(words, catalog, r)?.join(' ') ?? null;
    case 'filler': return words.length > 1 ? withFillers(words, catalog, r) : null;
    case 'trigger': return `${r.pick(catalog.triggers)} ${example}`;
    case 'combined': {
      const base = r.next() < 0.5 ? misspelt() : soundAlike(words, catalog, r) ?? misspelt();
      const phrase = base.length > 1 ? withFillers(base, catalog, r) : base.join(' ');
      return r.next() < 0.5 ? recase(phrase, r) : phrase;
    }
    default: return null;
  }
}

const cpLength = (s: string): number => [...s].length;

/** Whether some example of some macro appears verbatim (case-insensitively, as whole words) in `text`. */
function containsAnyExample(text: string, macros: MacroDefinition[]): boolean {
  const lower = ` ${text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ')} `;
  return macros.some((m) => m.examples.some((e) => lower.includes(` ${e.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim()} `)));
}

/** Builds the labelled set. */
export function buildLabelledSet(catalog: Catalog, seed: number, perCategory: number): Case[] {
  const r = createRandom(seed);
  const cases: Case[] = [];
  const place = (carrier: string, phrase: string): { text: string; start: number } => {
    const at = carrier.indexOf('{M}');
    return { text: carrier.slice(0, at) + phrase + carrier.slice(at + 3), start: cpLength(carrier.slice(0, at)) };
  };
  for (const macro of catalog.macros) {
    const others = catalog.macros.filter((m) => m.id !== macro.id);
    for (const category of CATEGORIES) {
      for (let k = 0; k < perCategory; k++) {
        const phrase = noisy(category === 'two-macros' ? r.pick(['exact', 'cased', 'misspelt', 'filler']) : category, r.pick(macro.examples), catalog, r);
        if (phrase === null) continue;
        const carrier = r.pick(catalog.carriers);
        let { text, start } = place(carrier, phrase);
        const gold: Gold[] = [{ macro: macro.id, start, end: start + cpLength(phrase) }];
        if (category === 'two-macros') {
          const second = r.pick(others);
          const p2 = r.pick(second.examples);
          const s2 = cpLength(text) + 1;
          text = `${text} ${p2}. Nothing further.`;
          gold.push({ macro: second.id, start: s2, end: s2 + cpLength(p2) });
        }
        // Labels must be the whole truth: drop texts where a carrier happens to contain another macro.
        const outside = [...text].filter((_, i) => !gold.some((g) => i >= g.start && i < g.end)).join('');
        if (containsAnyExample(outside, catalog.macros)) continue;
        cases.push({ category, text, gold });
      }
    }
  }
  for (const text of catalog.negatives) cases.push({ category: 'negative', text, gold: [] });
  for (const macro of catalog.macros) {
    for (let k = 0; k < Math.max(1, Math.round(perCategory / 2)); k++) {
      const words = r.pick(macro.examples).split(/\s+/);
      // Shares the macro's words but not its phrase: scrambled with other words between, or cut short.
      const scrambled = [...words].sort(() => r.next() - 0.5).flatMap((w, i) => (i === 0 ? [w] : [r.pick(catalog.distractors), w]));
      const truncated = words.length > 1 ? [...words.slice(0, -1), r.pick(catalog.distractors)] : null;
      // A near miss: the phrase with one finding reversed ("abnormal chest exam").
      const flip = words.findIndex((w) => catalog.contrasts[w.toLowerCase()] !== undefined);
      const contrasted = flip < 0 ? null : words.map((w, i) => (i === flip ? r.pick(catalog.contrasts[w.toLowerCase()]) : w));
      // The phrase with an ordinary word inside it ("abdomen is soft and non-tender").
      const cut = 1 + r.int(Math.max(1, words.length - 1));
      const interrupted = words.length > 1 ? [...words.slice(0, cut), r.pick(catalog.distractors), ...words.slice(cut)] : null;
      for (const variant of [scrambled, truncated, contrasted, interrupted]) {
        if (variant === null) continue;
        const text = place(r.pick(catalog.carriers), variant.join(' ')).text;
        if (!containsAnyExample(text, catalog.macros)) cases.push({ category: 'negative', text, gold: [] });
      }
    }
  }
  return cases;
}

interface Tally { tp: number; fp: number; fn: number; texts: number }

function score(gold: Gold[], found: MacroDetection[], t: Tally): boolean[] {
  const used = new Set<number>();
  const correct = found.map((d) => {
    const g = gold.findIndex((x, i) => !used.has(i) && x.macro === d.macro_id && d.text_span.start_char < x.end && x.start < d.text_span.end_char);
    if (g < 0) return false;
    used.add(g);
    return true;
  });
  t.tp += used.size;
  t.fp += correct.filter((c) => !c).length;
  t.fn += gold.length - used.size;
  t.texts += 1;
  return correct;
}

const f3 = (x: number): string => (Number.isFinite(x) ? x.toFixed(3) : '  -  ');

function main(): void {
  const catalogPath = fileURLToPath(new URL('../resources/eval/macros/catalog.json', import.meta.url));
  const catalog = JSON.parse(readFileSync(catalogPath, 'utf8')) as Catalog;
  const seed = argValue('--seed', 7);
  const minConfidence = argValue('--min-confidence', MACRO_LIMITS.defaultMinConfidence);
  const cases = buildLabelledSet(catalog, seed, argValue('--per-category', 4));
  const service = createMacroService();
  const tallies = new Map<string, Tally>();
  const byConfidence: Array<{ confidence: number; correct: boolean }> = [];
  const misses: string[] = [];
  for (const c of cases) {
    const all = service.detect({ text: c.text, macros: catalog.macros, min_confidence: 0 });
    const scratch: Tally = { tp: 0, fp: 0, fn: 0, texts: 0 };
    score(c.gold, all.detections, scratch).forEach((ok, i) => byConfidence.push({ confidence: all.detections[i].confidence, correct: ok }));
    const kept = all.detections.filter((d) => d.confidence >= minConfidence);
    const t = tallies.get(c.category) ?? { tp: 0, fp: 0, fn: 0, texts: 0 };
    tallies.set(c.category, t);
    const ok = score(c.gold, kept, t);
    if (process.argv.includes('--verbose') && (ok.includes(false) || kept.length < c.gold.length)) {
      misses.push(`${c.category}: ${JSON.stringify(c.text)} -> ${JSON.stringify(kept.map((d) => [d.macro_id, d.text_span.text, d.confidence]))}`);
    }
  }
  console.log(`Macro detection, generated labelled set (seed ${seed}): ${cases.length} texts, ${catalog.macros.length} macros, min_confidence ${minConfidence}`);
  console.log('category      texts   TP   FP   FN  precision  recall     F1');
  const total: Tally = { tp: 0, fp: 0, fn: 0, texts: 0 };
  for (const name of [...CATEGORIES, 'negative']) {
    const t = tallies.get(name);
    if (t === undefined) continue;
    total.tp += t.tp; total.fp += t.fp; total.fn += t.fn; total.texts += t.texts;
    printRow(name, t);
  }
  printRow('overall', total);
  console.log('\nReliability (all candidates at min_confidence 0): share of detections that were right');
  const edges = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97, 1.01];
  for (let b = 0; b + 1 < edges.length; b++) {
    const inBin = byConfidence.filter((x) => x.confidence >= edges[b] && x.confidence < edges[b + 1]);
    const right = inBin.filter((x) => x.correct).length;
    console.log(`  [${edges[b].toFixed(2)}, ${Math.min(1, edges[b + 1]).toFixed(2)}${b + 2 === edges.length ? ']' : ')'}  n=${String(inBin.length).padStart(5)}  right=${f3(right / inBin.length)}`);
  }
  for (const line of misses) console.log(line);
}

function printRow(name: string, t: Tally): void {
  const p = t.tp / (t.tp + t.fp);
  const rcl = t.tp / (t.tp + t.fn);
  const f1 = (2 * p * rcl) / (p + rcl);
  console.log(`${name.padEnd(12)} ${String(t.texts).padStart(6)} ${String(t.tp).padStart(4)} ${String(t.fp).padStart(4)} ${String(t.fn).padStart(4)}  ${f3(p).padStart(9)} ${f3(rcl).padStart(7)} ${f3(f1).padStart(6)}`);
}

main();
