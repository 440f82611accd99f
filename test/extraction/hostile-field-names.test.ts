import { describe, expect, it } from 'vitest';
import { createEmbeddedExtractor } from '../../main/engines/extraction/index.js';
import { createExtractionService } from '../../main/services/extraction/index.js';

/**
 * Property names become patterns in the field reader. "a_a_a_a_a_a" over a text of repeated "a "
 * took seconds on V8's backtracking engine, each added word multiplying the work (issue 29: eight
 * words, 43 s); on RE2 a word adds a few states. Measured as a ratio of two names on one text, so
 * a loaded machine slows both sides alike: linear work gives about 3, the old patterns hundreds.
 */
describe('field names read as patterns', () => {
  const service = createExtractionService({ extractor: createEmbeddedExtractor() });
  const fastest = async (text: string, schema: object): Promise<number> => {
    let best = Infinity;
    for (let i = 0; i < 2; i++) {
      const started = performance.now();
      await service.extract(text, schema);
      best = Math.min(best, performance.now() - started);
    }
    return best;
  };

  it('costs work in proportion to the words of a name, not a power of them', { timeout: 120_000 }, async () => {
    const schema = (name: string): object => ({ type: 'object', properties: { [name]: { type: 'number' }, [`has_${name}`]: { type: 'boolean' } } });
    const text = 'a '.repeat(2_000);
    await service.extract('warm up', schema('a_a'));
    const two = await fastest(text, schema('a_a'));
    const six = await fastest(text, schema('a_a_a_a_a_a'));
    expect(six / Math.max(two, 1)).toBeLessThan(20);
  });

  it('still finds a score named by words split between letters and digits', async () => {
    const schema = { type: 'object', properties: { phq9_score: { type: 'number' }, has_chest_pain: { type: 'boolean' } } };
    const value = await service.extract('Depression screen: PHQ-9 score 8 today. Chest pain since Monday.', schema);
    expect(value).toMatchObject({ phq9_score: 8, has_chest_pain: true });
  });

  it('takes names of punctuation and many words as plain text', async () => {
    const schema = {
      type: 'object',
      properties: { 'a(b|c)*+?[': { type: 'number' }, one_two_three_four_five_six_seven_eight: { type: 'number' } },
    };
    const value = await service.extract('one two three four five six seven eight 9 and a(b|c)*+?[ 3', schema);
    expect(value).toBeTypeOf('object');
  });
});
