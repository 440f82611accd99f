// @vitest-environment happy-dom
/**
 * Deleting a macro or a template asks first (issue 27 point 10): the first press only asks, the
 * focus goes to Cancel, Escape takes the question back, and only the confirming press deletes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ConfirmDelete } from '../../renderer/components/confirm-delete.js';

afterEach(cleanup);

describe('confirm before deleting', () => {
  it('asks, cancels from the keyboard, and deletes only on the confirming press', async () => {
    const onConfirm = vi.fn();
    render(<ConfirmDelete what="macro exam" onConfirm={onConfirm} />);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete macro exam' })));
    expect(onConfirm).not.toHaveBeenCalled();
    const question = screen.getByRole('group', { name: 'Delete macro exam?' });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }));

    await act(async () => fireEvent.keyDown(question, { key: 'Escape' }));
    expect(screen.queryByRole('group')).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Delete macro exam' }));
    expect(onConfirm).not.toHaveBeenCalled();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Delete macro exam' })));
    await act(async () => fireEvent.click(screen.getByRole('group', { name: 'Delete macro exam?' }).querySelector('button')!));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
