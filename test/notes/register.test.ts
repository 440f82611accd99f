/**
 * Each rewrite rule of the embedded writer's clinical register, held with short fragments of
 * real visit transcripts (ACI-Bench train/valid, Yim et al. 2023, CC BY 4.0; lower case and
 * spaced punctuation as the data set writes them).
 */
import { describe, expect, it } from 'vitest';
import { cleanUtterance } from '../../main/engines/text/embedded/clean.js';
import { normaliseNumbers } from '../../main/services/clinical-language/normalise.js';
import { readsAsConversation } from '../../main/services/clinical-language/conversation.js';
import {
  keepWritten, stripTalk, toAssessmentStatement, toClinicianHistory, toExamStatements, toPatientStatement, toPlanStatement, toResultStatement,
} from '../../main/engines/text/embedded/register.js';
import { problemOpened } from '../../main/engines/text/embedded/problems.js';
import { parseTurns } from '../../main/engines/text/embedded/transcript.js';
import { createEmbeddedNoteWriter } from '../../main/engines/text/embedded/index.js';

/** A fragment as the writer sees it: cleaned, numbers written as digits. */
const said = (s: string): string => normaliseNumbers(cleanUtterance(s));
const writer = createEmbeddedNoteWriter();
const soap = async (transcript: string): Promise<string> => (await writer.write({ transcript, noteType: { type: 'soap' }, language: 'en' })).markdown;

describe('clinical register: what is said becomes what is written', () => {
  it('drops openers, fillers and tag questions but no clinical word', () => {
    expect(stripTalk(said('okay so , um , the pain is worse at night , okay ?'))).toBe('the pain is worse at night');
    expect(keepWritten('Okay, his blood pressure is 120/80.', readsAsConversation)).toBe('His blood pressure is 120/80.');
  });

  it.each([
    ["and i wan na go ahead and increase your lasix to 80 mg once a day .", 'medication', 'Increase lasix to 80 mg once a day.'],
    ["so , i wan na go ahead and continue with the lisinopril 20 mg a day .", 'medication', 'Continue lisinopril 20 mg a day.'],
    ["and i'd like to refer you to physical therapy to kind of strengthen that area .", 'referral', 'Refer to physical therapy to strengthen that area.'],
    ["now , if you're still having symptoms , i wan na go ahead and , uh , order an mri", 'testing', 'If he is still having symptoms, order an mri.'],
    ['i want you to weigh yourself every day .', 'advice', 'The patient was advised to weigh himself every day.'],
    ["i want you to call me if you're gaining more weight .", 'advice', 'The patient was advised to call if he is gaining more weight.'],
    ["i wan na see you again in a couple weeks , okay ?", 'followup', 'Follow up in a couple weeks.'],
    ["let's go ahead and start you on metformin five hundred milligrams twice a day .", 'medication', 'Start metformin 500 mg twice a day.'],
  ])('plan "%s" -> %s order', (spoken, act, written) => {
    expect(toPlanStatement(said(spoken), 'male')).toEqual({ act, text: written });
  });

  it('leaves the visit narration out of the plan', () => {
    expect(toPlanStatement(said("so , i'm gon na just take a listen to a few things and check some things out"), 'male')).toBeUndefined();
    expect(toPlanStatement(said("i'm gon na do a quick physical exam"), 'male')).toBeUndefined();
  });

  it('turns the spoken exam into findings labelled by region', () => {
    expect(toExamStatements(said("on your heart exam , i do appreciate a three out of six systolic ejection murmur"), 'male')).toEqual([
      { region: 'heart', text: 'A 3/6 systolic ejection murmur.' },
    ]);
    expect(toExamStatements(said("and , on your lung exam , i do appreciate some fine crackles at the bases bilaterally , and your lower extremities have , you know , 1+ pitting edema ."), 'male')).toEqual([
      { region: 'lung', text: 'Some fine crackles at the bases bilaterally.' },
      { text: 'Lower extremities have 1+ pitting edema.' },
    ]);
    expect(toExamStatements(said("i don't appreciate any murmur or rub ."), 'female')).toEqual([{ text: 'No murmur or rub.' }]);
    expect(toExamStatements(said('on throat examination there is bilateral erythema and edema of the peritonsillar space'), 'female')[0]!.text).toBe(
      'Bilateral erythema and edema of the peritonsillar space.',
    );
  });

  it('files results under the test read out', () => {
    expect(toResultStatement(said('so , looking here at the results of your chest x-ray , it does look like you have a little bit of fluid in your lungs there'), 'male')).toEqual({
      label: 'Chest x-ray', text: 'A little bit of fluid in his lungs there.',
    });
    expect(toResultStatement(said('this is the echocardiogram that we did about four months ago , and this shows that the pumping function of your heart is a little bit reduced at 45 %'), 'male')).toEqual({
      label: 'Echocardiogram', text: 'The pumping function of his heart is a little bit reduced at 45%.',
    });
  });

  it('writes impressions and history in the third person, keeping uncertainty', () => {
    expect(toAssessmentStatement(said("i think you're retaining fluid"), 'male')).toBe('I believe he is retaining fluid.');
    expect(toClinicianHistory(said("i know that we've kinda talked about you being able to watch your healthy food intake"), 'male')).toBe(
      'We have talked about him being able to watch his healthy food intake.',
    );
    expect(toPatientStatement(said('went to washington last weekend to hike'), 'female')).toBe('She went to washington last weekend to hike.');
  });

  it('reads the problem the clinician takes up, by its condition name', () => {
    expect(problemOpened(said("so , for your first problem , your congestive heart failure , i think you're retaining fluid"))).toEqual({
      name: 'Congestive heart failure', rest: "i think you're retaining fluid",
    });
    expect(problemOpened(said("lastly , for your high blood pressure , it looks like you're managing it well"))?.name).toBe('Hypertension');
    expect(problemOpened(said('so for your first problem i think you have an acute lumbar , um , strain'))).toEqual({ name: 'Acute lumbar strain', rest: '' });
  });

  it('joins a sentence the listener cut with "mm-hmm"', () => {
    const turns = parseTurns('[doctor] on your physical examination , i do appreciate some jugular venous distention to-\n[patient] mm-hmm .\n[doctor] to about eight centimeters .');
    expect(turns).toHaveLength(1);
    expect(turns[0]!.text).toMatch(/distention to to about eight centimeters/);
  });
});

