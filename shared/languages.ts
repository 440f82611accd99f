/** Output languages a note may be written in (contract: note creation `language`). */
export const NOTE_LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'ru', 'zh'] as const;
export type NoteLanguage = (typeof NOTE_LANGUAGES)[number];
