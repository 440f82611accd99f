import { describe, expect, it } from 'vitest';
import { understandEncounter } from '../../main/services/encounter/understand.js';
import { fallsUnder } from '../../main/services/encounter/denials.js';
import { writeNoteSync } from '../../main/engines/text/embedded/index.js';

/**
 * A denial covers what was asked and answered no, and never contradicts what the patient reports
 * (issue 24, judged review defect 2). Fragments are written for these tests in the shape of
 * ACI-Bench dialogue; the RA line is quoted from ACI-Bench clinicalnlp_taskB_test1 D2N089
 * (Yim et al. 2023, CC BY 4.0).
 */

const denied = (transcript: string): string[] => understandEncounter({ transcript }).symptoms.filter((s) => s.presence === 'denied').map((s) => s.term);

describe('denials within their scope', () => {
  it('does not write "denies joint pain" for a patient who came for elbow pain', () => {
    const transcript = "[doctor] what brings you in today ?\n[patient] i've had pain in my right elbow for about two weeks .\n[doctor] any other joint pain ?\n[patient] no , just the elbow .\n[doctor] any fever ?\n[patient] no .";
    expect(denied(transcript)).toEqual(['fever']);
    const note = writeNoteSync({ transcript, noteType: { type: 'soap' }, language: 'en' }).markdown;
    expect(note).not.toMatch(/denies[^.]*joint pain/i);
    expect(note).toMatch(/elbow pain/i);
  });

  it('does not deny urinary symptoms beside a reported urinary complaint', () => {
    expect(fallsUnder('urinary symptoms', 'urinary incontinence')).toBe(true);
    expect(fallsUnder('cough', 'productive cough')).toBe(true);
    expect(fallsUnder('back pain', 'low back pain')).toBe(true);
    expect(fallsUnder('chest pain', 'abdominal pain')).toBe(false);
    expect(fallsUnder('joint pain', 'chest pain')).toBe(false);
  });

  it('keeps the denial a quiet chronic condition allows (ACI test1 D2N089)', () => {
    const transcript = "[doctor] how is your rheumatoid arthritis doing ?\n[patient] i haven't had any joint pain recently .\n[doctor] okay , and for your rheumatoid arthritis , continue the methotrexate .";
    expect(denied(transcript)).toContain('joint pain');
  });

  it('takes an answer that names one symptom of a list as covering that one only', () => {
    expect(denied('[doctor] any fever , chills or body aches ?\n[patient] no fever .')).toEqual(['fever']);
  });
});

/**
 * An incontinent patient denied "urinary symptoms" in the twelfth reading: leaking urine, bladder control and
 * diapers are incontinence, a member of the group, so the group is not denied. Written for these tests.
 */
describe('incontinence is a urinary symptom', () => {
  const transcript = [
    '[doctor] how have you been since the shunt was placed ?',
    '[patient] much better . before that i had problems with walking , thinking and bladder control . i still wear a diaper at night because of leaking urine .',
    '[doctor] any burning with urination or other urinary symptoms ?',
    '[patient] no .',
  ].join('\n');

  it('reads the incontinence as reported and denies only the burning', () => {
    const f = understandEncounter({ transcript });
    expect(f.symptoms.filter((s) => s.presence === 'reported').map((s) => s.term)).toContain('urinary incontinence');
    expect(denied(transcript)).toEqual(['dysuria']);
    const note = writeNoteSync({ transcript, noteType: { type: 'soap' }, language: 'en' }).markdown;
    expect(note).not.toMatch(/denies[^.]*urinary symptoms/i);
  });

  it('reads "problems with walking" as no trigger of the symptom said with it', () => {
    const f = understandEncounter({ transcript });
    expect(f.symptoms.find((s) => s.term === 'urinary incontinence')?.modifiers ?? []).not.toContain('on exertion');
  });
});
