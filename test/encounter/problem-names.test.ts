import { describe, expect, it } from 'vitest';
import { problemName, tidyProblems } from '../../main/services/encounter/problem-names.js';
import type { PlanItem, Problem } from '../../main/services/encounter/types.js';

/** Problem names as a clinician writes them, one problem per condition (names written for these tests). */
const problem = (name: string, certainty: Problem['certainty'] = 'confirmed', plan: PlanItem[] = []): Problem => ({ name, status: 'unknown', certainty, reasoning: [], plan, evidence: [] });
const xray: PlanItem = { kind: 'imaging', target: 'x-ray', evidence: [] };

describe('a problem name as written', () => {
  it('drops the words of speech a name was said with', () => {
    expect(problemName('basically just a strain')).toBe('strain');
    expect(problemName('those kidney stones')).toBe('kidney stones');
    expect(problemName('evidence of any fracture')).toBe('fracture');
    expect(problemName('hep c diagnosis')).toBe('hep c');
  });

  it('names no problem from a part of the visit or a judgement', () => {
    for (const name of ['diagnosis', 'physical exam', 'surgery', 'favorable diagnosis', 'pain']) expect(problemName(name), name).toBeUndefined();
    // An annual exam is a heading clinicians write (and code: Z00.00), with its screenings under it.
    expect(problemName('annual exam')).toBe('annual exam');
    expect(problemName('knee pain')).toBe('knee pain');
  });
});

describe('one problem per condition', () => {
  it('joins a condition named again more precisely, under the precise name, with both plans', () => {
    const general: PlanItem[] = [];
    const out = tidyProblems([problem('impingement syndrome', 'probable', [xray]), problem('hypertension'), problem('impingement syndrome of left shoulder')], general);
    expect(out.map((p) => [p.name, p.certainty, p.plan.length])).toEqual([['impingement syndrome of left shoulder', 'confirmed', 1], ['hypertension', 'confirmed', 0]]);
    expect(tidyProblems([problem('diabetes'), problem('type 2 diabetes mellitus')], general).map((p) => p.name)).toEqual(['type 2 diabetes mellitus']);
  });

  it('keeps apart conditions at two places, a different condition sharing a word, and one ruled out', () => {
    const general: PlanItem[] = [];
    expect(tidyProblems([problem('knee pain'), problem('shoulder pain')], general)).toHaveLength(2);
    expect(tidyProblems([problem('hypertension'), problem('idiopathic intracranial hypertension')], general)).toHaveLength(2);
    expect(tidyProblems([problem('fracture', 'ruled-out'), problem('ankle fracture')], general)).toHaveLength(2);
  });

  it('moves the orders of a name that is no condition to the visit\'s plan', () => {
    const general: PlanItem[] = [];
    expect(tidyProblems([problem('diagnosis', 'confirmed', [xray]), problem('gout')], general).map((p) => p.name)).toEqual(['gout']);
    expect(general).toEqual([xray]);
  });
});
