import { describe, expect, it } from 'vitest';
import { loadCodeTable } from '../../main/engines/coding/code-table.js';
import { readCodingLexicon } from '../../main/engines/coding/lexicon-file.js';
import { createIcdCoder } from '../../main/services/coding/icd-coder.js';
import { readAciCases, scoreAci, underMustNot, type RankedAnswer } from '../../scripts/aci-coding.js';

// The independent ACI-Bench labels live beside the repository (CLINDOC_EVAL_DATA); without them there is nothing to check.
const cases = readAciCases();
const table = loadCodeTable()!;

describe.skipIf(!cases)('embedded coder on the independent ACI-Bench labels (tuning splits valid and test1)', () => {
  const coder = createIcdCoder(table, readCodingLexicon());
  const tuning = (cases ?? []).filter((c) => c.split !== 'test2');
  const answers: RankedAnswer[] = tuning.map((c) => ({ id: c.id, codes: coder.analyze(c.note).codes, ms: 0 }));

  it('reads labels of billable FY2021 codes, one primary per visit', () => {
    expect(tuning.length).toBe(60);
    for (const c of cases!) {
      expect(c.codes.filter((x) => x.primary).length, c.id).toBe(1);
      for (const x of c.codes) expect(table.get(x.code)?.billable, `${c.id} ${x.code}`).toBe(true);
    }
    expect(underMustNot('S82.61XA', 'S82')).toBe(true);
    expect(underMustNot('S83.8X1A', 'S83.1')).toBe(false);
  });

  it('keeps the figures it reached on the tuning splits (a regression guard, not the held-out measure)', () => {
    const s = scoreAci(tuning, answers, 'note');
    expect(s.category.f1).toBeGreaterThanOrEqual(0.85);
    expect(s.full.f1).toBeGreaterThanOrEqual(0.75);
    expect(s.hit1).toBeGreaterThanOrEqual(0.65);
    expect(s.mustNot).toBeLessThanOrEqual(2);
    expect(s.spansExact).toBe(1);
  });
});
