/**
 * What a fidelity check reports, apart from the checks themselves so that every checking module
 * (numbers and doses, claims against the encounter, register) can report an issue without
 * importing the module that runs them all.
 */

/** What kind of fact failed the check. */
export type FidelityKind =
  | 'number' | 'dose' | 'unit' | 'frequency' | 'laterality' | 'negation' | 'medication' | 'date'
  | 'diagnosis' | 'vital' | 'order' | 'register';

/** One fact of a note text that its sources do not support. */
export interface FidelityIssue {
  kind: FidelityKind;
  /** UTF-16 offsets of the fact in the text checked. */
  start: number;
  end: number;
  /** The fact as the note wrote it. */
  text: string;
  /** Why it is flagged, in words a clinician reads ("the transcript says right knee"). */
  reason: string;
  /** `removed`: the words are taken out of the note (nothing states them); `marked`: kept, with a marker after them. */
  action: 'removed' | 'marked';
  /** Words shown instead of the note's, for a number kept as spoken. */
  replacement?: string;
}

/** Where a review marker already stands (checking twice changes nothing). */
export const MARKER_SPAN = /⚠\[check: [^\]\n]*\]/g;
