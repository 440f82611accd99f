import { describe, it, expect } from 'vitest';
import { piecesFromDetections, pieceText, segmentsText, shownTexts } from '../../renderer/state/transcript-pieces.js';

const macros = [
  { id: 'exam', examples: ['physical exam'], expansion_text: 'Physical exam: lungs clear.' },
  { id: 'fu', examples: ['follow up'], expansion_text: 'Follow-up in 2 weeks.' },
];
const ids = (): (() => number) => {
  let n = 0;
  return () => ++n;
};

describe('macro expansions in the dictated text', () => {
  it('replaces each detected span by its expansion and can show the spoken words again', () => {
    const text = 'Normal physical exam today, follow up soon';
    const pieces = piecesFromDetections(
      text,
      [
        { macro_id: 'fu', text_span: { start_char: 28, end_char: 37, text: 'follow up' }, confidence: 0.9 },
        { macro_id: 'exam', text_span: { start_char: 7, end_char: 20, text: 'physical exam' }, confidence: 0.95 },
      ],
      macros,
      ids(),
    );
    expect(pieces.map(pieceText).join('')).toBe('Normal Physical exam: lungs clear. today, Follow-up in 2 weeks. soon');
    const undone = pieces.map((p) => (p.kind === 'macro' && p.macroId === 'exam' ? { ...p, undone: true } : p));
    expect(segmentsText([{ id: 1, pieces: undone, pending: false }])).toBe('Normal physical exam today, Follow-up in 2 weeks. soon');
  });

  it('counts spans in code points, so text after an emoji is cut in the right place', () => {
    const text = '😀 physical exam';
    const pieces = piecesFromDetections(text, [{ macro_id: 'exam', text_span: { start_char: 2, end_char: 15, text: 'physical exam' }, confidence: 1 }], macros, ids());
    expect(pieces.map(pieceText)).toEqual(['😀 ', 'Physical exam: lungs clear.']);
  });

  it('keeps the text when a detection overlaps another or names an unknown macro', () => {
    const text = 'physical exam follow up';
    const pieces = piecesFromDetections(
      text,
      [
        { macro_id: 'exam', text_span: { start_char: 0, end_char: 13, text: 'physical exam' }, confidence: 1 },
        { macro_id: 'fu', text_span: { start_char: 9, end_char: 23, text: 'exam follow up' }, confidence: 1 },
        { macro_id: 'nope', text_span: { start_char: 14, end_char: 23, text: 'follow up' }, confidence: 1 },
      ],
      macros,
      ids(),
    );
    expect(pieces.map(pieceText).join('')).toBe('Physical exam: lungs clear. follow up');
  });
});

describe('punctuation where an expansion meets the dictated text', () => {
  const exam = (expansion: string, text: string) => {
    const pieces = piecesFromDetections(
      text,
      [{ macro_id: 'exam', text_span: { start_char: 7, end_char: 20, text: 'physical exam' }, confidence: 1 }],
      [{ id: 'exam', examples: ['physical exam'], expansion_text: expansion }],
      ids(),
    );
    return { pieces, undo: () => pieces.map((p) => (p.kind === 'macro' ? { ...p, undone: true } : p)) };
  };
  const shown = (pieces: Parameters<typeof shownTexts>[0]): string => segmentsText([{ id: 1, pieces, pending: false }]);

  it('shows one period, not two, and the spoken period again once the expansion is undone', () => {
    const { pieces, undo } = exam('Physical exam: lungs clear.', 'Normal physical exam. Next');
    expect(shown(pieces)).toBe('Normal Physical exam: lungs clear. Next');
    expect(shownTexts(pieces)).toEqual(['Normal ', 'Physical exam: lungs clear.', ' Next']);
    expect(shown(undo())).toBe('Normal physical exam. Next');
  });

  it('keeps one mark for "?", "!" and ",", and the stronger of two different marks', () => {
    expect(shown(exam('Lungs clear?', 'Normal physical exam?').pieces)).toBe('Normal Lungs clear?');
    expect(shown(exam('Lungs clear!', 'Normal physical exam!').pieces)).toBe('Normal Lungs clear!');
    expect(shown(exam('Lungs clear,', 'Normal physical exam, heart regular').pieces)).toBe('Normal Lungs clear, heart regular');
    expect(shown(exam('Lungs clear,', 'Normal physical exam. Heart regular').pieces)).toBe('Normal Lungs clear. Heart regular');
    expect(shown(exam('Lungs clear.', 'Normal physical exam?').pieces)).toBe('Normal Lungs clear?');
  });

  it('leaves an expansion without final punctuation as it is', () => {
    expect(shown(exam('Lungs clear', 'Normal physical exam. Next').pieces)).toBe('Normal Lungs clear. Next');
  });
});
