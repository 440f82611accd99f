import { mostlyUnsure, percent, UNSURE_SHARE_WARNING } from '../../shared/dictation/unsure-share.js';

/** The id the Generate control points at (aria-describedby), so the warning is read with it. */
export const UNSURE_NOTICE_ID = 'unsure-transcript-notice';

/**
 * Said beside Generate when the transcript is mostly words the recogniser was unsure of (issue 27):
 * a note written from it may state with confidence what was never said. A notice, not a modal:
 * the physician may still generate, and the note's review list says it again.
 */
export function UnsureNotice({ share }: { share: number | null }) {
  if (!mostlyUnsure(share)) return null;
  return (
    <div className="message warning" id={UNSURE_NOTICE_ID} data-testid="unsure-notice" data-share={share ?? undefined}>
      <p>
        <strong>Mostly unsure transcript:</strong> the recogniser was unsure of {percent(share!)} of its words (Clindoc warns from {percent(UNSURE_SHARE_WARNING)}).
        A note written from it may state what was never said.
      </p>
      <p>Correct the underlined words on Dictation first, or read the note against your memory of the visit; its review list will say that its source was mostly unsure.</p>
    </div>
  );
}
