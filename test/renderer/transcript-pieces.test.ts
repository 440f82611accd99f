import { describe, it, expect } from 'vitest';
import { piecesFromDetections, pieceText, segmentsText } from '../../renderer/state/transcript-pieces.js';

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
