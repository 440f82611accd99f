/**
 * Supported note languages are data (a catalog model's `languages`, from its model card). A note
 * asked for in another language is still written, with a notice the note service puts first in its
 * review list, so the physician knows the model works outside what its makers state.
 */
import type { NoteWriter } from '../notes/ports.js';

export function withLanguageNotice(inner: NoteWriter, model: string, languages: readonly string[]): NoteWriter {
  return {
    name: inner.name,
    async write(input) {
      const note = await inner.write(input);
      const lang = input.language.split('-')[0]!.toLowerCase();
      // A note the fallback wrote was not written by this model: its languages say nothing about it.
      if (languages.includes(lang) || note.generatedBy?.fallbackFrom) return note;
      const notice = { text: `${model} does not support notes in "${lang}"`, reason: `the model lists ${languages.join(', ')}; read every sentence against the transcript` };
      return { ...note, notices: [...(note.notices ?? []), notice] };
    },
  };
}
