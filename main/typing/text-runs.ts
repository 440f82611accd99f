/**
 * Pure text preparation shared by the typing adapters: line endings, control characters, and
 * cutting text into pieces an adapter can send without breaking a character in two.
 */

/**
 * The text as it should be typed: CRLF and CR become one newline (typed as Return), tabs stay,
 * other control characters are dropped (a keystroke for ESC or BEL would act, not write).
 */
export function normaliseTypedText(text: string): string {
  return text.replace(/\r\n?/g, '\n').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, '');
}

/** One stretch of text: typed from the keyboard map, or needing another route. */
export interface TextRun {
  text: string;
  /** True when every character is on a standard keyboard map (printable ASCII, newline, tab). */
  keymap: boolean;
}

/** Printable ASCII, newline and tab: keys every Latin keyboard map has, so xdotool types them without remapping. */
export const onEveryKeymap = (ch: string): boolean => ch === '\n' || ch === '\t' || (ch >= ' ' && ch <= '~');

/**
 * Splits text into alternating runs of keymap characters and other characters (é, °, µ, →, 日),
 * so an X11 adapter can type the first with xdotool and route the second through the clipboard.
 */
export function splitKeymapRuns(text: string, inKeymap: (ch: string) => boolean = onEveryKeymap): TextRun[] {
  const runs: TextRun[] = [];
  for (const ch of text) {
    const keymap = inKeymap(ch);
    const last = runs[runs.length - 1];
    if (last && last.keymap === keymap) last.text += ch;
    else runs.push({ text: ch, keymap });
  }
  return runs;
}

/**
 * Joins runs so that a short stretch of typeable text between two characters that go through the
 * clipboard is pasted with them: accented prose ("Température élevée") would otherwise cost one
 * clipboard round trip per accent. Keymap runs shorter than `minTyped` characters (newlines aside,
 * which always stay typed keys) are absorbed when they sit between two pasted runs.
 */
export function mergeShortRuns(runs: TextRun[], minTyped = 12): TextRun[] {
  const out: TextRun[] = [];
  runs.forEach((run, i) => {
    const between = run.keymap && i > 0 && i < runs.length - 1 && !runs[i - 1]!.keymap && !runs[i + 1]!.keymap;
    const absorb = between && [...run.text].length < minTyped && !run.text.includes('\n');
    const keymap = absorb ? false : run.keymap;
    const last = out[out.length - 1];
    if (last && last.keymap === keymap) last.text += run.text;
    else out.push({ text: run.text, keymap });
  });
  return out;
}

/** Cuts text into pieces of at most `max` UTF-16 units without splitting a surrogate pair. */
export function chunkText(text: string, max: number): string[] {
  if (max < 2) throw new RangeError('max must be at least 2');
  const out: string[] = [];
  let piece = '';
  for (const ch of text) {
    if (piece.length + ch.length > max) {
      out.push(piece);
      piece = '';
    }
    piece += ch;
  }
  if (piece) out.push(piece);
  return out;
}
