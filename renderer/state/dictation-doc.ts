/**
 * The live dictation as a document the physician can edit while dictation goes on. Pure
 * functions over an immutable value; the dictation store holds one and the editor shows it.
 *
 * The document is a list of pieces: plain text, a word the recogniser was unsure of, or a macro
 * expansion that remembers its spoken words. Every piece belongs to an utterance (0 for typed
 * text), which is what "scratch that" removes. What the editor shows is the pieces' texts joined,
 * one to one (a macro's shown text is stored as shown, with the dictated mark it absorbed kept
 * in `tail` for undo), so an offset in the editor is an offset in the document.
 *
 * An edit typed in the editor arrives as the editor's new text; it is mapped back onto the pieces
 * (one replaced range, found from the old text, the new text and the caret), so macro marks and
 * their undo outside the edited range survive, a macro edited inside keeps its mark with the
 * edited text, and an unsure word the physician corrected loses its mark.
 */
import { fitUtterance } from '../../shared/dictation/fit-utterance.js';
import type { VoiceCommand } from '../../shared/dictation/voice-commands.js';
import { joinExpansion } from '../../shared/macros/join-expansion.js';
import type { MacroDefinition, MacroDetection, MacroSkip, TranscriptWord } from '../api/types.js';
import { piecesFromDetections } from './transcript-pieces.js';

/** A run of text; `confidence` is set on a word the recogniser was unsure of. */
export interface TextPiece { kind: 'text'; id: number; utterance: number; text: string; confidence?: number }
/**
 * A macro expansion; `undone` shows the spoken words (`original` and the mark it absorbed, `tail`)
 * instead. A macro the local API held back (`skipped`: negation, exception, no "insert") starts
 * undone and can be expanded by hand.
 */
export interface MacroPiece {
  kind: 'macro'; id: number; utterance: number; macroId: string;
  original: string; tail: string; expansion: string; undone: boolean; confidence: number; skipped?: MacroSkip['reason'];
}
export type DocPiece = TextPiece | MacroPiece;

/** What a voice action did, for "scratch that" and "undo that". */
export type DocAction =
  | { kind: 'insert'; utterance: number; command: boolean; expansionsUndone?: boolean }
  | { kind: 'remove'; utterance: number; pieces: DocPiece[]; at: number }
  | { kind: 'move'; insertAt: number | null };

/** A dictated utterance waiting for its macros: the text sent to detection and the words to mark. */
export interface PendingUtterance { text: string; lead: string; trail: string; unsure: Span[] }

export interface Span { start: number; end: number; confidence: number }

/** Where new finals go: at the end of the text, or where the physician last put the cursor. */
export type InsertionMode = 'end' | 'cursor';

export interface DictationDoc {
  pieces: DocPiece[];
  /** Where the next final goes in 'cursor' mode (an offset in the text); null: the end. */
  insertAt: number | null;
  /** The editor's selection as last reported, kept in step with changes made by dictation. */
  selection: { start: number; end: number };
  actions: DocAction[];
  pending: Record<number, PendingUtterance>;
  /** The utterance whose final full stop was added for the pause, not said (null: none). */
  autoStop: number | null;
  nextId: number;
}

/** Words below this confidence are marked for checking. */
export const LOW_CONFIDENCE = 0.5;
const MAX_ACTIONS = 100;

/** An empty document. */
export const emptyDoc = (): DictationDoc => ({ pieces: [], insertAt: null, selection: { start: 0, end: 0 }, actions: [], pending: {}, autoStop: null, nextId: 1 });

/** A document of typed text (restored or pasted), without marks. */
export function docFromText(text: string): DictationDoc {
  const doc = emptyDoc();
  return text ? { ...doc, pieces: [{ kind: 'text', id: 1, utterance: 0, text }], nextId: 2, selection: { start: text.length, end: text.length } } : doc;
}

/** The text a piece shows. */
export const shownText = (p: DocPiece): string => (p.kind === 'text' ? p.text : p.undone ? p.original + p.tail : p.expansion);

