/**
 * Order and confidence of the codes of one analysis: the main reason for the visit first, then
 * the other conditions, status, history and family codes; confidence from how the code was found.
 */
import type { Candidate } from './conventions.js';
import { isFirstListed } from './first-listed.js';
import type { CodeEntry } from './ports.js';
import type { ParsedTitle } from './words.js';

const TIER: Record<Candidate['role'], number> = { current: 0, status: 1, history: 2, family: 3 };

/**
 * Main reason first: an encounter code the guidelines allow only first-listed (a general
 * examination), then the problem list's order, then the assessment's; conditions named only in
 * passing by how many statements name them; status, history and family codes after; "code first"
 * respected.
 */
export function rank(list: Candidate[], firstOf: [string, string][], titleOf: (e: CodeEntry) => ParsedTitle, firstListed: readonly string[] = []): Candidate[] {
  // A problem named as a heading ranks by the problem list's order, before conditions named only in passing.
  const at = (c: Candidate): number => c.headAt ?? 1e9 + c.firstAt;
  // The reason for the visit ("presents today with back pain") leads, after an encounter code the guidelines list first.
  const first = (c: Candidate): number => (isFirstListed(c.entry.code, firstListed) ? 0 : c.reason && c.role === 'current' ? 1 : 2);
  const sorted = [...list].sort((a, b) => first(a) - first(b) || TIER[a.role] - TIER[b.role] || at(a) - at(b) || titleOf(a.entry).items.length - titleOf(b.entry).items.length);
  // After the reason for the visit, conditions named only in passing rank by how many statements name them (how much of the visit they take).
  const statements = (c: Candidate): number => new Set(c.spans.map((x) => x.start)).size;
  const passing = sorted.slice(1).filter((c) => c.role === 'current' && c.headAt === undefined && !isFirstListed(c.entry.code, firstListed));
  const reordered = [...passing].sort((a, b) => statements(b) - statements(a));
  let k = 0;
  for (let i = 1; i < sorted.length; i++) if (passing.includes(sorted[i]!)) sorted[i] = reordered[k++]!;
  for (const [first, then] of firstOf) {
    const i = sorted.findIndex((c) => c.entry.code === first);
    const j = sorted.findIndex((c) => c.entry.code === then);
    if (i > j && j >= 0 && TIER[sorted[i]!.role] === TIER[sorted[j]!.role]) sorted.splice(j, 0, ...sorted.splice(i, 1));
  }
  return sorted;
}

/** Confidence from the evidence: how the concept was found, whether the words supported the specific code, how busy the note is. */
export function confidenceOf(c: Candidate, total: number, title: ParsedTitle): number {
  let p = c.evidenceScore;
  if (c.symptom && total > 1) p *= 0.92;
  if (title.unspecified && c.role === 'current') p *= 0.97;
  return Math.round(Math.min(0.99, Math.max(0.05, p)) * 100) / 100;
}
