import { describe, expect, it } from 'vitest';
import { writeNoteSync } from '../../main/engines/text/embedded/index.js';

/**
 * The chief complaint when no reason for the visit is said (a physician's reading of held-out notes found a shunt
 * follow-up written "Urinary incontinence": the first symptom the patient mentioned). The transcripts are written for
 * these tests.
 */
const cc = (transcript: string): string | undefined => /### Chief Complaint\n\n([^\n]+)/.exec(writeNoteSync({ transcript, noteType: { type: 'soap' }, language: 'en' }).markdown)?.[1];

describe('the chief complaint without a stated reason for the visit', () => {
  it('names the first confirmed problem when the first symptom is an aside to it', () => {
    const t = [
      '[doctor] good morning , how have you been ?',
      "[patient] i've had some anxiety with all the work deadlines .",
      '[doctor] and the joint in your big toe ?',
      '[patient] it swelled up again last week , it was red and hot .',
      '[doctor] on exam , the right first toe joint is swollen and tender .',
      "[doctor] so for your gout , we'll start colchicine 0.6 mg twice a day .",
    ].join('\n');
    expect(cc(t)).toBe('Gout.');
  });

  it('keeps a pain as the complaint of its diagnosis', () => {
    const t = [
      '[doctor] good morning .',
      '[patient] my right knee has been hurting since i twisted it playing soccer .',
      '[doctor] on exam , there is tenderness along the medial joint line of the right knee .',
      "[doctor] you have a medial collateral ligament strain , we'll get you a knee brace .",
    ].join('\n');
    expect(cc(t)).toMatch(/^Right knee pain\.$/);
  });

  it('keeps the first symptom when it shares a word with the problem or the problem is only possible', () => {
    const headaches = [
      '[doctor] good morning .',
      "[patient] i've had headaches every morning for two weeks .",
      "[doctor] i think these are tension headaches , let's try ibuprofen 400 mg as needed .",
    ].join('\n');
    expect(cc(headaches)).toMatch(/^Headache/);
    const possible = [
      '[doctor] good morning .',
      "[patient] i've had a fever and some chills since saturday .",
      "[doctor] this could be lyme disease , we'll send a lyme titer .",
    ].join('\n');
    expect(cc(possible)).toBe('Fever.');
  });
});