/** The whole text as the editor shows it. */
export const docText = (doc: DictationDoc): string => doc.pieces.map(shownText).join('');

/** Each piece with its start and end offset in the text. */
export function layout(doc: DictationDoc): Array<{ piece: DocPiece; start: number; end: number }> {
  let at = 0;
  return doc.pieces.map((piece) => {
    const start = at;
    at += shownText(piece).length;
    return { piece, start, end: at };
  });
}

/** Offset where the next final goes. */
export function insertionPoint(doc: DictationDoc, mode: InsertionMode): number {
  const length = docText(doc).length;
  return mode === 'cursor' && doc.insertAt !== null ? Math.min(doc.insertAt, length) : length;
}

/** An offset moved by replacing [a, b) with `n` characters: before stays, inside goes to the end of the new text. */
const shift = (pos: number, a: number, b: number, n: number): number => (pos < a ? pos : pos >= b ? pos + n - (b - a) : a + n);

function shifted(doc: DictationDoc, a: number, b: number, n: number): Pick<DictationDoc, 'insertAt' | 'selection'> {
  return {
    insertAt: doc.insertAt === null ? null : shift(doc.insertAt, a, b, n),
    selection: { start: shift(doc.selection.start, a, b, n), end: shift(doc.selection.end, a, b, n) },
  };
}

/** Drops empty pieces and joins neighbouring plain text of the same utterance. */
function tidy(pieces: DocPiece[]): DocPiece[] {
  const out: DocPiece[] = [];
  for (const p of pieces) {
    if (shownText(p) === '') continue;
    const last = out[out.length - 1];
    if (p.kind === 'text' && p.confidence === undefined && last?.kind === 'text' && last.confidence === undefined && last.utterance === p.utterance) {
      out[out.length - 1] = { ...last, text: last.text + p.text };
    } else out.push(p);
  }
  return out;
}

/** A piece cut to the part of its shown text outside [from, to) (offsets within the piece), with `insert` put at `from`. */
function splice(p: DocPiece, from: number, to: number, insert: string): DocPiece {
  const shown = shownText(p);
  const text = shown.slice(0, from) + insert + shown.slice(to);
  if (p.kind === 'macro' && !p.undone) return { ...p, expansion: text };
  // An undone macro edited becomes the words it shows; an unsure word corrected is no longer unsure.
  return { kind: 'text', id: p.id, utterance: p.utterance, text };
}

/**
 * Replaces [a, b) of the text with `insert`. Text goes into the piece the range lies inside; at a
 * boundary between pieces it joins typed text on the left, else on the right, else becomes typed
 * text of its own.
 */
export function replaceRange(doc: DictationDoc, a: number, b: number, insert: string): DictationDoc {
  const laid = layout(doc);
  let nextId = doc.nextId;
  // A whole expansion replaced is gone with its mark; a range within one piece edits that piece.
  const inside = laid.find((l) => (b > a ? l.start <= a && b <= l.end && !(l.piece.kind === 'macro' && a === l.start && b === l.end) : l.start < a && a < l.end));
  let pieces: DocPiece[];
  if (inside) {
    pieces = doc.pieces.map((p) => (p === inside.piece ? splice(p, a - inside.start, b - inside.start, insert) : p));
  } else {
    // Cut the range out of every piece it touches, then place the new text at the boundary.
    const cut = laid.map((l) => (l.end <= a || l.start >= b ? l.piece : splice(l.piece, Math.max(a, l.start) - l.start, Math.min(b, l.end) - l.start, '')));
    pieces = cut;
    if (insert) {
      let at = 0;
      let index = 0;
      while (index < cut.length && at + shownText(cut[index]!).length <= a) at += shownText(cut[index++]!).length;
      // `index` is the first piece ending after a (or cut.length); a is a boundary after `index - 1`.
      const left = cut[index - 1];
      const right = cut[index];
      // Text typed between pieces is typed text (utterance 0), so "scratch that" never takes it.
      const typed = (p: DocPiece | undefined): p is TextPiece => p?.kind === 'text' && p.confidence === undefined && p.utterance === 0;
      if (typed(left)) pieces = cut.map((p) => (p === left ? { ...left, text: left.text + insert } : p));
      else if (typed(right) && at === a) pieces = cut.map((p) => (p === right ? { ...right, text: insert + right.text } : p));
      else pieces = [...cut.slice(0, index), { kind: 'text', id: nextId++, utterance: 0, text: insert }, ...cut.slice(index)];
    }
  }
  return { ...doc, pieces: tidy(pieces), nextId, ...shifted(doc, a, b, insert.length) };
}

