// @vitest-environment happy-dom
/**
 * The note is edited in place (issue 27 point 5): headings stay headings, each section's words
 * are a box without markdown, typing keeps what is typed, and the note's markdown follows.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { NoteSectionsEditor } from '../../renderer/components/note-sections-editor.js';

afterEach(cleanup);

const NOTE = '## Assessment\nLeft knee osteoarthritis.\n\n## Plan\n- Ibuprofen 400 mg three times daily.\n- Physiotherapy referral.\n';

describe('note sections editor', () => {
  it('shows each section under its heading without markdown and rebuilds the note as the physician types', async () => {
    let latest = NOTE;
    function Host() {
      const [md, setMd] = useState(NOTE);
      return <NoteSectionsEditor markdown={md} onChange={(next) => { latest = next; setMd(next); }} />;
    }
    render(<Host />);
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual(['Assessment', 'Plan']);
    const plan = screen.getByLabelText('Edit Plan') as HTMLTextAreaElement;
    expect(plan.value).toBe('Ibuprofen 400 mg three times daily.\nPhysiotherapy referral.');
    expect(document.body.textContent).not.toMatch(/##|^- /m);

    // A new line typed at the end stays in the box while it is empty, then becomes an item.
    await act(async () => fireEvent.change(plan, { target: { value: `${plan.value}\n` } }));
    expect(plan.value).toBe('Ibuprofen 400 mg three times daily.\nPhysiotherapy referral.\n');
    await act(async () => fireEvent.change(plan, { target: { value: `${plan.value}Return in two weeks.` } }));
    expect(latest).toBe('## Assessment\nLeft knee osteoarthritis.\n\n## Plan\n- Ibuprofen 400 mg three times daily.\n- Physiotherapy referral.\n- Return in two weeks.\n');

    const assessment = screen.getByLabelText('Edit Assessment') as HTMLTextAreaElement;
    await act(async () => fireEvent.change(assessment, { target: { value: 'Right knee osteoarthritis.' } }));
    expect(latest.startsWith('## Assessment\nRight knee osteoarthritis.\n\n## Plan\n- Ibuprofen')).toBe(true);
  });

  it('shows a heading over sub-headings without a box of its own, and bold marks as their words', () => {
    render(<NoteSectionsEditor markdown={'# SOAP Note\n**Patient:** Ana Test\n## Subjective\n### Chief Complaint\nKnee pain.\n'} onChange={() => undefined} />);
    expect(screen.getAllByRole('heading').map((h) => h.textContent)).toEqual(['SOAP Note', 'Subjective', 'Chief Complaint']);
    expect(screen.queryByLabelText('Edit Subjective')).toBeNull();
    expect((screen.getByLabelText('Edit SOAP Note') as HTMLTextAreaElement).value).toBe('Patient: Ana Test');
    expect((screen.getByLabelText('Edit Chief Complaint') as HTMLTextAreaElement).value).toBe('Knee pain.');
  });

  it('starts again from the note when it changes from elsewhere (Revert to generated)', async () => {
    const { rerender } = render(<NoteSectionsEditor markdown={NOTE} onChange={() => undefined} />);
    rerender(<NoteSectionsEditor markdown={'## Plan\n- Rest.\n'} onChange={() => undefined} />);
    expect((screen.getByLabelText('Edit Plan') as HTMLTextAreaElement).value).toBe('Rest.');
    expect(screen.queryByLabelText('Edit Assessment')).toBeNull();
  });
});
