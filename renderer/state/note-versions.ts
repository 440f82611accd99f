/**
 * Versions of a visit's note and what carries from one to the next. A signed note is never
 * replaced: a new version is a new draft beside it. When a new draft is written, the lines of the
 * previous version it lacks (the physician's own additions, an addendum's text, anything the new
 * draft dropped) are offered to the physician, so nothing the physician wrote is lost silently.
 * Pure functions, unit-tested.
 */
import type { SignatureView } from '../../shared/api/signing.js';

export interface NoteVersion {
  noteId: string;
  /** Generation status (STATUS_DONE, …) as the API says. */
  status: string;
  signature: SignatureView;
  createdAt?: number;
}

export interface CarryLine {
  /** The line as written in the previous version (markdown). */
  text: string;
  /** The heading it stood under there ('' before any heading; 'Addendum' for an addendum). */
  section: string;
  /** Known to be the physician's own: edited in after generation, or an addendum. Offered ticked. */
  added: boolean;
}

export interface CarryOffer {
  /** The version the lines come from. */
  fromNoteId: string;
  fromSigned: boolean;
  lines: CarryLine[];
}

/** What the previous version was, for the offer. */
export interface PreviousVersion {
  noteId: string;
  markdown: string;
  /** The note as the API wrote it, when known (in this session); lines not in it are the physician's. */
  generated?: string;
  signed: boolean;
  addenda: readonly { text: string }[];
}

const HEADING = /^#{1,6}\s+(.*?)\s*#*\s*$/;

/** A line's words, for comparing versions: no list marker, emphasis, case or closing punctuation. */
export function lineKey(line: string): string {
  return line
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, '')
    .replace(/[*_`]/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[.;:,]+$/, '')
    .toLowerCase();
}

/** The lines of a note that carry content, each with the heading above it. */
function contentLines(markdown: string): { text: string; section: string }[] {
  let section = '';
  const out: { text: string; section: string }[] = [];
  for (const raw of markdown.replace(/\r\n?/g, '\n').split('\n')) {
    const line = raw.trimEnd();
    const heading = HEADING.exec(line);
    if (heading) section = heading[1]!;
    else if (line.trim() && !/^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) out.push({ text: line.trim(), section });
  }
  return out;
}

/** Lines of the previous version (and its addenda) that the new draft does not have. */
export function linesToCarry(previous: PreviousVersion, next: string): CarryOffer | undefined {
  const present = new Set(contentLines(next).map((l) => lineKey(l.text)));
  const generated = previous.generated !== undefined && previous.generated !== previous.markdown
    ? new Set(contentLines(previous.generated).map((l) => lineKey(l.text)))
    : undefined;
  const seen = new Set<string>();
  const lines: CarryLine[] = [];
  const offer = (text: string, section: string, added: boolean): void => {
    const key = lineKey(text);
    if (!key || present.has(key) || seen.has(key)) return;
    seen.add(key);
    lines.push({ text, section, added });
  };
  for (const l of contentLines(previous.markdown)) offer(l.text, l.section, generated !== undefined && !generated.has(lineKey(l.text)));
  for (const a of previous.addenda) for (const l of contentLines(a.text)) offer(l.text, 'Addendum', true);
  return lines.length ? { fromNoteId: previous.noteId, fromSigned: previous.signed, lines } : undefined;
}

export const CARRIED_HEADING = 'From the previous version';

/**
 * The draft with the chosen lines put back: each at the end of the section of the same heading
 * when the draft has one, the rest under a heading of their own at the end.
 */
export function carryInto(markdown: string, lines: readonly CarryLine[]): string {
  const rows = markdown.replace(/\r\n?/g, '\n').replace(/\n+$/, '').split('\n');
  const rest: CarryLine[] = [];
  for (const line of lines) {
    const key = lineKey(line.section);
    const start = key ? rows.findIndex((r) => HEADING.test(r) && lineKey(HEADING.exec(r)![1]!) === key) : -1;
    if (start < 0) {
      rest.push(line);
      continue;
    }
    let end = start + 1;
    while (end < rows.length && !HEADING.test(rows[end]!)) end++;
    let at = end;
    while (at > start + 1 && !rows[at - 1]!.trim()) at--;
    rows.splice(at, 0, line.text);
  }
  let out = rows.join('\n');
  if (rest.length) out += `\n\n## ${CARRIED_HEADING}\n\n${rest.map((l) => l.text).join('\n')}`;
  return `${out}\n`;
}

/** The list with `v` in place of the entry of the same note, or added at the end. */
export function upsertVersion(versions: readonly NoteVersion[], v: NoteVersion): NoteVersion[] {
  const at = versions.findIndex((x) => x.noteId === v.noteId);
  if (at < 0) return [...versions, v];
  const out = [...versions];
  out[at] = { ...out[at], ...v };
  return out;
}