/**
 * The editor's new text (after typing, deleting, pasting or cutting) mapped onto the pieces.
 * The changed range is the text between the common start and end of old and new, bounded by the
 * caret so a letter typed next to the same letter goes where it was typed.
 */
export function editText(doc: DictationDoc, next: string, selection: { start: number; end: number }): DictationDoc {
  const old = docText(doc);
  if (old === next) return select(doc, selection);
  const caret = Math.min(selection.end, next.length);
  let a = 0;
  while (a < old.length && a < next.length && a < caret && old[a] === next[a]) a++;
  let s = 0;
  const maxS = Math.min(old.length - a, next.length - Math.max(a, caret));
  while (s < maxS && old[old.length - 1 - s] === next[next.length - 1 - s]) s++;
  const edited = replaceRange(doc, a, old.length - s, next.slice(a, next.length - s));
  return { ...edited, selection, insertAt: selection.end };
}

/** The editor's caret or selection moved: in 'cursor' mode the next final goes there. */
export function select(doc: DictationDoc, selection: { start: number; end: number }): DictationDoc {
  return { ...doc, selection, insertAt: selection.end };
}

const pushAction = (doc: DictationDoc, action: DocAction): DocAction[] => [...doc.actions, action].slice(-MAX_ACTIONS);

/** Spans of words below LOW_CONFIDENCE, found in order in `text` (case aside: the text's case may have been settled). */
export function unsureSpans(text: string, words: readonly TranscriptWord[], threshold = LOW_CONFIDENCE): Span[] {
  const lower = text.toLowerCase();
  const spans: Span[] = [];
  let from = 0;
  for (const w of words) {
    const shown = w.punctuated_word.replace(/[.,;:?!)\]]+$/, '').replace(/^[([]/, '');
    if (!shown.trim()) continue;
    const at = lower.indexOf(shown.toLowerCase(), from);
    if (at < 0) continue;
    from = at + shown.length;
    if (w.confidence < threshold) spans.push({ start: at, end: at + shown.length, confidence: w.confidence });
  }
  return spans;
}

/** Text pieces of `text` with the unsure spans as pieces of their own. */
function textWithUnsure(text: string, offset: number, unsure: Span[], utterance: number, id: () => number): TextPiece[] {
  const out: TextPiece[] = [];
  let at = 0;
  for (const s of unsure) {
    const start = s.start - offset;
    const end = s.end - offset;
    if (start < at || end > text.length) continue;
    if (start > at) out.push({ kind: 'text', id: id(), utterance, text: text.slice(at, start) });
    out.push({ kind: 'text', id: id(), utterance, text: text.slice(start, end), confidence: s.confidence });
    at = end;
  }
  if (at < text.length) out.push({ kind: 'text', id: id(), utterance, text: text.slice(at) });
  return out;
}

/**
 * Where text put at `at` really goes: never inside an expansion or an unsure word (it would split
 * the mark), but after it.
 */
export function snapOut(doc: DictationDoc, at: number): number {
  const l = layout(doc).find((x) => x.start < at && at < x.end && (x.piece.kind === 'macro' || x.piece.confidence !== undefined));
  return l ? l.end : at;
}

