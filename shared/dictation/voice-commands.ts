/**
 * Spoken commands of live dictation: what a final utterance asks for when it is a command rather
 * than words to write. Pure code, used by the renderer's dictation document.
 *
 * **When a phrase is a command.** The recogniser closes an utterance at a pause, so a command is
 * recognised only when it is the *whole* utterance ("… the lungs are clear." pause "scratch that"
 * pause), never inside ordinary speech: "I told him to scratch that itch" and "I told him to
 * scratch that" are dictated as written. Said after a pause, as Dragon asks too, a command cannot
 * be mistaken for speech. One exception: "all caps <words>" may also end an utterance ("diagnosis
 * all caps copd" -> "diagnosis COPD"), since "all caps" followed by words is not something
 * clinicians otherwise say. "cap <word>" is whole-utterance only because "cap" is ordinary speech
 * ("bottle cap removed", "knee cap pain").
 *
 * Recognisers spell commands in their own way ("Scratch that.", "scratch that"), so matching
 * ignores case and punctuation.
 */
import type { MacroDefinition } from '../api/schemas.js';

/** What a command utterance does to the dictated text. */
export type VoiceCommand =
  /** "scratch that", "delete that": remove the last dictated utterance. */
  | { kind: 'scratch' }
  /** "undo that": undo the last command or macro expansion. */
  | { kind: 'undo' }
  /** "new line", "new paragraph": a line break ("\n") or a blank line ("\n\n"). */
  | { kind: 'break'; text: '\n' | '\n\n' }
  /** "cap <word>": the word with a capital; "all caps <words>": the words in capitals. */
  | { kind: 'write'; text: string }
  /** "insert <macro name>": the macro's expansion. */
  | { kind: 'insert-macro'; macroId: string }
  /** "go to end": later dictation goes to the end of the text again. */
  | { kind: 'go-to-end' };

/** A final utterance read for commands: a command, or text to write (with any "all caps" tail applied). */
export type ParsedUtterance = { kind: 'command'; command: VoiceCommand } | { kind: 'text'; text: string };

/** The commands as the interface lists them (Dictation page help, docs/desktop.md). */
export const VOICE_COMMANDS: readonly { say: string; does: string }[] = [
  { say: 'scratch that / delete that', does: 'Removes the last thing you dictated.' },
  { say: 'undo that', does: 'Undoes the last command or macro expansion (say it again to undo further).' },
  { say: 'new line', does: 'Starts a new line.' },
  { say: 'new paragraph', does: 'Leaves a blank line and starts a new paragraph.' },
  { say: 'cap <word>', does: 'Writes the word with a capital: “cap smith” gives “Smith”.' },
  { say: 'all caps <words>', does: 'Writes the words in capitals; may also end a sentence: “diagnosis all caps copd”.' },
  { say: 'insert <macro name>', does: 'Writes a macro’s expansion, by its name or one of its spoken forms.' },
  { say: 'go to end', does: 'Dictation goes to the end of the text again (after you clicked elsewhere).' },
];

/** Lower case words without punctuation, for matching. */
export function commandWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}']+/gu, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
}

const WHOLE: Array<{ words: string; command: VoiceCommand }> = [
  { words: 'scratch that', command: { kind: 'scratch' } },
  { words: 'delete that', command: { kind: 'scratch' } },
  { words: 'undo that', command: { kind: 'undo' } },
  { words: 'new line', command: { kind: 'break', text: '\n' } },
  { words: 'next line', command: { kind: 'break', text: '\n' } },
  { words: 'new paragraph', command: { kind: 'break', text: '\n\n' } },
  { words: 'next paragraph', command: { kind: 'break', text: '\n\n' } },
  { words: 'go to end', command: { kind: 'go-to-end' } },
  { words: 'go to the end', command: { kind: 'go-to-end' } },
];

/** The macro a spoken name stands for: its id read as words ("normal-exam"), or one of its spoken forms. */
export function findMacroByName(name: string, macros: readonly Pick<MacroDefinition, 'id' | 'examples'>[]): string | undefined {
  const said = commandWords(name).join(' ');
  if (!said) return undefined;
  const byId = macros.find((m) => commandWords(m.id.replace(/[-_.]+/g, ' ')).join(' ') === said);
  if (byId) return byId.id;
  return macros.find((m) => m.examples.some((e) => commandWords(e).join(' ') === said))?.id;
}

/**
 * Where "all caps" followed by at least one word ends the utterance, the offset of "all" in
 * `text` and the offset of the first capitalised word; undefined when it does not.
 */
function allCapsTail(text: string): { at: number; words: number } | undefined {
  const re = /(^|[^\p{L}\p{N}'])(all[\s-]+caps?)[\s,:]+(?=[\p{L}\p{N}])/giu;
  let last: { at: number; words: number } | undefined;
  for (let m = re.exec(text); m; m = re.exec(text)) last = { at: m.index + m[1]!.length, words: m.index + m[0].length };
  return last;
}

/**
 * Reads one final utterance. `macros` are the user's macros, for "insert <macro name>"; an
 * "insert …" that names no macro is dictated as said.
 * @example parseUtterance('Scratch that.', []) // { kind: 'command', command: { kind: 'scratch' } }
 * @example parseUtterance('I told him to scratch that itch', []) // { kind: 'text', text: 'I told him to scratch that itch' }
 */
export function parseUtterance(text: string, macros: readonly Pick<MacroDefinition, 'id' | 'examples'>[] = []): ParsedUtterance {
  const words = commandWords(text);
  const said = words.join(' ');
  const whole = WHOLE.find((c) => c.words === said);
  if (whole) return { kind: 'command', command: whole.command };
  if (words.length === 2 && (words[0] === 'cap' || words[0] === 'capital')) {
    const word = text.trim().replace(/[.?!,;:]+$/, '').split(/\s+/).pop()!;
    return { kind: 'command', command: { kind: 'write', text: word.charAt(0).toUpperCase() + word.slice(1) } };
  }
  if (words[0] === 'insert' && words.length > 1) {
    const macroId = findMacroByName(words.slice(1).join(' '), macros);
    if (macroId) return { kind: 'command', command: { kind: 'insert-macro', macroId } };
  }
  const caps = allCapsTail(text);
  if (caps) {
    const before = text.slice(0, caps.at).trimEnd();
    // The tail keeps its own final mark unchanged ("COPD." not "COPD。") but its words go upper case.
    const tail = text.slice(caps.words).toUpperCase();
    if (!before) return { kind: 'command', command: { kind: 'write', text: tail.replace(/[.?!,;:]+$/, '') } };
    return { kind: 'text', text: `${before} ${tail}` };
  }
  return { kind: 'text', text };
}
