import { describe, expect, it } from 'vitest';
import { parseTemplateText } from '../../main/services/notes/template-text.js';
import { templateLayout } from '../../main/engines/text/embedded/template-text.js';

describe('one free-text template reader for both note writers', () => {
  it('reads a one-line list of sections with their shapes in brackets', () => {
    const parsed = parseTemplateText('Sections: Subjective, Objective (bullet points), Assessment, Plan (numbered list)');
    expect(parsed.sections.map((s) => [s.heading, s.format])).toEqual([
      ['Subjective', 'prose'],
      ['Objective', 'bullet'],
      ['Assessment', 'prose'],
      ['Plan', 'numbered'],
    ]);
  });

  it('does not take a one-line shape instruction for a list of sections', () => {
    const parsed = parseTemplateText('HPI: 2-3 sentences, one paragraph');
    expect(parsed.sections.map((s) => [s.heading, s.format, s.maxSentences])).toEqual([['HPI', 'prose', 3]]);
  });

  it('gives the embedded writer the sections, looks and sizes the style writer wrote', () => {
    const text = [
      'Write the note with these sections, in this order, using these exact headings:',
      '1. "CHIEF COMPLAINT" [heading: caps] — prose, brief, about 1 sentence; content: chief_complaint.',
      '2. "Impression and next steps" [heading: markdown 3] — numbered list, standard, about 2 items; content: assessment_plan.',
      '',
      'General instructions:',
      '- Keep it brief.',
    ].join('\n');
    const { layout, directives } = templateLayout(text, 'standard');
    expect(layout.map((s) => [s.title, s.target, s.headingStyle, s.level, s.format, s.listType, s.detail, s.maxItems])).toEqual([
      ['CHIEF COMPLAINT', 'chief_complaint', 'caps', 2, 'prose', 'bullet', 'brief', 1],
      ['Impression and next steps', 'assessment_plan', 'markdown', 3, 'list', 'numeric', 'standard', 2],
    ]);
    expect(directives.detail).toBe('brief');
  });

  it('keeps a plain instruction line out of the sections', () => {
    const { layout } = templateLayout('Write a concise note.\nCHIEF COMPLAINT\nASSESSMENT AND PLAN', 'standard');
    expect(layout.map((s) => s.title)).toEqual(['CHIEF COMPLAINT', 'ASSESSMENT AND PLAN']);
  });
});
