/**
 * The review item of a note written from a mostly unsure transcript (issue 27): the recogniser
 * marked so many of its words as unsure that the note may state what was never said, and the
 * fidelity checks cannot see it (they compare the note with that same transcript).
 */
import { mostlyUnsure, percent, UNSURE_SHARE_WARNING } from '../../../shared/dictation/unsure-share.js';
import type { FidelityFlag } from './fidelity.js';

/** The item, or undefined when the share is unknown or under the warning threshold. */
export function unsureSourceItem(share: number | undefined): FidelityFlag | undefined {
  if (share === undefined || !mostlyUnsure(share)) return undefined;
  return {
    // Not a fact-level kind: like `engine`, it concerns the whole note.
    kind: 'transcript' as FidelityFlag['kind'],
    text: `written from a transcript with ${percent(share)} of its words unsure`,
    reason: `the recogniser was unsure of ${percent(share)} of the words (warning from ${percent(UNSURE_SHARE_WARNING)}); check the whole note against the recording or your memory of the visit`,
    action: 'marked',
    position: { start: 0, end: 0, line: 1 },
  };
}