/** Puts pieces at offset `at` (a snapped offset), splitting a plain text piece there. */
function placePieces(doc: DictationDoc, at: number, add: DocPiece[], id: () => number): DocPiece[] {
  const out: DocPiece[] = [];
  let placed = false;
  for (const l of layout(doc)) {
    if (!placed && at <= l.start) {
      out.push(...add);
      placed = true;
    }
    if (!placed && at < l.end && l.piece.kind === 'text') {
      const cut = at - l.start;
      out.push({ ...l.piece, text: l.piece.text.slice(0, cut) }, ...add, { ...l.piece, id: id(), text: l.piece.text.slice(cut) });
      placed = true;
      continue;
    }
    out.push(l.piece);
  }
  if (!placed) out.push(...add);
  return out.filter((p) => shownText(p) !== '');
}

interface InsertOptions { mode: InsertionMode; punctuate: boolean; capitalise?: boolean; words?: readonly TranscriptWord[]; command?: boolean }

/**
 * Writes a dictated utterance where finals go, fitted to its neighbours (spaces, capital, full
 * stop), with its unsure words marked. Returns the document and the utterance id; the utterance
 * waits for macro detection (`expandUtterance`) unless it is a command's output.
 */
export function insertUtterance(doc: DictationDoc, text: string, opts: InsertOptions, make?: (id: () => number, utterance: number) => DocPiece[]): { doc: DictationDoc; utterance: number } {
  const at = snapOut(doc, insertionPoint(doc, opts.mode));
  const all = docText(doc);
  let nextId = doc.nextId;
  const id = (): number => nextId++;
  const utterance = id();
  const fitted = fitUtterance(text, all.slice(0, at), all.slice(at), { punctuate: opts.punctuate, capitalise: opts.capitalise ?? true });
  if (!fitted.text) return { doc, utterance };
  const unsure = opts.words ? unsureSpans(fitted.text, opts.words) : [];
  const core = make ? make(id, utterance) : textWithUnsure(fitted.text, 0, unsure, utterance, id);
  const added: DocPiece[] = [
    ...(fitted.lead ? [{ kind: 'text' as const, id: id(), utterance, text: fitted.lead }] : []),
    ...core,
    ...(fitted.trail ? [{ kind: 'text' as const, id: id(), utterance, text: fitted.trail }] : []),
  ];
  const length = added.reduce((n, p) => n + shownText(p).length, 0);
  const pieces = placePieces(doc, at, added, id);
  const moved = shifted(doc, at, at, length);
  return {
    utterance,
    doc: {
      ...doc, pieces, nextId, ...moved,
      // Dictation continues after what it wrote, also when the cursor had not been placed.
      insertAt: opts.mode === 'cursor' && doc.insertAt !== null ? at + length : doc.insertAt,
      actions: pushAction(doc, { kind: 'insert', utterance, command: opts.command ?? false }),
      autoStop: fitted.stopped ? utterance : null,
      pending: make ? doc.pending : { ...doc.pending, [utterance]: { text: fitted.text, lead: fitted.lead, trail: fitted.trail, unsure } },
    },
  };
}

/** Macro pieces with the dictated mark after each expansion merged into it (kept in `tail` for undo). */
function withJoins(pieces: DocPiece[]): DocPiece[] {
  const out = [...pieces];
  out.forEach((p, i) => {
    const next = out[i + 1];
    if (p.kind !== 'macro' || next?.kind !== 'text') return;
    const joined = joinExpansion(p.expansion, next.text);
    if (!joined.skip && joined.expansion === p.expansion) return;
    out[i] = { ...p, expansion: joined.expansion, tail: next.text.slice(0, joined.skip) };
    out[i + 1] = { ...next, text: next.text.slice(joined.skip) };
  });
  return out;
}

/**
 * Applies POST /v1/macros/detect's answer to a waiting utterance. When the physician edited the
 * utterance meanwhile its text no longer matches what was sent, and it is left as edited.
 */
