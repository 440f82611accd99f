/**
 * Macro detection speed: a 20,000-character dictation against 1, 50 and 500 macros of 3 examples
 * each, beside a naive baseline (case-insensitive exact search for every example). Prints
 * throughput (characters per second) and p50/p99 latency. Never fails on time.
 *
 * "cached" reuses the index built for the same macro list (what a client that sends the same
 * list with every dictation gets); "uncached" builds it on every request.
 *
 * Run: npx tsx bench/macros-bench.ts [--runs N]
 */
import { createMacroService, type MacroDefinition } from '../main/services/macros/index.js';

const TEXT_CHARS = 20_000;
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg >= 0 ? Number(process.argv[runsArg + 1]) : 40;

const VOCABULARY = (
  'normal chest exam abdomen soft nontender regular rate rhythm lungs clear auscultation bilaterally ' +
  'follow up needed return clinic weeks months review systems negative patient tolerated procedure ' +
  'well risks benefits discussed precautions given neuro intact alert oriented pupils equal round ' +
  'reactive light range motion peripheral edema skin warm dry gait station smoking cessation ' +
  'counseling medication reconciliation completed informed consent obtained vital signs reviewed ' +
  'tympanic membranes neck supple capillary refill mood affect appropriate sinus wound clean diet ' +
  'exercise anemia workup pediatric dosing stable color bowel sounds present quadrants throat ' +
  'denies pain shortness breath fever chills labs imaging strength reflexes symmetric oropharynx ' +
  'clubbing cyanosis hydration protection fall risk assessment depression screening immunizations ' +
  'sterile fashion blood loss minimal complications thyroid joint swelling sensation touch referral'
).split(' ');
const GLUE = ['and', 'with', 'of', 'to', 'in', 'no', 'as'];
const CARRIER = [
  'The patient was seen today with her daughter and reports feeling somewhat better.',
  'She describes intermittent symptoms over the past several weeks without clear triggers.',
  'Discussed the plan at length and answered all questions from the family.',
  'History obtained from the patient and from the referring physician letter.',
  'He walked into the room without assistance and sat comfortably during the visit.',
];

function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function makeMacros(count: number, r: () => number): MacroDefinition[] {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const phrase = (): string => {
    const words = Array.from({ length: 2 + Math.floor(r() * 4) }, () => pick(VOCABULARY));
    if (words.length > 2 && r() < 0.5) words.splice(1, 0, pick(GLUE));
    return words.join(' ');
  };
  return Array.from({ length: count }, (_, i) => ({ id: `m${i}`, examples: [phrase(), phrase(), phrase()], expansion_text: `Expansion ${i}.` }));
}

/** About TEXT_CHARS of dictation: carrier sentences, with a macro phrase (some noisy) every few. */
function makeText(macros: MacroDefinition[], r: () => number): string {
  const parts: string[] = [];
  let length = 0;
  while (length < TEXT_CHARS) {
    let sentence = CARRIER[Math.floor(r() * CARRIER.length)];
    if (r() < 0.3) {
      const example = macros[Math.floor(r() * macros.length)].examples[Math.floor(r() * 3)];
      const noisy = r() < 0.5 ? example : example.replace(/ /, ' uh ').toUpperCase();
      sentence = `${noisy}. ${sentence}`;
    }
    parts.push(sentence);
    length += sentence.length + 1;
  }
  return parts.join(' ').slice(0, TEXT_CHARS);
}

function naiveDetect(text: string, macros: MacroDefinition[]): number {
  const lower = text.toLowerCase();
  let found = 0;
  for (const m of macros) {
    for (const e of m.examples) {
      const needle = e.toLowerCase();
      for (let at = lower.indexOf(needle); at >= 0; at = lower.indexOf(needle, at + needle.length)) found++;
    }
  }
  return found;
}

function measure(run: () => void): { p50: number; p99: number } {
  // Warm-up: let the JIT compile the hot paths before timing.
  for (let i = 0; i < 5; i++) run();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    run();
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { p50: at(0.5), p99: at(0.99) };
}

function row(label: string, count: number, chars: number, m: { p50: number; p99: number }, detections: number): void {
  const throughput = chars / (m.p50 / 1000);
  console.log(
    `${label.padEnd(22)} ${String(count).padStart(7)} ${(throughput / 1e6).toFixed(2).padStart(10)} ${m.p50.toFixed(2).padStart(9)} ${m.p99.toFixed(2).padStart(9)} ${String(detections).padStart(11)}`,
  );
}

const { loadavg, cpus } = await import('node:os');
console.log(`Macro detection on ${TEXT_CHARS} characters of dictation, ${RUNS} runs each, node ${process.version}`);
console.log(`${cpus().length} cores, load average ${loadavg()[0].toFixed(1)} (timings scale with contention)`);
{
  // Process-wide warm-up so the first measured row is not paying for JIT compilation.
  const r = random(99);
  const macros = makeMacros(50, r);
  const text = makeText(macros, r);
  const warm = createMacroService({ cacheEntries: 0 });
  for (let i = 0; i < 30; i++) warm.detect({ text, macros });
}
console.log('method                  macros  Mchars/s   p50 ms    p99 ms  detections');
for (const count of [1, 50, 500]) {
  const r = random(count);
  const macros = makeMacros(count, r);
  const text = makeText(macros, r);
  const cached = createMacroService();
  const uncached = createMacroService({ cacheEntries: 0 });
  let detections = 0;
  row('clindoc (cached index)', count, text.length, measure(() => (detections = cached.detect({ text, macros }).detections.length)), detections);
  row('clindoc (uncached)', count, text.length, measure(() => (detections = uncached.detect({ text, macros }).detections.length)), detections);
  row('naive exact search', count, text.length, measure(() => (detections = naiveDetect(text, macros))), detections);
}
