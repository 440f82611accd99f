import { describe, expect, it } from 'vitest';
import { segmentSpeech } from '../../main/services/clinical-language/segment.js';

describe('statements in unpunctuated speech', () => {
  it('cuts a recogniser run where a new statement starts (ACI-Bench style, no punctuation)', () => {
    const run = "so i'm gon na do a quick physical exam for your vital signs i do recognize a slight fever however your vitals themselves look good now on your foot exam i do recognize the necrotic wound on your heel";
    expect(segmentSpeech(run)).toEqual([
      "so i'm gon na do a quick physical exam",
      'for your vital signs i do recognize a slight fever',
      'however your vitals themselves look good',
      'now on your foot exam i do recognize the necrotic wound on your heel',
    ]);
  });

  it('never ends a statement on a word that needs one after it, nor inside a stutter', () => {
    for (const part of segmentSpeech('i felt some burning and some stinging and looked down and saw a blister i did not think too much of it because it was on the pad of my foot so we looked and saw that the the blister had become unroofed')) {
      expect(part).not.toMatch(/\b(the|of|my|and|a)$/);
    }
  });

  it('leaves punctuated text and short replies whole', () => {
    expect(segmentSpeech('Your lungs are clear, and your heart has a regular rhythm with no murmur.')).toHaveLength(1);
    expect(segmentSpeech('no not really')).toEqual(['no not really']);
  });
});
