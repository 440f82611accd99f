import { describe, expect, it } from 'vitest';
import { understandEncounter } from '../../main/services/encounter/understand.js';
import { stripTalk } from '../../main/services/encounter/talk.js';
import { laterality } from '../../main/services/encounter/attributes.js';

/** Exam manoeuvres asked and answered, written for these tests (no encounter of any data set). */
const HISTORY = '[patient] my wrist has hurt for two weeks since i fell on it .\n[doctor] okay . any numbness ?\n[patient] no .\n';
const exam = (lines: string): { finding: string; region?: string; laterality?: string; presence: string; quoted: string[] }[] => {
  const transcript = HISTORY + "[doctor] let me examine you .\n" + lines;
  return understandEncounter({ transcript }).exam.map((e) => ({
    finding: e.finding, presence: e.presence, ...(e.region ? { region: e.region } : {}), ...(e.laterality ? { laterality: e.laterality } : {}),
    quoted: e.evidence.map((ev) => transcript.slice(ev.start, ev.end)),
  }));
};

describe('exam findings from asked-and-answered manoeuvres', () => {
  it('charts "does it hurt when I press" answered yes as tenderness, with the question and answer as evidence', () => {
    const found = exam('[doctor] does it hurt when i press on your right wrist here ?\n[patient] yes , it does .');
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ finding: 'tenderness to palpation', region: 'wrist', laterality: 'right', presence: 'reported' });
    expect(found[0]!.quoted.join(' ')).toMatch(/press on your right wrist[\s\S]*yes/);
  });

  it('charts a "no" as a pertinent negative and a follow-up manoeuvre from "how about when I bend it"', () => {
    const found = exam('[doctor] is it tender when i press on the outside of your wrist ?\n[patient] no .\n[doctor] how about when i bend it ?\n[patient] a little bit .');
    expect(found.map((f) => [f.finding, f.presence])).toEqual([
      ['no tenderness to palpation laterally', 'denied'],
      ['mild pain with flexion', 'reported'],
    ]);
  });

  it('reads an unpunctuated ask and a reply that says the pain in its own words', () => {
    const found = exam('[doctor] let me look at your lower back if you bend forward does that hurt\n[patient] it hurts a little when i bend yes\n[doctor] how about when you stand back up\n[patient] that also hurts');
    expect(found.map((f) => [f.region, f.finding])).toEqual([
      ['lower back', 'mild pain with flexion'],
      ['lower back', 'pain with extension'],
    ]);
  });

  it('writes nothing for a reply that neither affirms nor denies, or speaks of another time', () => {
    expect(exam('[doctor] does it hurt when i press here ?\n[patient] about the same as before .')).toEqual([]);
    expect(exam('[doctor] does it hurt when you bend it ?\n[patient] well it hurt before the injection , but it is fine now .')).toEqual([]);
  });

  it('keeps a finding once when the clinician also states it ("there is tenderness")', () => {
    const found = exam('[doctor] does it hurt when i press on your wrist ?\n[patient] yes .\n[doctor] okay , so on exam there is tenderness over the distal radius .');
    expect(found.map((f) => f.finding)).toEqual(['tenderness over distal radius']);
  });

  it('reads a finding with an adverb between speaker and verb ("you definitely have")', () => {
    const found = exam('[doctor] on your exam , you definitely have some swelling over the wrist .');
    expect(found.map((f) => f.finding)).toEqual(['swelling over wrist']);
  });
});

describe('spoken ends and sides', () => {
  it('removes a closing tag only after a comma or as a question, never the end of a word', () => {
    expect(stripTalk('let me take a quick look.')).toBe('let me take a quick look.');
    expect(stripTalk('the pain is on the right.')).toBe('the pain is on the right.');
    expect(stripTalk('your lungs sound okay.')).toBe('your lungs sound okay.');
    expect(stripTalk('we will start lisinopril, okay?')).toBe('we will start lisinopril');
    expect(stripTalk('the x-ray is normal, right?')).toBe('the x-ray is normal');
  });

  it('reads no side from "right here", "right now" or "that\'s right"', () => {
    expect(laterality('when i push right here on your back')).toBeUndefined();
    expect(laterality('it hurts right now')).toBeUndefined();
    expect(laterality("that's right , it is swollen")).toBeUndefined();
    expect(laterality('the pain is in my right knee')).toBe('right');
  });
});
