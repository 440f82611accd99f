import { describe, expect, it } from 'vitest';
import { understandEncounter } from '../../main/services/encounter/understand.js';
import { writeNoteSync } from '../../main/engines/text/embedded/index.js';

/**
 * The current medication list holds what the patient takes, not what was stopped or only named
 * (issue 24, judged review defect 7). Lines marked ACI are quoted from ACI-Bench valid and
 * clinicalnlp_taskB_test1 (Yim et al. 2023, CC BY 4.0); the others are written for these tests.
 */

const status = (transcript: string): Record<string, string> =>
  Object.fromEntries(understandEncounter({ transcript }).medications.map((m) => [m.name.toLowerCase(), m.status]));

describe('current medications', () => {
  it('marks a drug stopped when the next sentence says so of it ("they stopped that")', () => {
    const transcript = "[doctor] you were on hydrochlorothiazide before .\n[doctor] but they stopped that in the hospital .";
    expect(status(transcript)['hydrochlorothiazide']).toBe('stopped');
    const note = writeNoteSync({ transcript, noteType: { type: 'soap' }, language: 'en' }).markdown;
    expect(note.split('### Current Medications')[1] ?? '').not.toMatch(/hydrochlorothiazide/i);
  });

  it('keeps a list said after "taking" as taken (ACI valid D2N080) and a drug named in passing off the list', () => {
    expect(status('[patient] i\'m taking a farxiga and amlodipine and lisinopril and the hydrochlorothiazide .')).toEqual({ farxiga: 'current', amlodipine: 'current', lisinopril: 'current', hydrochlorothiazide: 'current' });
    expect(status('[doctor] medicines like ibuprofen can raise your blood pressure .')['ibuprofen']).toBe('mentioned');
  });

  it('writes what the patient tried in the history, not as current (ACI valid D2N070)', () => {
    const transcript = "[doctor] what have you tried for the pain ?\n[patient] i took some tylenol , i took some ibuprofen , i used a little bit of icy heat on the spot but it really did n't seem to help .";
    expect(status(transcript)).toEqual({ tylenol: 'past', ibuprofen: 'past' });
    const note = writeNoteSync({ transcript, noteType: { type: 'soap' }, language: 'en' }).markdown;
    expect(note).toMatch(/tried Tylenol and Ibuprofen/);
    expect(note).not.toContain('### Current Medications');
  });
});

describe('drugs the patient says were never taken (written for these tests)', () => {
  it('keeps a drug denied in answer to "did they put you on" off every list, and never writes it as stopped', () => {
    const transcript = "[doctor] did they put you on any prednisone ?\n[patient] nope .\n[doctor] and you're taking the albuterol inhaler ?\n[patient] yes , two puffs as needed .";
    expect(status(transcript)).toEqual({ prednisone: 'mentioned', albuterol: 'current' });
    const note = writeNoteSync({ transcript, noteType: { type: 'soap' }, language: 'en' }).markdown;
    expect(note).not.toMatch(/prednisone/i);
  });

  it('still reads "are you still taking X?" "no" as stopped', () => {
    expect(status('[doctor] are you still taking the lisinopril ?\n[patient] no .')).toEqual({ lisinopril: 'stopped' });
  });
});
