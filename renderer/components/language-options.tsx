import { NOTE_LANGUAGES, type NoteLanguage } from '../../shared/languages.js';

/** A note language as a physician reads it: its English name, and its own name beside it ("German (Deutsch)"). */
export function languageLabel(code: NoteLanguage): string {
  const english = new Intl.DisplayNames(['en'], { type: 'language' }).of(code) ?? code;
  const own = new Intl.DisplayNames([code], { type: 'language' }).of(code);
  return own && own.toLowerCase() !== english.toLowerCase() ? `${english} (${own})` : english;
}

/** The `<option>`s of a note-language `<select>`: the code as the value, the language by name. */
export function LanguageOptions() {
  return <>{NOTE_LANGUAGES.map((l) => <option key={l} value={l}>{languageLabel(l)}</option>)}</>;
}
