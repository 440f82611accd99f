import { describe, expect, it } from 'vitest';
import { loadCodeTable } from '../../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../../main/engines/coding/lexicon-file.js';
import { createIcdCoder } from '../../main/services/coding/icd-coder.js';
import { readLabelledSet, score, type Prediction } from '../../scripts/coding-scoring.js';

const table = loadCodeTable()!;
const coder = createIcdCoder(table, readCodingLexicon());
const cases = readLabelledSet();
const results = new Map(cases.map((c) => [c.id, coder.analyze(c.text)]));
const predictions: Prediction[] = cases.map((c) => ({ id: c.id, codes: results.get(c.id)!.codes.map((s) => ({ code: s.code, confidence: s.confidence })) }));

describe('embedded coder on the labelled set', () => {
  it('has a gold standard of valid billable FY2021 codes, with a held-out part', () => {
    for (const c of cases) for (const code of [...c.gold, ...c.negated]) expect(table.get(code)?.billable, `${c.id} ${code}`).toBe(true);
    expect(cases.filter((c) => c.split === 'heldout').length).toBeGreaterThanOrEqual(40);
    expect(cases.filter((c) => c.negated.length).length).toBeGreaterThanOrEqual(20);
  });

  it('suggests no code for a negated, ruled-out or uncertain finding', () => {
    expect(score(cases, predictions).fromNegated).toBe(0);
  });

  it('suggests only billable codes of the table, with evidence that is exactly the text it points at', () => {
    for (const c of cases) {
      const points = [...c.text];
      for (const s of results.get(c.id)!.codes) {
        expect(table.get(s.code)?.billable, `${c.id} ${s.code}`).toBe(true);
        expect(s.code).toMatch(/^[A-Z]\d[0-9A-Z](\.[0-9A-Z]{1,4})?$/);
        expect(s.evidence.length).toBeGreaterThan(0);
        for (const e of s.evidence) expect(points.slice(e.start_char, e.end_char).join('')).toBe(e.text);
      }
    }
  });

  it('meets the issue\'s targets on the held-out cases it was never tuned on', () => {
    const held = score(cases.filter((c) => c.split === 'heldout'), predictions);
    expect(held.category.f1).toBeGreaterThanOrEqual(0.85);
    expect(held.full.f1).toBeGreaterThanOrEqual(0.7);
  });

  it('is calibrated: a higher confidence bucket is not less often right (5 points of slack, buckets of 10 or more)', () => {
    const rows = score(cases, predictions).calibration.filter((r) => r.count >= 10);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < rows.length; i++) expect(rows[i]!.accuracy).toBeGreaterThanOrEqual(rows[i - 1]!.accuracy - 0.05);
  });
});
