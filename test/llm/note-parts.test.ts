import { describe, expect, it } from 'vitest';
import { parseTemplateText, writeTemplateText } from '../../main/services/notes/template-text.js';
import { correctMedicationNames, parseMedicationList } from '../../main/services/clinical-language/medications.js';
import { statedNumbers } from '../../main/services/clinical-language/numbers.js';
import { toGrammarSchema } from '../../main/engines/llm/grammar-schema.js';
import { fillPrompt, loadPrompt } from '../../main/engines/text/llm/prompt-files.js';
import { splitSentences } from '../../main/services/clinical-language/tokenize.js';

const shape = (template: string) => parseTemplateText(template).sections.map((s) => [s.heading, s.format]);

describe('free-text templates', () => {
  it('reads the section forms people write', () => {
    expect(shape('# SOAP\n## Subjective\nWhat the patient reports.\n## Plan\nNumbered list of next steps.')).toEqual([
      ['SOAP', 'prose'],
      ['Subjective', 'prose'],
      ['Plan', 'numbered'],
    ]);
    expect(shape('Write a concise note.\nCHIEF COMPLAINT:\nHPI: 2-3 sentences\nMedications: bullet list')).toEqual([
      ['CHIEF COMPLAINT', 'prose'],
      ['HPI', 'prose'],
      ['Medications', 'bullet'],
    ]);
    expect(shape('- Reason for visit\n- Findings\n- Follow-up')).toEqual([
      ['Reason for visit', 'prose'],
      ['Findings', 'prose'],
      ['Follow-up', 'bullet'],
    ]);
    expect(shape('Include chief complaint, HPI, assessment and plan.')).toEqual([
      ['Chief Complaint', 'prose'],
      ['HPI', 'prose'],
      ['Assessment and Plan', 'prose'],
    ]);
    expect(parseTemplateText('Write whatever fits best.').sections).toEqual([]);
  });

  it('reads the embedded style writer\'s form', () => {
    const text = [
      'Write the note with these sections, in this order, using these exact headings:',
      '1. "CHIEF COMPLAINT" [heading: caps] — prose, brief, about 1 sentence; content: chief_complaint.',
      '2. "Plan" [heading: markdown 3] — numbered list, standard, about 2 items; content: plan.',
      '',
      'General instructions:',
      '- Keep negatives.',
    ].join('\n');
    const parsed = parseTemplateText(text);
    expect(parsed.general).toBe('Keep negatives.');
    expect(parsed.sections).toMatchObject([
      { heading: 'CHIEF COMPLAINT', headingStyle: 'caps', level: 2, format: 'prose', maxSentences: 1 },
      { heading: 'Plan', level: 3, format: 'numbered', maxItems: 2 },
    ]);
  });

  it('reads back exactly what it writes', () => {
    const outline = {
      general: 'Concise.',
      sections: [
        { heading: 'CC', level: 2, format: 'prose' as const, guidance: 'Reason for the visit; list nothing.', maxSentences: 1 },
        { heading: 'Plan', level: 3, format: 'numbered' as const, guidance: 'Next steps in 2 sentences each.', maxItems: 4 },
        { heading: 'MEDS', level: 2, headingStyle: 'caps' as const, format: 'bullet' as const, guidance: '' },
      ],
    };
    expect(parseTemplateText(writeTemplateText(outline))).toEqual(outline);
  });
});

describe('medication spelling', () => {
  const meds = parseMedicationList('Metformin, Lisinopril, Zyrtec, insulin glargine, Metformin');

  it('fixes misspelt and mis-heard drug names and leaves other words alone', () => {
    expect(meds).toEqual(['Metformin', 'Lisinopril', 'Zyrtec', 'insulin glargine']);
    expect(correctMedicationNames('Takes metforman and lisinipril; tried zirtek. Started insulin glargin.', meds)).toBe(
      'Takes Metformin and Lisinopril; tried Zyrtec. Started insulin glargine.',
    );
    const untouched = 'Patient reports formation of lesions, listless mood, metabolic panel normal.';
    expect(correctMedicationNames(untouched, meds)).toBe(untouched);
  });
});

// Grounding of model-written notes is the note service's fidelity checker now (test/notes/fidelity.test.ts).
describe('stated numbers', () => {
  it('reads numbers spoken as words, including blood pressures', () => {
    const n = statedNumbers('one thirty over eighty five, five hundred milligrams twice a day, for twenty-one days, 2.5 mg');
    for (const v of ['130', '85', '500', '2', '21', '2.5']) expect(n.has(v)).toBe(true);
    expect(n.has('850')).toBe(false);
  });
});

describe('grammar schema rewrite', () => {
  it('turns constructs node-llama-cpp mishandles into ones it supports', () => {
    const rewritten = toGrammarSchema({
      type: 'object',
      required: ['a'],
      definitions: { code: { type: 'string', pattern: '^[A-Z]' } },
      properties: {
        a: { type: ['array', 'null'], items: { $ref: '#/definitions/code' }, uniqueItems: true },
        b: { anyOf: [{ type: 'string', format: 'email' }, { type: 'number', minimum: 0 }] },
        c: { type: ['string', 'null'], format: 'date' },
      },
      additionalProperties: false,
    });
    expect(rewritten).toEqual({
      type: 'object',
      properties: {
        a: { type: 'array', items: { $ref: '#/$defs/code' } },
        b: { oneOf: [{ type: 'string' }, { type: 'number' }] },
        c: { type: ['string', 'null'], format: 'date' },
      },
      $defs: { code: { type: 'string' } },
    });
  });
});

describe('prompt files', () => {
  it('loads the note prompt and fills only the blocks that have values', () => {
    const note = loadPrompt('note');
    const system = fillPrompt(note.system, { language: 'French', sections: '- "a"' });
    expect(system).toContain('Write in French');
    expect(system).not.toMatch(/\{\{|previous note|medication names are the correct/);
    expect(fillPrompt(note.system, { medicationList: 'Metformin' })).toContain('exactly as listed: Metformin');
    expect(loadPrompt('style').user).toContain('{{sampleNote}}');
  });

  it('splits sentences without breaking titles or decimals', () => {
    expect(splitSentences('Mr. Jones takes 2.5 mg daily. Dr. Lee agrees! Done?')).toEqual(['Mr. Jones takes 2.5 mg daily.', 'Dr. Lee agrees!', 'Done?']);
  });
});
