import { mostlyUnsure, percent, UNSURE_SHARE_WARNING } from '../../shared/dictation/unsure-share.js';
import './unsure-notice.css';

/** The id the Generate control points at (aria-describedby), so the warning is read with it. */
export const UNSURE_NOTICE_ID = 'unsure-transcript-notice';

/**
 * Said beside Generate when the transcript is mostly words the recogniser was unsure of (issue 27):
 * a note written from it may state with confidence what was never said. A notice, not a modal:
 * the physician may still generate, and the note's review list says it again. Short, because it
 * rides in the sticky Generate bar; `UnsureDetail` under the transcript says what to do.
 */
export function UnsureFlag({ share }: { share: number | null }) {
  if (!mostlyUnsure(share)) return null;
  return (
    <p className="unsure-flag" id={UNSURE_NOTICE_ID} data-testid="unsure-notice" data-share={share ?? undefined}>
      <strong>Mostly unsure transcript:</strong> the recogniser was unsure of {percent(share!)} of its words (Clindoc warns from {percent(UNSURE_SHARE_WARNING)});
      a note written from it may state what was never said.
    </p>
  );
}

/** Under the transcript: what to do about it. */
export function UnsureDetail({ share }: { share: number | null }) {
  if (!mostlyUnsure(share)) return null;
  return (
    <p className="hint" data-testid="unsure-detail">
      Correct the underlined words on Dictation and use the text again, or read the note against the recording or your memory of the visit;
      its review list will say that its source was mostly unsure.
    </p>
  );
}
