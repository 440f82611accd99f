import { useState } from 'react';
import { useStores } from '../state/stores.js';

/**
 * Signing out, as the header and Settings both offer it: the open visit is saved and taken off the
 * screen first (on a shared computer the next person must not find the last patient there, and
 * nothing typed is lost); a visit that cannot be saved stops the sign-out with the reason.
 */
export function useSignOut(): { signOut(): Promise<void>; error: string | undefined; clearError(): void } {
  const { connection, dictation, visits } = useStores();
  const [error, setError] = useState<string>();
  const signOut = async (): Promise<void> => {
    setError(undefined);
    if (dictation.getState().status !== 'idle') await dictation.getState().stop();
    await visits.getState().flush();
    const { save, saveError } = visits.getState();
    if (save === 'conflict' || save === 'error') {
      setError(`The open visit is not saved yet (${saveError ?? 'not saved'}). Save it, or start a new visit, before signing out.`);
      return;
    }
    await visits.getState().startNew();
    visits.setState({ items: [], nextCursor: null, query: '', dateOfBirth: '', listError: undefined });
    connection.getState().signOut();
  };
  return { signOut, error, clearError: () => setError(undefined) };
}
