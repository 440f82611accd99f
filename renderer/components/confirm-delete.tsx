import { useEffect, useRef, useState } from 'react';

/**
 * A Delete link that asks first: pressed, it becomes "Delete WHAT?" with Delete and Cancel, and
 * the focus goes to Cancel so a second Enter does not delete. Escape cancels. Only the confirming
 * press calls `onConfirm`.
 */
export function ConfirmDelete({ what, label, onConfirm }: { what: string; /** The first button's text (default "Delete"). */ label?: string; onConfirm(): void }) {
  const [asking, setAsking] = useState(false);
  const cancel = useRef<HTMLButtonElement>(null);
  const start = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) cancel.current?.focus();
    else if (wasAsking.current) start.current?.focus();
    wasAsking.current = asking;
  }, [asking]);
  if (!asking) {
    // A button whose text already names what it deletes needs no other name (axe: the name starts with the visible text).
    return <button ref={start} type="button" className="link" aria-label={label ? undefined : `Delete ${what}`} onClick={() => setAsking(true)}>{label ?? 'Delete'}</button>;
  }
  return (
    <span role="group" aria-label={`Delete ${what}?`} className="confirm-delete" onKeyDown={(e) => { if (e.key === 'Escape') setAsking(false); }}>
      <span>Delete {what}?</span>{' '}
      <button type="button" className="link danger" onClick={() => { setAsking(false); onConfirm(); }}>Delete</button>{' '}
      <button ref={cancel} type="button" className="link" onClick={() => setAsking(false)}>Cancel</button>
    </span>
  );
}
