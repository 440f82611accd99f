import { useEffect, useRef, type RefObject } from 'react';

/**
 * Moves focus to `target` when `status` changes in a way `arrived(before, now)` accepts, so a keyboard
 * or screen-reader user lands on what a finished action produced (the editor after dictation stops,
 * the note once it is written) and not where they last pressed.
 */
export function useFocusOnArrival<S>(status: S, target: RefObject<{ focus(): void } | null>, arrived: (before: S, now: S) => boolean): void {
  const was = useRef(status);
  useEffect(() => {
    const before = was.current;
    was.current = status;
    if (before !== status && arrived(before, status)) target.current?.focus();
    // `arrived` is a rule, not state: only a change of status moves focus.
  }, [status]);
}
