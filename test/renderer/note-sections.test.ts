/**
 * A note is edited section by section in a physician's words (issue 27 point 5): a list as one item
 * per line without markers, prose as prose; splitting and joining are exact, and an edit keeps a
 * list a list.
 */
import { describe, expect, it } from 'vitest';
import { addToSection, bodyKind, fromPlain, joinSections, splitSections, toPlain } from '../../renderer/state/note-sections.js';

const NOTE = '# Visit note\n\n## Subjective\nKnee pain for two weeks.\nWorse on stairs.\n\n## Plan\n\n1. Ibuprofen 400 mg three times daily.\n2. Physiotherapy referral.\n\n## Follow-up\n- Return in 2 weeks\n';

describe('note sections', () => {
  it('splits at headings and joins back byte for byte', () => {
    const sections = splitSections(NOTE);
    expect(sections.map((s) => s.heading)).toEqual(['Visit note', 'Subjective', 'Plan', 'Follow-up']);
    expect(joinSections(sections)).toBe(NOTE);
    expect(joinSections(splitSections('Lines before any heading.\n## A\ntext'))).toBe('Lines before any heading.\n## A\ntext');
    expect(splitSections('Lines before any heading.\n## A\ntext')[0]).toMatchObject({ heading: undefined, body: 'Lines before any heading.' });
  });

  it('shows a list without its markers and keeps it a list after an edit', () => {
    const plan = splitSections(NOTE)[2]!;
    expect(bodyKind(plan.body)).toBe('numbered');
    expect(toPlain(plan.body)).toBe('Ibuprofen 400 mg three times daily.\nPhysiotherapy referral.');
    const edited = fromPlain('Ibuprofen 400 mg three times daily.\nKnee X-ray.\nPhysiotherapy referral.\n', plan.body);
    expect(edited).toBe('\n\n1. Ibuprofen 400 mg three times daily.\n2. Knee X-ray.\n3. Physiotherapy referral.\n\n');
    const follow = splitSections(NOTE)[3]!;
    expect(fromPlain('Return in 2 weeks\n- Call if swelling', follow.body)).toBe('\n- Return in 2 weeks\n- Call if swelling\n');
  });

  it('keeps prose as typed and gives back the original when nothing changed', () => {
    const subjective = splitSections(NOTE)[1]!;
    expect(bodyKind(subjective.body)).toBe('text');
    expect(fromPlain(toPlain(subjective.body), subjective.body)).toBe(subjective.body);
    expect(fromPlain('Knee pain for three weeks.', subjective.body)).toBe('\nKnee pain for three weeks.\n');
  });
});

describe('adding what was said to the note', () => {
  it('puts a sentence at the end of its section, as an item in a list, else under "Said in the visit"', () => {
    const withExam = '## History of Present Illness\nKnee pain for two weeks.\n\n## Plan\n- Ibuprofen.\n';
    expect(addToSection(withExam, 'Pain is worse on stairs.', 'hpi')).toBe('## History of Present Illness\nKnee pain for two weeks.\nPain is worse on stairs.\n\n## Plan\n- Ibuprofen.\n');
    expect(addToSection(withExam, 'Knee X-ray.', 'plan')).toBe('## History of Present Illness\nKnee pain for two weeks.\n\n## Plan\n- Ibuprofen.\n- Knee X-ray.\n');
    const once = addToSection(withExam, 'No effusion.', 'exam');
    expect(once).toBe(`${withExam}\n## Said in the visit\n- No effusion.\n`);
    expect(addToSection(once, 'Full range of motion.', undefined)).toBe(`${withExam}\n## Said in the visit\n- No effusion.\n- Full range of motion.\n`);
  });
});
