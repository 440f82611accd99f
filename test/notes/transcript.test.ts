import { describe, it, expect } from 'vitest';
import { parseTurns, toSentences } from '../../main/engines/text/embedded/transcript.js';
import { splitSentences } from '../../main/services/clinical-language/tokenize.js';
import { cleanUtterance } from '../../main/engines/text/embedded/clean.js';

describe('transcript understanding', () => {
  it('reads bracket, colon and named-doctor tags', () => {
    const turns = parseTurns('[doctor] how are you?\nPatient: my knee hurts.\nDr. Lee: since when?\n[patient] two weeks.');
    expect(turns.map((t) => t.role)).toEqual(['doctor', 'patient', 'doctor', 'patient']);
    expect(turns[1]!.text).toBe('my knee hurts.');
  });

  it('works out who the doctor is when speakers are anonymous', () => {
    const turns = parseTurns(
      'Speaker 1: I have had this pain in my back for a week and I feel stiff.\nSpeaker 2: Okay. Do you have any numbness? Let me take a look. I am going to order an x-ray.\nSpeaker 1: No numbness. My job is lifting boxes.\nSpeaker 2: How long have you worked there? We will start physical therapy.',
    );
    expect(turns.filter((t) => t.speaker === 'Speaker 2').every((t) => t.role === 'doctor')).toBe(true);
    expect(turns.filter((t) => t.speaker === 'Speaker 1').every((t) => t.role === 'patient')).toBe(true);
  });

  it('repairs doctor and patient tags that are swapped', () => {
    const turns = parseTurns(
      '[patient] what brings you in today? do you have any fever? how long has this been going on? let me take a look. i am going to order labs and we will follow up.\n[doctor] i have had a cough for a week and i feel tired.\n[patient] any chest pain? i want you to rest. we will prescribe something.\n[doctor] no chest pain. my wife has a cold.',
    );
    expect(turns[0]!.role).toBe('doctor');
    expect(turns[1]!.role).toBe('patient');
  });

  it('repairs swapped tags when the clinician asks for the history in plain words and the patient tells it', () => {
    const swapped = [
      "[doctor] thanks for seeing me , i've been dealing with my asthma and i'm having trouble breathing when i swim",
      '[patient] sure , what can i help you with today ? what inhaler are you using now ?',
      '[doctor] i have an albuterol inhaler and i start coughing and i start wheezing after a few laps',
      '[patient] okay , can you describe what happens ? how often are you using it ?',
      "[doctor] maybe twice a week , and i hate how shaky it makes me , i was wondering about something else",
      '[patient] i recommend a daily controller inhaler .',
    ].join('\n');
    const turns = parseTurns(swapped);
    expect(turns.find((t) => t.text.startsWith('i recommend'))!.role).toBe('doctor');
    expect(turns.find((t) => t.text.startsWith('i have an albuterol'))!.role).toBe('patient');
  });

  it('repairs tags shifted by one turn, where the clinician-like speaker is only moderately clearer', () => {
    const shifted = [
      '[doctor] okay you can start',
      "[patient] hi maria good to see you so i see here you're coming in for a sore throat",
      '[doctor] how long has it been going on',
      "[patient] about five days now and it's worse when i swallow okay have you had a fever",
      "[doctor] no fever but i feel tired",
      '[patient] alright and any cough',
      "[doctor] a little at night my husband had a cold last week",
      "[patient] okay let me take a look at your throat so i'm going to order a strep test and we'll call you with the result",
      '[doctor] okay thank you',
    ].join('\n');
    const turns = parseTurns(shifted);
    expect(turns.find((t) => t.text.startsWith('okay let me take a look'))!.role).toBe('doctor');
    expect(turns.find((t) => t.text.startsWith('no fever'))!.role).toBe('patient');
  });

  it('keeps right tags when the patient asks a few questions of their own', () => {
    const turns = parseTurns(
      [
        "[doctor] what brings you in today",
        "[patient] my knee has been hurting for two weeks. is that arthritis? do i need an x-ray?",
        "[doctor] let me take a look. i'm going to order an x-ray and we'll follow up next week.",
        '[patient] okay, how long will the results take?',
        '[doctor] a day or two.',
      ].join('\n'),
    );
    expect(turns[0]!.role).toBe('doctor');
    expect(turns[1]!.role).toBe('patient');
  });

  it('keeps untagged text as one speaker and still splits sentences', () => {
    const sentences = toSentences(parseTurns('The patient presents with cough. Dr. Smith referred her. She denies fever.'));
    expect(sentences.map((s) => s.text)).toEqual(['The patient presents with cough.', 'Dr. Smith referred her.', 'She denies fever.']);
  });

  it('cleans ASR artefacts and disfluencies without dropping content', () => {
    expect(cleanUtterance("i , i , i do n't know , um , it's been uh five weeks .")).toBe("i don't know, it's been five weeks.");
    expect(cleanUtterance('the ex- exerting part , you know , hurts')).toBe('the exerting part hurts');
  });

  it('does not split on decimals or titles', () => {
    expect(splitSentences('Her A1c was 7.2 today. Mr. Jones agrees.')).toEqual(['Her A1c was 7.2 today.', 'Mr. Jones agrees.']);
  });
});