export function expandUtterance(doc: DictationDoc, utterance: number, detections: (MacroDetection | MacroSkip)[], macros: MacroDefinition[]): DictationDoc {
  const wait = doc.pending[utterance];
  if (!wait) return doc;
  const { [utterance]: _done, ...pending } = doc.pending;
  const laid = layout(doc).filter((l) => l.piece.utterance === utterance);
  const first = laid[0];
  const last = laid[laid.length - 1];
  const contiguous = first && last && doc.pieces.indexOf(last.piece) - doc.pieces.indexOf(first.piece) === laid.length - 1;
  const current = laid.map((l) => shownText(l.piece)).join('');
  if (!detections.length || !contiguous || current !== wait.lead + wait.text + wait.trail) return { ...doc, pending };
  let nextId = doc.nextId;
  const id = (): number => nextId++;
  const core: DocPiece[] = [];
  let offset = 0;
  for (const p of piecesFromDetections(wait.text, detections, macros, id)) {
    if (p.kind === 'text') {
      core.push(...textWithUnsure(p.text, offset, wait.unsure, utterance, id));
      offset += p.text.length;
    } else {
      core.push({ ...p, utterance, tail: '' });
      offset += p.original.length;
    }
  }
  const replaced: DocPiece[] = [
    ...(wait.lead ? [{ kind: 'text' as const, id: id(), utterance, text: wait.lead }] : []),
    ...withJoins(core),
    ...(wait.trail ? [{ kind: 'text' as const, id: id(), utterance, text: wait.trail }] : []),
  ];
  const from = doc.pieces.indexOf(first.piece);
  const before = { ...doc, pieces: [...doc.pieces.slice(0, from), ...replaced, ...doc.pieces.slice(from + laid.length)], nextId, pending };
  const grown = docText(before).length - docText(doc).length;
  return { ...before, ...shifted(doc, first.start, last.end, last.end - first.start + grown) };
}

/** Shows a macro's spoken words instead of its expansion, or the expansion again. */
export function toggleExpansion(doc: DictationDoc, pieceId: number): DictationDoc {
  const l = layout(doc).find((x) => x.piece.id === pieceId);
  if (!l || l.piece.kind !== 'macro') return doc;
  const flipped: MacroPiece = { ...l.piece, undone: !l.piece.undone };
  const pieces = doc.pieces.map((p) => (p === l.piece ? flipped : p));
  return { ...doc, pieces, ...shifted(doc, l.start, l.end, shownText(flipped).length) };
}

/** Removes an utterance's pieces; returns the document and what was removed, with where. */
function removeUtterance(doc: DictationDoc, utterance: number): { doc: DictationDoc; removed: DocPiece[]; at: number } {
  const laid = layout(doc);
  const mine = laid.filter((l) => l.piece.utterance === utterance);
  if (!mine.length) return { doc, removed: [], at: 0 };
  let next: DictationDoc = { ...doc, pieces: doc.pieces.filter((p) => p.utterance !== utterance) };
  // Later offsets move back by each removed piece's length, last first so earlier offsets hold.
  for (const l of [...mine].reverse()) next = { ...next, ...shifted(next, l.start, l.end, 0) };
  const { [utterance]: _gone, ...pending } = doc.pending;
  return { doc: { ...next, pieces: tidy(next.pieces), pending }, removed: mine.map((l) => l.piece), at: mine[0]!.start };
}

const present = (doc: DictationDoc, utterance: number): boolean => doc.pieces.some((p) => p.utterance === utterance);

/** "scratch that": removes the last dictated utterance still in the text. */
export function scratchThat(doc: DictationDoc): DictationDoc {
  const last = [...doc.actions].reverse().find((a): a is Extract<DocAction, { kind: 'insert' }> => a.kind === 'insert' && present(doc, a.utterance));
  if (!last) return doc;
  const { doc: next, removed, at } = removeUtterance(doc, last.utterance);
  return { ...next, actions: pushAction(next, { kind: 'remove', utterance: last.utterance, pieces: removed, at }) };
}

/**
 * "undo that": undoes the last voice action. A dictated utterance with expansions first shows its
 * spoken words again (said again, the utterance goes); other utterances and commands' output are
 * removed; a "scratch that" puts the text back; "go to end" returns to the cursor.
 */
