import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleModel } from '../../main/engines/llm/openai-compatible.js';
import { createLlmStyleWriter } from '../../main/engines/text/llm/style-writer.js';
import { createLlmNoteWriter } from '../../main/engines/text/llm/note-writer.js';
import { parseTemplateText } from '../../main/services/notes/template-text.js';
import { DomainError } from '../../main/services/errors.js';
import { answer, startChatServer, type ChatServer, type RecordedRequest } from './chat-server.js';

let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SAMPLE = `CHIEF COMPLAINT

Left knee pain.

HISTORY OF PRESENT ILLNESS

Mr. Jones is a 54-year-old man with 2 weeks of left knee pain after a fall. Pain is worse with stairs. He denies locking.

MEDICATIONS

- Ibuprofen 400 mg as needed
- Lisinopril 10 mg daily

ASSESSMENT AND PLAN

1. Left knee sprain: RICE, ibuprofen.
2. Hypertension: continue lisinopril.
3. Follow up in 2 weeks.
`;

// What a model answers when asked to outline SAMPLE (it may say "bullet" for the numbered list:
// the writer measures the sample itself), plus one heading the sample does not have.
const OUTLINE = {
  general: 'Concise clinical third person with standard abbreviations.',
  sections: [
    { heading: 'CHIEF COMPLAINT', format: 'prose', guidance: 'The presenting problem in a few words.' },
    { heading: 'HISTORY OF PRESENT ILLNESS', format: 'prose', guidance: 'Age, sex, onset, course and pertinent negatives.' },
    { heading: 'MEDICATIONS', format: 'bullet', guidance: 'Current medications with dose and frequency.' },
    { heading: 'ASSESSMENT AND PLAN', format: 'bullet', guidance: 'One item per problem: diagnosis then plan.' },
    { heading: 'SOCIAL HISTORY', format: 'prose', guidance: 'Invented by the model.' },
  ],
};

const systemOf = (req: RecordedRequest) => req.body.messages![0]!.content;

describe('LLM style writer', () => {
  it('turns a sample note into a template that reproduces its sections, order, headings, list choice and size', async () => {
    server = await startChatServer((req, res) => {
      const schema = req.body.response_format?.json_schema?.schema as { properties: Record<string, unknown> };
      if ('sections' in schema.properties) return answer(res, JSON.stringify(OUTLINE));
      // Note request built from the template: answer each section in the shape it asks for.
      const fill = Object.fromEntries(
        Object.entries(schema.properties).map(([k, v]) => [k, (v as { type: string }).type === 'array' ? ['Item one.', 'Item two.'] : 'Some text.']),
      );
      return answer(res, JSON.stringify(fill));
    });
    const model = createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm' });
    const template = await createLlmStyleWriter(model).createTemplate(SAMPLE, ['Keep it short.']);

    expect(systemOf(server.requests[0]!)).toContain('- Keep it short.');
    expect(server.requests[0]!.body.messages![1]!.content).toContain('Left knee pain.');
    const parsed = parseTemplateText(template);
    expect(parsed.general).toBe('Concise clinical third person with standard abbreviations.');
    expect(parsed.sections.map((s) => [s.heading, s.headingStyle, s.format, s.maxSentences ?? s.maxItems])).toEqual([
      ['CHIEF COMPLAINT', 'caps', 'prose', 1],
      ['HISTORY OF PRESENT ILLNESS', 'caps', 'prose', 3],
      ['MEDICATIONS', 'caps', 'bullet', 2],
      ['ASSESSMENT AND PLAN', 'caps', 'numbered', 3],
    ]);
    // The template carries no patient fact from the sample.
    expect(template).not.toMatch(/Jones|54|Ibuprofen|lisinopril/i);

    const note = await createLlmNoteWriter(model).write({
      transcript: '[doctor] How is the knee?\n[patient] Still sore.',
      noteType: { type: 'note_style', template },
      language: 'en',
    });
    // Same headings, same order, same look (plain capitals like the sample), same list choice.
    expect(note.markdown).toBe(
      [
        'CHIEF COMPLAINT\n\nSome text.',
        'HISTORY OF PRESENT ILLNESS\n\nSome text.',
        'MEDICATIONS\n\n- Item one.\n- Item two.',
        'ASSESSMENT AND PLAN\n\n1. Item one.\n2. Item two.\n',
      ].join('\n\n'),
    );
  });

  it('answers 502 after three answers when no heading of the answer appears in the sample', async () => {
    server = await startChatServer((_req, res) =>
      answer(res, JSON.stringify({ general: '', sections: [{ heading: 'Totally New', format: 'prose', guidance: '' }] })),
    );
    const writer = createLlmStyleWriter(createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm' }));
    const err = await writer.createTemplate(SAMPLE, []).catch((e: unknown) => e);
    expect((err as DomainError).status).toBe(502);
    expect((err as DomainError).message).toMatch(/no usable note style in 3 answers/);
    expect(server.requests).toHaveLength(3);
  });
});
