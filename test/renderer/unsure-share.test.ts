/**
 * The share of unsure words as the interface works it out (issue 27): from the dictation's unsure
 * marks (a corrected word no longer counts) and from a transcription's word confidences.
 */
import { describe, expect, it } from 'vitest';
import { emptyDoc, insertUtterance } from '../../renderer/state/dictation-doc.js';
import { dictationUnsureShare, recordUnsureShare } from '../../renderer/state/unsure-share.js';
import { mostlyUnsure, percent, unsureShare } from '../../shared/dictation/unsure-share.js';

const word = (w: string, confidence: number) => ({ word: w, punctuated_word: w, start: 0, end: 0.3, confidence, speaker: null });

describe('unsure share', () => {
  it('counts the unsure marks of dictated text over its words', () => {
    const words = ['no', 'fever', 'today', 'but', 'a', 'cough'].map((w, i) => word(w, i % 2 === 0 ? 0.2 : 0.9));
    const { doc } = insertUtterance(emptyDoc(), 'no fever today but a cough', { mode: 'end', punctuate: false, words });
    expect(dictationUnsureShare(doc)).toBe(0.5);
    expect(dictationUnsureShare(emptyDoc())).toBeNull();
  });

  it('reads a transcription\'s word confidences below 0.5 as unsure', () => {
    expect(recordUnsureShare({ words: [word('a', 0.49), word('b', 0.5), word('c', 0.1)] })).toBe(0.6667);
    expect(recordUnsureShare({ words: [] })).toBeNull();
  });

  it('warns from 30%, and says the percent it stores', () => {
    expect(mostlyUnsure(0.3)).toBe(true);
    expect(mostlyUnsure(0.2999)).toBe(false);
    expect(mostlyUnsure(null)).toBe(false);
    expect(percent(unsureShare(5, 11)!)).toBe('45%');
  });
});