export function undoThat(doc: DictationDoc): DictationDoc {
  const actions = [...doc.actions];
  while (actions.length) {
    const a = actions.pop()!;
    const base = { ...doc, actions };
    if (a.kind === 'move') return { ...base, insertAt: a.insertAt };
    if (a.kind === 'remove') {
      if (present(doc, a.utterance)) continue;
      const at = snapOut(doc, Math.min(a.at, docText(doc).length));
      const length = a.pieces.reduce((n, p) => n + shownText(p).length, 0);
      let nextId = doc.nextId;
      const pieces = tidy(placePieces(doc, at, a.pieces, () => nextId++));
      return { ...base, pieces, nextId, ...shifted(doc, at, at, length) };
    }
    if (!present(doc, a.utterance)) continue;
    const expanded = doc.pieces.filter((p): p is MacroPiece => p.utterance === a.utterance && p.kind === 'macro' && !p.undone);
    if (!a.command && !a.expansionsUndone && expanded.length) {
      const undone = expanded.reduce((d, p) => toggleExpansion(d, p.id), base);
      return { ...undone, actions: [...actions, { ...a, expansionsUndone: true }] };
    }
    return { ...removeUtterance(base, a.utterance).doc, actions };
  }
  return doc;
}

/**
 * "Seen by" (pause) "cap smith": the pause before a command that writes words was not the end of
 * the sentence, so the full stop added for it goes again.
 */
function continueSentence(doc: DictationDoc, mode: InsertionMode): DictationDoc {
  if (doc.autoStop === null) return doc;
  const at = snapOut(doc, insertionPoint(doc, mode));
  const stop = layout(doc).find((l) => l.start < at && at <= l.end);
  if (stop?.piece.utterance !== doc.autoStop || shownText(stop.piece).slice(at - stop.start - 1, at - stop.start) !== '.') return doc;
  return { ...replaceRange(doc, at - 1, at, ''), autoStop: null };
}

interface CommandContext { mode: InsertionMode; macros: readonly MacroDefinition[]; spoken?: string }

/** Carries out a voice command (shared/dictation/voice-commands.ts). */
export function applyCommand(doc: DictationDoc, command: VoiceCommand, ctx: CommandContext): DictationDoc {
  switch (command.kind) {
    case 'scratch':
      return scratchThat(doc);
    case 'undo':
      return undoThat(doc);
    case 'go-to-end':
      return { ...doc, insertAt: null, actions: pushAction(doc, { kind: 'move', insertAt: doc.insertAt }) };
    case 'break':
      return insertUtterance(doc, command.text, { mode: ctx.mode, punctuate: false, command: true }, (id, utterance) => [{ kind: 'text', id: id(), utterance, text: command.text }]).doc;
    case 'write':
      return insertUtterance(continueSentence(doc, ctx.mode), command.text, { mode: ctx.mode, punctuate: true, capitalise: false, command: true }).doc;
    case 'insert-macro': {
      const macro = ctx.macros.find((m) => m.id === command.macroId);
      if (!macro) return doc;
      return insertUtterance(doc, macro.expansion_text, { mode: ctx.mode, punctuate: false, capitalise: false, command: true }, (id, utterance) => [{
        kind: 'macro', id: id(), utterance, macroId: macro.id, original: ctx.spoken ?? macro.examples[0] ?? macro.id, tail: '',
        expansion: macro.expansion_text, undone: false, confidence: 1,
      }]).doc;
    }
  }
}

/** The words marked as unsure, in order, with where they are. */
export function unsureWords(doc: DictationDoc): Array<{ id: number; start: number; end: number; text: string }> {
  return layout(doc).filter((l) => l.piece.kind === 'text' && l.piece.confidence !== undefined).map((l) => ({ id: l.piece.id, start: l.start, end: l.end, text: shownText(l.piece) }));
}

/** The expansions in the text, in order. */
export function expansions(doc: DictationDoc): MacroPiece[] {
  return doc.pieces.filter((p): p is MacroPiece => p.kind === 'macro');
}
