/**
 * What carries from one version of a note to the next (issue 27.3): the lines of the previous
 * version the new draft lacks are found (the physician's own ones known as such), and the chosen
 * ones go back under the same heading of the new draft.
 */
import { describe, expect, it } from 'vitest';
import { carryInto, CARRIED_HEADING, lineKey, linesToCarry, upsertVersion } from '../../renderer/state/note-versions.js';

const GENERATED = '## Assessment\nSore throat, likely viral.\n\n## Plan\n- Fluids\n- Paracetamol 1 g as needed\n';
const EDITED = '## Assessment\nSore throat, likely viral.\n\n## Plan\n- Fluids\n- Paracetamol 1 g as needed\n- Return in 2 weeks if not better\n';
const NEW_DRAFT = '## Assessment\nSore throat, probably viral.\n\n## Plan\n- **Fluids**.\n- Paracetamol 1 g as needed\n\n## Follow-up\nAs needed.\n';

describe('lines to carry into a new version', () => {
  it('compares lines by their words, not list marks, emphasis, case or closing punctuation', () => {
    expect(lineKey('- **Fluids**.')).toBe(lineKey('fluids'));
    expect(lineKey('2) Rest')).toBe('rest');
    expect(lineKey('Return in 2 weeks')).not.toBe(lineKey('Return in 3 weeks'));
  });

  it('offers the physician’s added line ticked, a line the new draft reworded unticked, and the addenda ticked', () => {
    const offer = linesToCarry({ noteId: 'n1', markdown: EDITED, generated: GENERATED, signed: true, addenda: [{ text: 'Rapid strep negative.' }] }, NEW_DRAFT);
    expect(offer).toEqual({
      fromNoteId: 'n1', fromSigned: true,
      lines: [
        { text: 'Sore throat, likely viral.', section: 'Assessment', added: false },
        { text: '- Return in 2 weeks if not better', section: 'Plan', added: true },
        { text: 'Rapid strep negative.', section: 'Addendum', added: true },
      ],
    });
  });

  it('without the generated text (a note reopened later) still lists what is missing, none ticked', () => {
    const offer = linesToCarry({ noteId: 'n1', markdown: EDITED, signed: true, addenda: [] }, NEW_DRAFT)!;
    expect(offer.lines.map((l) => [l.text, l.added])).toEqual([['Sore throat, likely viral.', false], ['- Return in 2 weeks if not better', false]]);
  });

  it('offers nothing when the new draft has every line', () => {
    expect(linesToCarry({ noteId: 'n1', markdown: GENERATED, generated: GENERATED, signed: false, addenda: [] }, GENERATED)).toBeUndefined();
  });
});

describe('carrying lines into the draft', () => {
  it('puts a line at the end of the section of the same heading, before the next heading', () => {
    const out = carryInto(NEW_DRAFT, [{ text: '- Return in 2 weeks if not better', section: 'Plan', added: true }]);
    expect(out).toBe('## Assessment\nSore throat, probably viral.\n\n## Plan\n- **Fluids**.\n- Paracetamol 1 g as needed\n- Return in 2 weeks if not better\n\n## Follow-up\nAs needed.\n');
  });

  it('puts lines whose section the draft does not have under a heading of their own at the end', () => {
    const out = carryInto(NEW_DRAFT, [{ text: 'Rapid strep negative.', section: 'Addendum', added: true }, { text: 'Seen with mother.', section: '', added: true }]);
    expect(out.endsWith(`As needed.\n\n## ${CARRIED_HEADING}\n\nRapid strep negative.\nSeen with mother.\n`)).toBe(true);
  });
});

describe('the list of versions', () => {
  it('updates a version in place and adds a new one at the end', () => {
    const one = { noteId: 'a', status: 'STATUS_DONE', signature: { status: 'draft' as const } };
    const list = upsertVersion(upsertVersion([], one), { noteId: 'b', status: 'STATUS_PENDING', signature: { status: 'draft' } });
    const signed = upsertVersion(list, { ...one, signature: { status: 'signed', signedBy: 'Dr. A', signedAt: 1 } });
    expect(signed.map((v) => [v.noteId, v.signature.status])).toEqual([['a', 'signed'], ['b', 'draft']]);
  });
});
