import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPocketsphinxRecognizer } from '../../main/engines/speech/pocketsphinx/index.js';
import { createSileroVad } from '../../main/engines/vad/index.js';
import { DomainError } from '../../main/services/errors.js';
import { createFixtures, DIGIT_WORDS, DIGITS_TEXT, hits, type AudioFixtures } from './fixtures.js';

describe('pocketsphinx recogniser', () => {
  let fx: AudioFixtures;
  let speech: Int16Array;
  const vad = createSileroVad();
  const recognizer = createPocketsphinxRecognizer({ medical: false, vad });

  beforeAll(() => {
    fx = createFixtures();
    speech = fx.pcm(fx.speak('digits', DIGITS_TEXT));
  });
  afterAll(async () => {
    await recognizer.close();
    await vad.close();
    fx.cleanup();
  });

  it('transcribes counting with word times and confidences inside the clip', async () => {
    const result = await recognizer.transcribe(speech, { language: 'en' });
    expect(hits(result.text, DIGIT_WORDS).length).toBeGreaterThanOrEqual(3);
    const duration = speech.length / 16000;
    for (const w of result.words) {
      expect(w.start).toBeGreaterThanOrEqual(0);
      expect(w.end).toBeGreaterThan(w.start);
      expect(w.end).toBeLessThanOrEqual(duration + 0.01);
      expect(w.confidence).toBeGreaterThanOrEqual(0);
      expect(w.confidence).toBeLessThanOrEqual(1);
    }
    for (let i = 1; i < result.words.length; i++) expect(result.words[i]!.start).toBeGreaterThanOrEqual(result.words[i - 1]!.end - 0.001);
    expect(result.words.some((w) => w.confidence > 0)).toBe(true);
    expect(result.text).toBe(result.words.map((w) => w.word).join(' '));
  });

  it('keeps word times right when speech starts late in a long clip', async () => {
    const pad = 16000 * 3;
    const shifted = new Int16Array(pad + speech.length);
    shifted.set(speech, pad);
    const early = await recognizer.transcribe(speech, { language: 'en' });
    const late = await recognizer.transcribe(shifted, { language: 'en' });
    const firstDigit = (r: typeof early): number => r.words.find((w) => DIGIT_WORDS.includes(w.word))?.start ?? NaN;
    expect(firstDigit(late) - firstDigit(early)).toBeCloseTo(3, 0);
  });

  it('returns empty text for silence', async () => {
    const result = await recognizer.transcribe(new Int16Array(16000 * 2), { language: 'en' });
    expect(result).toEqual({ text: '', words: [], confidence: 0 });
  });

  it('rejects languages it cannot recognise', async () => {
    const err = await recognizer.transcribe(speech, { language: 'fr' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).kind).toBe('invalid_request');
  });

  it('streams: partials while audio arrives, then a final on finalize', async () => {
    const stream = recognizer.createStream({ language: 'en' });
    const partials: string[] = [];
    for (let i = 0; i < speech.length; i += 1600) {
      stream.accept(speech.subarray(i, i + 1600));
      const p = stream.partial();
      if (p) partials.push(p.text);
    }
    const final = stream.finalizeUtterance();
    expect(partials.length).toBeGreaterThan(3);
    expect(hits(final.text, DIGIT_WORDS).length).toBeGreaterThanOrEqual(3);
    expect(final.words.every((w) => w.end <= speech.length / 16000 + 0.01)).toBe(true);

    // The next utterance's times continue from the session's clock.
    for (let i = 0; i < speech.length; i += 1600) stream.accept(speech.subarray(i, i + 1600));
    const second = stream.finalizeUtterance();
    expect(second.words.length).toBeGreaterThan(0);
    expect(second.words[0]!.start).toBeGreaterThanOrEqual(final.words[final.words.length - 1]!.end - 0.05);
    stream.close();
    stream.close();
    expect(stream.partial()).toBeNull();
  });

  it('finalizes an empty utterance as empty text', () => {
    const stream = recognizer.createStream({ language: 'en' });
    stream.accept(new Int16Array(8000));
    expect(stream.finalizeUtterance().text).toBe('');
    stream.close();
  });
});
