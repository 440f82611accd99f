import { describe, expect, it } from 'vitest';
import { addSentence, createCounts, writeArpa } from '../../main/engines/speech/pocketsphinx/arpa-builder.js';
import { ipaToArpabet } from '../../main/engines/speech/pocketsphinx/g2p-espeak.js';
import { normalizeSentences, normalizeWords } from '../../main/engines/speech/pocketsphinx/text-normalizer.js';

describe('clinical vocabulary building', () => {
  it('normalises clinical text the way it is spoken', () => {
    expect(normalizeWords('BP 120/80, O2 sat 98%; lisinopril 2.5 mg.')).toEqual([
      'bp', 'one', 'hundred', 'twenty', 'over', 'eighty', 'o', 'two', 'sat', 'ninety', 'eight', 'percent',
      'lisinopril', 'two', 'point', 'five', 'mg',
    ]);
    expect(normalizeSentences('[doctor] how are you? [patient] fine.')).toEqual([['how', 'are', 'you'], ['fine']]);
  });

  it('maps espeak IPA to the model phone set', () => {
    expect(ipaToArpabet('l_ˈɪ_s_ɪ_n_ˌɑː_p_ɹ_əl')).toEqual(['L', 'IH', 'S', 'IH', 'N', 'AA', 'P', 'R', 'AH', 'L']);
  });

  it('writes an ARPA trigram whose bigram probabilities for a context sum to at most one', () => {
    const counts = createCounts();
    for (let i = 0; i < 3; i++) {
      addSentence(counts, ['start', 'metformin', 'daily']);
      addSentence(counts, ['start', 'lisinopril', 'daily']);
    }
    const arpa = writeArpa(counts, new Set(['start', 'metformin', 'lisinopril', 'daily']));
    expect(arpa).toMatch(/ngram 1=6/);
    expect(arpa).toMatch(/ngram 3=/);
    const bigrams = arpa.slice(arpa.indexOf('\\2-grams:'), arpa.indexOf('\\3-grams:'));
    const after = [...bigrams.matchAll(/^(-?[\d.]+)\tstart (\w+)/gm)].map((m) => 10 ** Number(m[1]));
    expect(after).toHaveLength(2);
    const sum = after.reduce((s, p) => s + p, 0);
    expect(sum).toBeGreaterThan(0.5);
    expect(sum).toBeLessThanOrEqual(1.0001);
  });
});
