import { describe, expect, it } from 'vitest';
import { conversationCues, noteStatements, readsAsConversation } from '../../main/services/clinical-language/conversation.js';

describe('conversation detector', () => {
  it.each([
    ['have the patient had any more of that chest pain since they put that stent in or is that completely gone?', 'question'],
    ['do you have any chest pain', 'question'],
    ['On your heart exam I do appreciate a slight 3 out of 6 systolic ejection murmur.', 'second-person'],
    ["I've been feeling tired lately.", 'first-person'],
    ['My knee hurts when I climb stairs.', 'first-person'],
    ["Let's take a look at your x-ray.", 'first-person'],
    ['Um, the pain is worse at night.', 'filler'],
    ['Okay, so the pain started on Monday.', 'filler'],
    ['Hi Wayne, how are things today.', 'greeting'],
    ['I want to go ahead and order an echocardiogram.', 'hedge'],
    ['He is gonna start physical therapy.', 'filler'],
    ["It's been a struggle.", 'contraction'],
    ['Hey Dragon, show me the vital signs.', 'device-command'],
  ])('"%s" reads as conversation (%s)', (sentence, cue) => {
    expect(conversationCues(sentence)).toContain(cue);
    expect(readsAsConversation(sentence)).toBe(true);
  });

  it.each([
    'Denies chest pain.',
    'Heart: 3/6 systolic ejection murmur at the left base.',
    'Continue Crestor 40 mg daily.',
    'Echocardiogram in 6 months.',
    'I advised her to monitor her blood pressures at home and report them to me.',
    'We will order a repeat echocardiogram.',
    'She will contact me with any questions or concerns.',
    'The patient and I had a lengthy discussion regarding treatment options.',
    'It has been 6 months since I last saw the patient.',
    'She reports that work has been going okay.',
    'Regarding his heart failure, he has been pretty good with his salt intake.',
  ])('"%s" is a clinical statement', (sentence) => {
    expect(conversationCues(sentence)).toEqual([]);
  });

  it('reads a note into statements without headings, list markers or labels', () => {
    const note = '# SOAP Note\n\nCHIEF COMPLAINT\n\nCough.\n\n### Review of Systems\n\n- Constitutional: Denies fever. Reports fatigue.\n1. **Hypertension.** Continue lisinopril 20 mg daily.';
    expect(noteStatements(note)).toEqual(['Cough.', 'Denies fever.', 'Reports fatigue.', 'Hypertension.', 'Continue lisinopril 20 mg daily.']);
  });
});
