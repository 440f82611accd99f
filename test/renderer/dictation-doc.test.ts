import { describe, it, expect } from 'vitest';
import {
  applyCommand, docFromText, docText, editText, emptyDoc, expandUtterance, expansions, insertUtterance, select, toggleExpansion,
  undoThat, unsureWords, type DictationDoc,
} from '../../renderer/state/dictation-doc.js';
import { parseUtterance } from '../../shared/dictation/voice-commands.js';

const macros = [
  { id: 'exam', examples: ['physical exam'], expansion_text: 'Physical exam: lungs clear.' },
  { id: 'cardiac', examples: ['normal cardiac exam'], expansion_text: 'Heart regular rate and rhythm, no murmurs.' },
];
const word = (w: string, confidence = 0.9) => ({ word: w.toLowerCase(), punctuated_word: w, start: 0, end: 0, confidence });

/** Dictates `text` as a final, the way the dictation store does with formatting on. */
function say(doc: DictationDoc, text: string, mode: 'end' | 'cursor' = 'end', words = text.split(' ').map((w) => word(w))): DictationDoc {
  const parsed = parseUtterance(text, macros);
  if (parsed.kind === 'command') return applyCommand(doc, parsed.command, { mode, macros });
  return insertUtterance(doc, parsed.text, { mode, punctuate: true, words }).doc;
}

/** Dictates `text` and applies a detection of `spoken` as macro `macroId`, as POST /v1/macros/detect would. */
function sayWithMacro(doc: DictationDoc, text: string, spoken: string, macroId: string): DictationDoc {
  const { doc: next, utterance } = insertUtterance(doc, text, { mode: 'end', punctuate: true });
  const sent = next.pending[utterance]!.text;
  const start = Array.from(sent.slice(0, sent.indexOf(spoken))).length;
  return expandUtterance(next, utterance, [{ macro_id: macroId, text_span: { start_char: start, end_char: start + Array.from(spoken).length, text: spoken }, confidence: 0.9 }], macros);
}

/** Types `typed` at offset `at`, as the editor reports it: the new text and the caret after it. */
const typeAt = (doc: DictationDoc, at: number, typed: string): DictationDoc => {
  const text = docText(doc);
  return editText(doc, text.slice(0, at) + typed + text.slice(at), { start: at + typed.length, end: at + typed.length });
};