describe('question and answer become findings', () => {
  it('"any chest pain?" "no" is a denial; a duration answer dates the complaint', async () => {
    const md = await soap('[doctor] what brings you in today ?\n[patient] i have had a cough .\n[doctor] how long has that been going on ?\n[patient] about five weeks or so .\n[doctor] any chest pain ?\n[patient] no .');
    expect(md).toMatch(/Denies chest pain/);
    expect(md).toMatch(/reports cough for about 5 weeks\./);
    expect(md).not.toMatch(/About 5 weeks or so\./);
    expect(md).toMatch(/### Chief Complaint\n\nCough\./);
  });

  it('a yes or no to "are you taking your medications?" is a statement, and agreement to the plan is recorded', async () => {
    const md = await soap("[doctor] are you taking your medications ?\n[patient] yes , i am .\n[doctor] i'm going to order an echocardiogram .\n[doctor] does that sound like a plan ?\n[patient] that sounds fine .");
    expect(md).toMatch(/Reports taking medications as prescribed\./);
    expect(md).toMatch(/The patient understands and agrees with the recommended treatment plan\./);
  });

  it('denies each condition asked as a list', async () => {
    const md = await soap('[doctor] do you have any other issues , like high blood pressure or heart disease ?\n[patient] no .');
    expect(md).toMatch(/denies a history of hypertension or heart disease\./);
  });
});

describe('numbers and medications', () => {
  it('never writes a number it cannot read with certainty', async () => {
    const md = await soap('[doctor] on your heart exam there is a three out of six six systolic ejection murmur .\n[doctor] your lungs are clear .');
    expect(md).not.toMatch(/3\/6|out of 6/);
    expect(md).toMatch(/lungs are clear/i);
  });

  it('keeps a decimal duration whole ("two and a half weeks" is never "5 weeks")', async () => {
    const md = await soap('[doctor] how long ago did that happen\n[patient] about two and a half weeks ago');
    expect(md).toMatch(/Onset about 2\.5 weeks ago\./);
    expect(md).not.toMatch(/(?<![\d.])5 weeks/);
  });

  it('lists a current medication whose dose was said in the next sentence', async () => {
    const md = await soap("[doctor] are you taking the lisinopril i think\n[doctor] we have you on twenty milligrams a day\n[patient] yep i take it every morning");
    expect(md).toMatch(/Lisinopril 20 mg once daily\./);
  });
});
