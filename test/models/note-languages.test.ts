import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../main/config.js';
import { loadModelCatalog } from '../../main/compose-models.js';
import { createEmbeddedNoteWriter } from '../../main/engines/text/embedded/index.js';
import { withLanguageNotice } from '../../main/services/engines/language-notice.js';

/**
 * Supported note languages are data (the catalog's `languages`, from the model card): a note asked
 * for in another language is still written, with a notice first in its review list. The writer is
 * the real embedded one; the languages are the bundled catalog's.
 */
const transcript = '[doctor] What brings you in?\n[patient] I have had a cough for three days.';
const llama = loadModelCatalog(loadConfig({ CLINDOC_DATA_DIR: '/tmp/clindoc-langs-unused' }), () => undefined).entries.find((e) => e.id === 'llama-3-2-3b-instruct')!;

describe('note languages of a catalog model', () => {
  it('the bundled catalog states them for every entry, with the model card that says so', () => {
    expect(llama.languages).toEqual(['en', 'de', 'fr', 'it', 'pt', 'hi', 'es', 'th']);
    expect(llama.languagesSource).toMatch(/^https:\/\/huggingface\.co\/meta-llama\//);
  });

  it('adds a notice to a note in Russian or Chinese, and none to one in Spanish', async () => {
    const writer = withLanguageNotice(createEmbeddedNoteWriter(), llama.id, llama.languages);
    for (const language of ['ru', 'zh'] as const) {
      const note = await writer.write({ transcript, noteType: { type: 'soap', includeJson: false }, language });
      expect(note.notices).toEqual([{ text: `llama-3-2-3b-instruct does not support notes in "${language}"`, reason: 'the model lists en, de, fr, it, pt, hi, es, th; read every sentence against the transcript' }]);
    }
    const es = await writer.write({ transcript, noteType: { type: 'soap', includeJson: false }, language: 'es' });
    expect(es.notices).toBeUndefined();
  });
});