describe('dictation document', () => {
  it('writes finals one after another as sentences, each with a capital and a full stop', () => {
    let doc = say(emptyDoc(), 'the patient has a cough');
    doc = say(doc, 'No fever');
    expect(docText(doc)).toBe('The patient has a cough. No fever.');
  });

  it('keeps a typed edit and a later final both, with the final at the end by default', () => {
    let doc = say(emptyDoc(), 'The patient has a cough');
    doc = typeAt(doc, 'The patient has a '.length, 'dry ');
    doc = say(doc, 'No fever');
    expect(docText(doc)).toBe('The patient has a dry cough. No fever.');
  });

  it('writes finals at the cursor when asked, and dictation goes on from there', () => {
    let doc = say(emptyDoc(), 'Cough for three days', 'cursor');
    doc = say(doc, 'Lungs clear', 'cursor');
    doc = select(doc, { start: 'Cough for three days.'.length, end: 'Cough for three days.'.length });
    doc = say(doc, 'no fever', 'cursor');
    doc = say(doc, 'no chills', 'cursor');
    expect(docText(doc)).toBe('Cough for three days. No fever. No chills. Lungs clear.');
    doc = say(doc, 'go to end', 'cursor');
    doc = say(doc, 'Follow up in a week', 'cursor');
    expect(docText(doc)).toBe('Cough for three days. No fever. No chills. Lungs clear. Follow up in a week.');
  });

  it('inside a sentence at the cursor, writes lower case without a full stop', () => {
    let doc = docFromText('The patient is a man with fever.');
    doc = select(doc, { start: 'The patient is a'.length, end: 'The patient is a'.length });
    doc = say(doc, 'Forty year old', 'cursor');
    expect(docText(doc)).toBe('The patient is a forty year old man with fever.');
  });

  it('keeps a macro mark and its undo when text before it is edited', () => {
    let doc = sayWithMacro(emptyDoc(), 'Normal physical exam.', 'physical exam', 'exam');
    expect(docText(doc)).toBe('Normal Physical exam: lungs clear.');
    doc = typeAt(doc, 0, 'Today. ');
    const [mark] = expansions(doc);
    expect(mark).toMatchObject({ macroId: 'exam', expansion: 'Physical exam: lungs clear.', undone: false });
    doc = toggleExpansion(doc, mark!.id);
    expect(docText(doc)).toBe('Today. Normal physical exam.');
    doc = toggleExpansion(doc, mark!.id);
    expect(docText(doc)).toBe('Today. Normal Physical exam: lungs clear.');
  });

  it('keeps the mark when the expansion itself is edited, and undo shows the spoken words', () => {
    let doc = sayWithMacro(emptyDoc(), 'Normal physical exam.', 'physical exam', 'exam');
    const at = docText(doc).indexOf('clear');
    doc = typeAt(doc, at, 'very ');
    expect(docText(doc)).toBe('Normal Physical exam: lungs very clear.');
    expect(expansions(doc)[0]!.expansion).toBe('Physical exam: lungs very clear.');
    doc = toggleExpansion(doc, expansions(doc)[0]!.id);
    expect(docText(doc)).toBe('Normal physical exam.');
  });

  it('drops the mark of an expansion the physician selected whole and replaced', () => {
    let doc = sayWithMacro(emptyDoc(), 'Normal physical exam.', 'physical exam', 'exam');
    const text = docText(doc);
    doc = editText(doc, 'Normal exam deferred.', { start: 'Normal exam deferred.'.length, end: 'Normal exam deferred.'.length });
    expect(text).not.toBe(docText(doc));
    expect(expansions(doc)).toEqual([]);
    expect(docText(doc)).toBe('Normal exam deferred.');
  });

  it('leaves an utterance as edited when its macros come back after the edit', () => {
    const { doc: sent, utterance } = insertUtterance(emptyDoc(), 'Normal physical exam.', { mode: 'end', punctuate: true });
    const edited = typeAt(sent, 'Normal '.length, 'very ');
    const doc = expandUtterance(edited, utterance, [{ macro_id: 'exam', text_span: { start_char: 7, end_char: 20, text: 'physical exam' }, confidence: 0.9 }], macros);
    expect(docText(doc)).toBe('Normal very physical exam.');
    expect(doc.pending).toEqual({});
  });

  it('marks words the recogniser was unsure of, and a corrected word loses its mark', () => {
    let doc = say(emptyDoc(), 'Start lisinopril ten mg', 'end', [word('Start'), word('lisinopril', 0.31), word('ten'), word('mg', 0.42)]);
    expect(unsureWords(doc).map((w) => w.text)).toEqual(['lisinopril', 'mg']);
    const [first] = unsureWords(doc);
    const text = docText(doc);
    doc = editText(doc, text.slice(0, first!.start) + 'losartan' + text.slice(first!.end), { start: first!.start + 8, end: first!.start + 8 });
    expect(docText(doc)).toBe('Start losartan ten mg.');
    expect(unsureWords(doc).map((w) => w.text)).toEqual(['mg']);
  });

  it('"scratch that" removes the last utterance, also after a typed edit elsewhere; "undo that" brings it back', () => {
    let doc = say(emptyDoc(), 'No fever');
    doc = say(doc, 'Blood pressure high');
    doc = typeAt(doc, 0, 'Seen today. ');
    doc = say(doc, 'scratch that');
    expect(docText(doc)).toBe('Seen today. No fever.');
    doc = say(doc, 'undo that');
    expect(docText(doc)).toBe('Seen today. No fever. Blood pressure high.');
    doc = say(doc, 'delete that');
    doc = say(doc, 'delete that');
    expect(docText(doc)).toBe('Seen today. ');
  });

  it('"undo that" first undoes an expansion, then the utterance', () => {
    let doc = say(emptyDoc(), 'Cough');
    doc = sayWithMacro(doc, 'Normal physical exam.', 'physical exam', 'exam');
    expect(docText(doc)).toBe('Cough. Normal Physical exam: lungs clear.');
    doc = undoThat(doc);
    expect(docText(doc)).toBe('Cough. Normal physical exam.');
    doc = undoThat(doc);
    expect(docText(doc)).toBe('Cough.');
  });

  it('carries out new line, new paragraph, cap, all caps and insert <macro>', () => {
    let doc = say(emptyDoc(), 'Chest pain');
    doc = say(doc, 'new paragraph');
    doc = say(doc, 'Seen by');
    doc = say(doc, 'cap smith');
    doc = say(doc, 'new line');
    doc = say(doc, 'Diagnosis all caps copd');
    doc = say(doc, 'insert normal cardiac exam');
    expect(docText(doc)).toBe('Chest pain.\n\nSeen by Smith.\nDiagnosis COPD. Heart regular rate and rhythm, no murmurs.');
    expect(expansions(doc).map((m) => m.macroId)).toEqual(['cardiac']);
    doc = say(doc, 'undo that');
    expect(docText(doc)).toBe('Chest pain.\n\nSeen by Smith.\nDiagnosis COPD.');
  });

  it('keeps the editor’s caret in place when a final lands before it, and moves it past a final at the caret', () => {
    let doc = say(emptyDoc(), 'No fever', 'cursor');
    doc = select(doc, { start: 3, end: 3 });
    doc = say(doc, 'Go to end', 'cursor');
    doc = say(doc, 'Lungs clear', 'cursor');
    expect(doc.selection).toEqual({ start: 3, end: 3 });
    doc = select(doc, { start: docText(doc).length, end: docText(doc).length });
    doc = say(doc, 'Heart regular', 'cursor');
    expect(doc.selection.end).toBe(docText(doc).length);
  });
});
