// @vitest-environment happy-dom
/**
 * "Said but not in the note" (issue 24 point 2): what the writer could not place is listed under a
 * draft with where it would go; Add to note puts it at the end of that section and it leaves the
 * list; a signed note lists nothing.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { SaidNotInNote } from '../../renderer/components/said-not-in-note.js';
import { createAppStores, StoresProvider, type AppStores } from '../../renderer/state/stores.js';
import { MemoryStorage } from '../support/memory-storage.js';

afterEach(cleanup);

function stores(): AppStores {
  const s = new MemoryStorage();
  return createAppStores({ bridge: undefined, connectionEnv: { hash: '', session: s, local: s, clearHash: () => undefined }, local: s });
}

const NOTE = '## History of Present Illness\nKnee pain for two weeks.\n\n## Plan\n- Ibuprofen 400 mg three times daily.\n';
const UNPLACED = [
  { text: 'The pain is worse going down stairs.', section: 'hpi', reason: 'no fact read' },
  { text: 'We will get an X-ray of the knee if it is not better.', section: 'plan', reason: 'failed register gate' },
];

describe('said but not in the note', () => {
  it('lists what was not placed and adds one to its section with one press', async () => {
    const app = stores();
    app.notes.setState({ markdown: NOTE, generated: NOTE, unplaced: UNPLACED, signature: { status: 'draft' } });
    render(<StoresProvider stores={app}><SaidNotInNote /></StoresProvider>);
    const region = screen.getByRole('region', { name: 'Said but not in the note' });
    expect(region.textContent).toContain('(history of present illness)');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Add to note: The pain is worse going down stairs.' })));
    expect(app.notes.getState().markdown).toBe('## History of Present Illness\nKnee pain for two weeks.\nThe pain is worse going down stairs.\n\n## Plan\n- Ibuprofen 400 mg three times daily.\n');
    expect(screen.queryByRole('button', { name: /^Add to note: The pain/ })).toBeNull();
    expect(screen.getByRole('button', { name: /^Add to note: We will get an X-ray/ })).toBeTruthy();
  });

  it('lists nothing for a signed note', () => {
    const app = stores();
    app.notes.setState({ markdown: NOTE, unplaced: UNPLACED, signature: { status: 'signed' } as never });
    render(<StoresProvider stores={app}><SaidNotInNote /></StoresProvider>);
    expect(screen.queryByRole('region', { name: 'Said but not in the note' })).toBeNull();
  });
});
