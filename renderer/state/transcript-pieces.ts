import { joinExpansion } from '../../shared/macros/join-expansion.js';
import type { MacroDefinition, MacroDetection, MacroSkip } from '../api/types.js';

/**
 * A run of dictated text, or a macro expansion that can be undone (shows `original` again). A
 * macro the API held back (`skipped`: said in a negation, before an exception, or without its
 * command) starts undone, so the spoken words stay, and can still be expanded by hand.
 */
export type Piece =
  | { kind: 'text'; id: number; text: string }
  | { kind: 'macro'; id: number; macroId: string; original: string; expansion: string; undone: boolean; confidence: number; skipped?: MacroSkip['reason'] };

/** One final transcript segment; `pending` while its macros are being detected. */
export interface Segment { id: number; pieces: Piece[]; pending: boolean }

/**
 * Splits a final text into text and macro pieces from the detections of POST /v1/macros/detect.
 * Spans count Unicode code points (API-DECISIONS "Text positions"), so the text is indexed as
 * an array of code points, not UTF-16 units. Overlapping detections keep the earlier one.
 */
export function piecesFromDetections(
  text: string, detections: (MacroDetection | MacroSkip)[], macros: MacroDefinition[], nextId: () => number,
): Piece[] {
  const points = Array.from(text);
  const byId = new Map(macros.map((m) => [m.id, m]));
  const sorted = [...detections].sort((a, b) => a.text_span.start_char - b.text_span.start_char);
  const pieces: Piece[] = [];
  let at = 0;
  for (const d of sorted) {
    const { start_char: start, end_char: end } = d.text_span;
    const macro = byId.get(d.macro_id);
    if (!macro || start < at || end <= start || end > points.length) continue;
    if (start > at) pieces.push({ kind: 'text', id: nextId(), text: points.slice(at, start).join('') });
    const skipped = 'reason' in d ? d.reason : undefined;
    pieces.push({
      kind: 'macro', id: nextId(), macroId: macro.id, original: points.slice(start, end).join(''),
      expansion: macro.expansion_text, undone: skipped !== undefined, confidence: d.confidence, ...(skipped ? { skipped } : {}),
    });
    at = end;
  }
  if (at < points.length) pieces.push({ kind: 'text', id: nextId(), text: points.slice(at).join('') });
  return pieces;
}

/** The text a piece holds now, on its own (see `shownTexts` for what the user sees). */
export const pieceText = (p: Piece): string => (p.kind === 'text' ? p.text : p.undone ? p.original : p.expansion);

/**
 * The text each piece of a segment shows. An expansion that ends in a mark meets the dictated
 * mark after it as the local API joins them (one mark, not "bilaterally.."); undoing the
 * expansion shows the spoken words with their own mark again.
 */
export function shownTexts(pieces: Piece[]): string[] {
  const shown = pieces.map(pieceText);
  pieces.forEach((p, i) => {
    const next = pieces[i + 1];
    if (p.kind !== 'macro' || p.undone || next?.kind !== 'text') return;
    const joined = joinExpansion(shown[i]!, shown[i + 1]!);
    shown[i] = joined.expansion;
    shown[i + 1] = shown[i + 1]!.slice(joined.skip);
  });
  return shown;
}

/** The whole dictation as plain text: segments separated by a space. */
export function segmentsText(segments: Segment[]): string {
  return segments
    .map((s) => shownTexts(s.pieces).join(''))
    .filter((t) => t.trim().length > 0)
    .join(' ');
}
