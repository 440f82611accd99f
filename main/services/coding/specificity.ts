/**
 * Specificity: below an anchor ("osteoarthritis", "chronic kidney disease") the billable code
 * whose title the text supports best. Every word a title requires must be in the text
 * ("left", "3a", "exacerbation"); a "without X" title needs X absent; the unspecified code
 * wins only when the text says no more.
 */
import type { CodeEntry, CodeTable } from './ports.js';
import { parseTitle, type ParsedTitle } from './words.js';

/** What the text says around one mention. */
export interface MentionContext {
  /** Words the text affirms, with weights (the mention's own words 1, its neighbours a little more). */
  positive: Map<string, number>;
  /** Words the text says are absent ("without aura", "no coma"). */
  absent: Set<string>;
}

export interface CodeChoice {
  entry: CodeEntry;
  score: number;
  /** Every word the title requires is in the text. */
  supported: boolean;
  /** Required words the text supplied. */
  matched: string[];
}

const MISSING = -10;

/** Parses titles once per table. */
export function createTitleCache(softWords: ReadonlySet<string>): (entry: CodeEntry) => ParsedTitle {
  const cache = new Map<string, ParsedTitle>();
  return (entry) => {
    let parsed = cache.get(entry.code);
    if (!parsed) cache.set(entry.code, (parsed = parseTitle(entry.title, softWords)));
    return parsed;
  };
}

/** Scores one billable code against the mention's context. */
export function scoreCode(entry: CodeEntry, title: ParsedTitle, ctx: MentionContext): CodeChoice {
  let score = 0;
  let supported = true;
  const matched: string[] = [];
  for (const { word: first, mode, alt } of title.items) {
    // Of alternatives ("tear or rupture") the one the text says counts.
    const word = (!ctx.positive.has(first) && alt?.find((w) => ctx.positive.has(w))) || first;
    const weight = ctx.positive.get(word);
    if (mode === 'required') {
      if (weight !== undefined) {
        score += weight;
        matched.push(word);
      } else {
        score += MISSING;
        supported = false;
      }
    } else if (mode === 'soft') score += weight !== undefined ? 0.5 * weight : -0.2;
    else if (mode === 'generic') score += weight !== undefined ? 0.5 * weight : 0;
    else if (weight !== undefined) {
      score += MISSING;
      supported = false;
    } else if (ctx.absent.has(word)) score += 1;
  }
  if (title.other) score -= 0.5;
  if (title.unspecified) score -= 0.1;
  return { entry, score, supported, matched };
}

const better = (a: CodeChoice, b: CodeChoice, size: (c: CodeChoice) => number): boolean =>
  a.score > b.score + 1e-9 || (Math.abs(a.score - b.score) <= 1e-9 && size(a) < size(b));

/** Billable candidates below the anchors, in table order, without duplicates. */
export function candidatesUnder(table: CodeTable, anchors: readonly CodeEntry[]): CodeEntry[] {
  const seen = new Set<string>();
  const out: CodeEntry[] = [];
  for (const a of anchors) for (const e of table.billableUnder(a.code)) if (!seen.has(e.code)) (seen.add(e.code), out.push(e));
  return out;
}

/**
 * The best billable code below the anchors. When no title is fully supported the plainest
 * "unspecified" code is taken, marked unsupported so its confidence is lower.
 */
export function chooseCode(candidates: readonly CodeEntry[], ctx: MentionContext, titleOf: (e: CodeEntry) => ParsedTitle): CodeChoice | undefined {
  let best: CodeChoice | undefined;
  const size = (c: CodeChoice): number => titleOf(c.entry).items.length;
  const scored = candidates.map((e) => scoreCode(e, titleOf(e), ctx));
  for (const c of scored) if (!best || better(c, best, size)) best = c;
  if (best && !best.supported) {
    let fallback: CodeChoice | undefined;
    for (const c of scored) if (titleOf(c.entry).unspecified && (!fallback || better(c, fallback, size))) fallback = c;
    if (fallback && fallback.score > MISSING * 3) return fallback;
  }
  return best;
}

/**
 * For conditions the table combines with others ("type 2 diabetes mellitus with ..."): every
 * fully supported code that names something beyond the condition itself, one per parent code,
 * or the single best code when there is none (E11.22 and E11.65 may both apply).
 */
export function chooseCombined(
  candidates: readonly CodeEntry[], ctx: MentionContext, titleOf: (e: CodeEntry) => ParsedTitle, ownWords: ReadonlySet<string>,
  groupOf: (e: CodeEntry) => string,
): CodeChoice[] {
  const bySub = new Map<string, CodeChoice>();
  const size = (c: CodeChoice): number => titleOf(c.entry).items.length;
  for (const e of candidates) {
    const c = scoreCode(e, titleOf(e), ctx);
    if (!c.supported || !c.matched.some((w) => !ownWords.has(w))) continue;
    const sub = groupOf(e);
    const prev = bySub.get(sub);
    if (!prev || better(c, prev, size)) bySub.set(sub, c);
  }
  if (bySub.size) return [...bySub.values()].sort((a, b) => b.score - a.score);
  const best = chooseCode(candidates, ctx, titleOf);
  return best ? [best] : [];
}

/**
 * "Bilateral" where the table has no bilateral code ("bilateral knee pain"): the right and the
 * left code, as the table's laterality convention asks. Undefined when a bilateral code exists
 * or the sides do not both fit.
 */
export function chooseBothSides(candidates: readonly CodeEntry[], ctx: MentionContext, titleOf: (e: CodeEntry) => ParsedTitle): CodeChoice[] | undefined {
  if (!ctx.positive.has('bilateral') || candidates.some((e) => titleOf(e).items.some((i) => i.word === 'bilateral'))) return undefined;
  const side = (word: string): CodeChoice | undefined => {
    const positive = new Map(ctx.positive);
    const weight = positive.get('bilateral')!;
    positive.delete('bilateral');
    positive.set(word, weight);
    positive.set('unilateral', weight);
    const choice = chooseCode(candidates, { positive, absent: ctx.absent }, titleOf);
    return choice?.supported && titleOf(choice.entry).items.some((i) => i.word === word) ? choice : undefined;
  };
  const right = side('right');
  const left = side('left');
  return right && left ? [right, left] : undefined;
}
