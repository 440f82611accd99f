import { describe, it, expect } from 'vitest';
import { fitUtterance } from '../../shared/dictation/fit-utterance.js';
import { findMacroByName, parseUtterance, VOICE_COMMANDS } from '../../shared/dictation/voice-commands.js';

const macros = [
  { id: 'normal-cardiac-exam', examples: ['normal cardiac exam', 'normal heart exam'] },
  { id: 'fu2', examples: ['follow up two weeks'] },
];

describe('voice commands', () => {
  it.each([
    ['scratch that', { kind: 'scratch' }],
    ['Scratch that.', { kind: 'scratch' }],
    ['delete that', { kind: 'scratch' }],
    ['Undo that', { kind: 'undo' }],
    ['new line', { kind: 'break', text: '\n' }],
    ['New paragraph.', { kind: 'break', text: '\n\n' }],
    ['go to end', { kind: 'go-to-end' }],
    ['Go to the end.', { kind: 'go-to-end' }],
    ['cap smith', { kind: 'write', text: 'Smith' }],
    ['Cap smith.', { kind: 'write', text: 'Smith' }],
    ['all caps copd', { kind: 'write', text: 'COPD' }],
    ['insert normal cardiac exam', { kind: 'insert-macro', macroId: 'normal-cardiac-exam' }],
    ['Insert normal heart exam.', { kind: 'insert-macro', macroId: 'normal-cardiac-exam' }],
  ])('"%s" said on its own is a command', (said, command) => {
    expect(parseUtterance(said, macros)).toEqual({ kind: 'command', command });
  });

  it.each([
    'I told him to scratch that itch',
    'I told him to scratch that',
    'Delete that from the list please',
    'Undo that dressing tomorrow',
    'Bottle cap removed',
    'Knee cap pain',
    'Start a new line of therapy',
    'Insert a Foley catheter',
    'We will go to the end of the hall',
  ])('"%s" is dictated as said', (said) => {
    expect(parseUtterance(said, macros)).toEqual({ kind: 'text', text: said });
  });

  it('writes the words after "all caps" at the end of an utterance in capitals', () => {
    expect(parseUtterance('Diagnosis all caps copd.', macros)).toEqual({ kind: 'text', text: 'Diagnosis COPD.' });
    expect(parseUtterance('He wrote it in all caps.', macros)).toEqual({ kind: 'text', text: 'He wrote it in all caps.' });
  });

  it('finds a macro by its id read as words or by a spoken form, and nothing else', () => {
    expect(findMacroByName('normal cardiac exam', macros)).toBe('normal-cardiac-exam');
    expect(findMacroByName('Follow up two weeks', macros)).toBe('fu2');
    expect(findMacroByName('normal lung exam', macros)).toBeUndefined();
  });

  it('lists every command it understands for the help', () => {
    const listed = VOICE_COMMANDS.map((c) => c.say).join(' ');
    for (const phrase of ['scratch that', 'delete that', 'undo that', 'new line', 'new paragraph', 'cap <word>', 'all caps', 'insert <macro name>', 'go to end']) {
      expect(listed).toContain(phrase);
    }
  });
});

describe('an utterance fitted to where it is written', () => {
  it('starts a sentence with a capital and ends it with a full stop when the recogniser gave none', () => {
    expect(fitUtterance('the lungs are clear', 'No fever.', '', { punctuate: true })).toEqual({ text: 'The lungs are clear.', lead: ' ', trail: '', stopped: true });
    expect(fitUtterance('The lungs are clear', '', '', { punctuate: true })).toEqual({ text: 'The lungs are clear.', lead: '', trail: '', stopped: true });
  });

  it('keeps the speaker’s own mark and adds none inside a sentence', () => {
    expect(fitUtterance('Is he allergic?', 'Plan:', '', { punctuate: true }).text).toBe('is he allergic?');
    expect(fitUtterance('Forty year old', 'The patient is a', ' man with fever.', { punctuate: true })).toEqual({ text: 'forty year old', lead: ' ', trail: '', stopped: false });
  });

  it('adds no full stop after a word a sentence cannot end on, and the next utterance goes on in lower case', () => {
    expect(fitUtterance('The exam was not', '', '', { punctuate: true }).text).toBe('The exam was not');
    expect(fitUtterance('A normal cardiac exam.', 'The exam was not', '', { punctuate: true }).text).toBe('a normal cardiac exam.');
  });

  it('continues a sentence after a comma in lower case, but leaves acronyms and I alone', () => {
    expect(fitUtterance('Shortness of breath', 'Chest pain,', '', { punctuate: true }).text).toBe('shortness of breath.');
    expect(fitUtterance('COPD exacerbation', 'History of', '', { punctuate: true }).text).toBe('COPD exacerbation.');
    expect(fitUtterance("I'm not sure", 'Well,', '', { punctuate: true }).text).toBe("I'm not sure.");
  });

  it('adds no mark without dictation formatting and puts no space before a mark or after a line break', () => {
    expect(fitUtterance('lungs clear', 'Exam\n', '', { punctuate: false })).toEqual({ text: 'Lungs clear', lead: '', trail: '', stopped: false });
    expect(fitUtterance('.', 'Done', '', { punctuate: true })).toEqual({ text: '.', lead: '', trail: '', stopped: false });
    expect(fitUtterance('Clear', 'Lungs', 'Heart regular.', { punctuate: true })).toEqual({ text: 'clear.', lead: ' ', trail: ' ', stopped: true });
  });
});
