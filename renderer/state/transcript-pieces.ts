import type { MacroDefinition, MacroDetection } from '../api/types.js';

/** A run of dictated text, or a macro expansion that can be undone (shows `original` again). */
export type Piece =
  | { kind: 'text'; id: number; text: string }
  | { kind: 'macro'; id: number; macroId: string; original: string; expansion: string; undone: boolean; confidence: number };

/** One final transcript segment; `pending` while its macros are being detected. */
export interface Segment { id: number; pieces: Piece[]; pending: boolean }

/**
 * Splits a final text into text and macro pieces from the detections of POST /v1/macros/detect.
 * Spans count Unicode code points (API-DECISIONS "Text positions"), so the text is indexed as
 * an array of code points, not UTF-16 units. Overlapping detections keep the earlier one.
 */
export function piecesFromDetections(text: string, detections: MacroDetection[], macros: MacroDefinition[], nextId: () => number): Piece[] {
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
    pieces.push({
      kind: 'macro', id: nextId(), macroId: macro.id, original: points.slice(start, end).join(''),
      expansion: macro.expansion_text, undone: false, confidence: d.confidence,
    });
    at = end;
  }
  if (at < points.length) pieces.push({ kind: 'text', id: nextId(), text: points.slice(at).join('') });
  return pieces;
}

/** The text a piece shows now. */
export const pieceText = (p: Piece): string => (p.kind === 'text' ? p.text : p.undone ? p.original : p.expansion);

/** The whole dictation as plain text: segments separated by a space. */
export function segmentsText(segments: Segment[]): string {
  return segments
    .map((s) => s.pieces.map(pieceText).join(''))
    .filter((t) => t.trim().length > 0)
    .join(' ');
}
