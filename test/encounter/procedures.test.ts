import { describe, expect, it } from 'vitest';
import { understandEncounter } from '../../main/services/encounter/understand.js';
import { readDoses } from '../../main/services/clinical-language/doses.js';
import { writeNoteSync } from '../../main/engines/text/embedded/index.js';

/**
 * Procedures done in the visit (a physician's reading of held-out notes found a knee aspiration and steroid injection
 * written as "Triamcinolone 1 mL" among the home medications and no procedure in the plan). The transcripts are
 * written for these tests.
 */
const VISIT = [
  '[doctor] hi , what brings you in ?',
  '[patient] my right knee has been swollen and painful for two weeks .',
  '[doctor] on exam , there is a moderate effusion of the right knee .',
  "[doctor] okay , let's talk about my assessment and plan .",
  '[doctor] for your right knee effusion , i recommend we aspirate the knee and inject a steroid .',
  '[patient] okay .',
  "[doctor] so i'm going to clean the knee , then i'll inject 1 ml of lidocaine , and then aspirate the fluid .",
  '[doctor] the fluid is blood tinged .',
  "[doctor] now i'm injecting 80 mg of triamcinolone into the right knee .",
  "[doctor] i'd like you to start physical therapy .",
].join('\n');

describe('a procedure done in the visit', () => {
  it('writes the aspiration with its fluid and what was injected, under the problem of that part', () => {
    const f = understandEncounter({ transcript: VISIT });
    const knee = f.problems.find((p) => /knee/.test(p.name));
    expect(knee?.plan.filter((i) => i.kind === 'procedure').map((i) => i.text)).toEqual(['Aspiration of the right knee; fluid blood-tinged; injection with lidocaine 1 mL and triamcinolone 80 mg']);
    expect(knee?.plan.some((i) => i.kind === 'medication')).toBe(false);
    expect(f.medications.filter((m) => m.status === 'current')).toEqual([]);
  });

  it('keeps the injected drugs off the medication list when the procedure is done during the exam', () => {
    const t = [
      '[doctor] what brings you in ?',
      '[patient] my left shoulder hurts .',
      "[doctor] let me examine it . there's tenderness over the subacromial space .",
      "[doctor] i'm going to inject 40 mg of kenalog and 2 cc of lidocaine into the left shoulder now .",
      "[doctor] okay , for your left shoulder bursitis , we'll start physical therapy .",
    ].join('\n');
    const f = understandEncounter({ transcript: t });
    expect(f.medications.filter((m) => m.status === 'current').map((m) => m.name)).toEqual([]);
    const note = writeNoteSync({ transcript: t, noteType: { type: 'soap' }, language: 'en' }).markdown;
    expect(note).toContain('Injection of the left shoulder with kenalog 40 mg and lidocaine 2 mL.');
  });

  it('reads a procedure dictated in the passive, with the fluid drawn off', () => {
    const t = [
      '[doctor] hi , what brings you in ?',
      '[patient] my left knee keeps swelling up .',
      '[doctor] on exam , there is a large effusion of the left knee .',
      "[doctor] okay , let's talk about my assessment and plan .",
      "[doctor] for your left knee effusion , let's go ahead and aspirate it today .",
      '[doctor] the left knee was prepped in the usual sterile fashion .',
      '[doctor] 2 cc of lidocaine was injected , and 30 cc of straw colored fluid was aspirated .',
      '[doctor] then 40 mg of kenalog was injected into the left knee .',
    ].join('\n');
    const plan = understandEncounter({ transcript: t }).problems.flatMap((p) => p.plan).filter((i) => i.kind === 'procedure');
    expect(plan.map((i) => i.text)).toEqual(['Aspiration of the left knee; fluid 30 mL, straw-colored; injection with lidocaine 2 mL and kenalog 40 mg']);
  });

  it('reads an injection offered, weighed or explained as no procedure done', () => {
    for (const line of [
      'if it does not improve , we could try a cortisone injection into the shoulder .',
      "i'm recommending a spinal injection , and what i do is i will inject the corticosteroid into the spine .",
    ]) {
      const f = understandEncounter({ transcript: `[doctor] okay , let's talk about my assessment and plan .\n[doctor] for your shoulder pain , ${line}` });
      expect([...f.plan, ...f.problems.flatMap((p) => p.plan)].some((i) => i.kind === 'procedure' && i.text), line).toBe(false);
    }
  });

  it('reads "half a cc" as 0.5 mL', () => {
    expect(readDoses('with half a cc of lidocaine').map((d) => d.text)).toEqual(['0.5 mL']);
    expect(readDoses('half an hour later')).toEqual([]);
  });
});
