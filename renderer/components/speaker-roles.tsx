import { hasRoleLabels, swapRoleLabels } from '../../shared/speaker-roles.js';
import { locked } from '../state/note-store.js';
import { useNotes, useStores } from '../state/stores.js';

/**
 * Under a recording's transcript whose two speakers were labelled Doctor and Patient: says the
 * roles are a guess from the dialogue and swaps them, on every line, with one click. Hidden when
 * the transcript has no such labels, and once the note is signed (its transcript is read-only).
 */
export function SpeakerRoles() {
  const { notes } = useStores();
  const transcript = useNotes((s) => s.transcript);
  const isLocked = useNotes((s) => locked(s));
  if (isLocked || !hasRoleLabels(transcript)) return null;
  return (
    <div className="toolbar speaker-roles">
      <span className="hint">Doctor and patient are guessed from the dialogue.</span>
      <button type="button" onClick={() => notes.getState().set({ transcript: swapRoleLabels(notes.getState().transcript) })}>
        Swap speakers
      </button>
    </div>
  );
}
