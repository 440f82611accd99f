import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleModel } from '../../main/engines/llm/openai-compatible.js';
import { createLlmNoteWriter } from '../../main/engines/text/llm/note-writer.js';
import { DomainError } from '../../main/services/errors.js';
import type { NoteGenerationInput } from '../../main/services/notes/ports.js';
import { checkFidelity, fidelitySourcesOf } from '../../main/services/notes/fidelity.js';
import type { NoteTemplate } from '../../shared/note-template.js';
import { answer, startChatServer, type ChatServer, type RecordedRequest } from './chat-server.js';

// The loopback server plays the model: it answers what a model would for the request it receives,
// so these tests exercise the writer's prompt, schema, validation, correction and rendering.
let server: ChatServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const TRANSCRIPT = `[doctor] What brings you in today?
[patient] I've had a cough for three days and some fever. I take metforman five hundred milligrams twice a day.
[doctor] Any chest pain?
[patient] No.
[doctor] Your blood pressure is one thirty over eighty five. Lungs have scattered wheezes.
[doctor] This looks like acute bronchitis. Keep taking your metformin, rest, and come back in one week if not better.`;

function input(overrides: Partial<NoteGenerationInput> = {}): NoteGenerationInput {
  return { transcript: TRANSCRIPT, noteType: { type: 'soap', includeJson: true }, language: 'en', ...overrides };
}

async function writerAnswering(reply: (req: RecordedRequest) => unknown) {
  server = await startChatServer((req, res) => answer(res, JSON.stringify(reply(req))));
  return createLlmNoteWriter(createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm', retryBaseDelayMs: 1 }));
}

const schemaOf = (req: RecordedRequest) => req.body.response_format?.json_schema?.schema as { properties: Record<string, unknown> };
const systemOf = (req: RecordedRequest) => req.body.messages![0]!.content;
const userOf = (req: RecordedRequest) => req.body.messages![1]!.content;

describe('LLM note writer', () => {
  it('writes a SOAP note from the schema-constrained answer, with matching JSON', async () => {
    const writer = await writerAnswering(() => ({
      subjective: 'Reports cough for 3 days with fever. Denies chest pain. Takes metforman 500 mg twice daily.',
      objective: 'BP 130/85 mmHg. Lungs with scattered wheezes.',
      assessment: 'Acute bronchitis.',
      plan: ['1. Continue metformin.', '- Rest.', 'Return in 1 week if not improved.'],
    }));
    const note = await writer.write(input({ medicationList: 'Metformin, Lisinopril' }));

    const req = server!.requests[0]!;
    expect(Object.keys(schemaOf(req).properties)).toEqual(['subjective', 'objective', 'assessment', 'plan']);
    expect(userOf(req)).toContain('cough for three days');
    expect(systemOf(req)).toContain('Metformin, Lisinopril');
    expect(note.markdown).toBe(
      [
        '## Subjective',
        '',
        'Reports cough for 3 days with fever. Denies chest pain. Takes Metformin 500 mg twice daily.',
        '',
        '## Objective',
        '',
        'BP 130/85 mmHg. Lungs with scattered wheezes.',
        '',
        '## Assessment',
        '',
        'Acute bronchitis.',
        '',
        '## Plan',
        '',
        '- Continue metformin.',
        '- Rest.',
        '- Return in 1 week if not improved.',
        '',
      ].join('\n'),
    );
    expect(note.json).toEqual({
      Subjective: 'Reports cough for 3 days with fever. Denies chest pain. Takes Metformin 500 mg twice daily.',
      Objective: 'BP 130/85 mmHg. Lungs with scattered wheezes.',
      Assessment: 'Acute bronchitis.',
      Plan: ['Continue metformin.', 'Rest.', 'Return in 1 week if not improved.'],
    });
  });

  it('leaves a dose or drug the encounter never mentions to the fidelity check, which removes it', async () => {
    const writer = await writerAnswering(() => ({
      subjective: 'Cough for 3 days. Takes Metformin 850 mg daily.',
      objective: '',
      assessment: 'Acute bronchitis.',
      plan: ['Start Lisinopril.', 'Rest.'],
    }));
    const request = input({ medicationList: 'Metformin, Lisinopril' });
    const written = await writer.write(request);
    // The note service runs every writer's note through the one fidelity checker.
    const note = checkFidelity(written, fidelitySourcesOf(request));
    expect(note.markdown).toContain('Cough for 3 days.');
    expect(note.markdown).not.toContain('850');
    expect(note.markdown).not.toContain('Lisinopril');
    expect(note.markdown).toContain('Takes Metformin ⚠[check: removed, the transcript gives Metformin 500 mg] daily ⚠[check: the transcript says twice a day].');
    expect(note.markdown).toContain('- Start ⚠[check: removed, medication not mentioned in the transcript].');
    expect(note.markdown).toContain('## Objective\n\nNothing recorded here; check the transcript.');
    expect(note.review.map((r) => [r.kind, r.text])).toEqual([['dose', '850 mg'], ['frequency', 'daily'], ['medication', 'Lisinopril']]);
  });

  it('writes headings and fixed words in the requested language and asks for that language', async () => {
    const writer = await writerAnswering(() => ({ subjective: 'Tos desde hace 3 días.', objective: '', assessment: 'Bronquitis aguda.', plan: ['Reposo.'] }));
    const note = await writer.write(
      input({ language: 'es', patientInfo: { name: 'Ana Ruiz', dateOfBirth: '1980-02-03' }, date: '2026-11-20T10:00:00Z' }),
    );
    expect(systemOf(server!.requests[0]!)).toContain('Write in Spanish');
    expect(note.markdown).toContain('**Paciente:** Ana Ruiz');
    expect(note.markdown).toContain('**Fecha:** 2026-11-20');
    expect(note.markdown).toContain('## Subjetivo\n\nTos desde hace 3 días.');
    expect(note.markdown).toContain('## Objetivo\n\nNada registrado aquí; revise la transcripción.');
    expect(note.markdown).toContain('## Plan\n\n- Reposo.');
  });

  it('follows a free-text template: its sections, order, headings and list choice', async () => {
    const writer = await writerAnswering((req) => {
      const keys = Object.keys(schemaOf(req).properties);
      return Object.fromEntries(keys.map((k) => [k, k === 'plan' ? ['Rest.', 'Return in 1 week.'] : `Text for ${k}.`]));
    });
    const template = 'Chief Complaint: one sentence.\nHistory of Present Illness: 2-3 sentences.\nPlan: numbered list of actions.';
    const note = await writer.write(input({ noteType: { type: 'note_style', template, includeJson: false } }));

    expect(Object.keys(schemaOf(server!.requests[0]!).properties)).toEqual(['chief_complaint', 'history_of_present_illness', 'plan']);
    expect(note.json).toBeUndefined();
    expect(note.markdown).toBe(
      '## Chief Complaint\n\nText for chief_complaint.\n\n## History of Present Illness\n\nText for history_of_present_illness.\n\n## Plan\n\n1. Rest.\n2. Return in 1 week.\n',
    );
  });

  it('honours a NoteTemplate: headings, labels, item caps, placeholders and hidden empty sections', async () => {
    const template: NoteTemplate = {
      id: 't1',
      title: 'Visit',
      sections: [
        {
          id: 'h1',
          type: 'heading',
          properties: { level: 1, text: 'Visit summary' },
          children: [
            { id: 'reason', type: 'text', prompt: 'Reason for visit', properties: { label: 'Reason', max_sentences: 1 } },
            { id: 'problems', type: 'list', prompt: 'Problems addressed', properties: { list_type: 'numeric', max_items: 2 } },
          ],
        },
        { id: 'social', type: 'text', prompt: 'Social history', properties: { hideIfEmpty: true } },
        { id: 'allergies', type: 'list', prompt: 'Allergies', properties: { list_type: 'bullet', emptyPlaceholder: 'NKDA not stated.' } },
      ],
    };
    const writer = await writerAnswering(() => ({
      visit_summary: { reason: 'Cough for 3 days. Fever as well.', problems: ['Acute bronchitis', 'Diabetes', 'Wheezing'] },
      social: '',
      allergies: [],
    }));
    const note = await writer.write(input({ noteType: { type: 'note_template', noteTemplate: template, includeJson: true } }));

    expect(note.markdown).toBe('# Visit summary\n\n**Reason:** Cough for 3 days.\n\n1. Acute bronchitis\n2. Diabetes\n\nNKDA not stated.\n');
    expect(note.json).toEqual({ 'Visit summary': { Reason: 'Cough for 3 days.', problems: ['Acute bronchitis', 'Diabetes'] }, allergies: [] });
  });

  it('passes previous note, context and instructions to the model', async () => {
    const writer = await writerAnswering(() => ({ subjective: 'History of asthma (from previous note).', objective: '', assessment: '', plan: [] }));
    const note = await writer.write(
      input({ previousNote: 'PMH: asthma.', context: 'Urgent care visit.', instructions: ['Use metric units.'] }),
    );
    const req = server!.requests[0]!;
    expect(userOf(req)).toContain('PMH: asthma.');
    expect(userOf(req)).toContain('Urgent care visit.');
    expect(systemOf(req)).toContain('- Use metric units.');
    expect(systemOf(req)).toContain('(from previous note)');
    expect(note.markdown).toContain('History of asthma (from previous note).');
  });

  it('asks again when an answer is unusable, and keeps the good one', async () => {
    server = await startChatServer((_req, res, index) =>
      answer(res, index === 0 ? '{"subjective": 42}' : JSON.stringify({ subjective: 'Cough.', objective: '', assessment: '', plan: [] })),
    );
    const writer = createLlmNoteWriter(createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm' }));
    const note = await writer.write(input());
    expect(note.markdown).toContain('Cough.');
    expect(server.requests).toHaveLength(2);
    expect(systemOf(server.requests[1]!)).toContain('could not be used: the answer does not match the note schema');
  });

  it('asks at most twice more when answers stay unusable, then fails with a clear 502 and no patient data', async () => {
    server = await startChatServer((_req, res) => answer(res, 'The patient Ana has a cough.', 'length'));
    const writer = createLlmNoteWriter(createOpenAiCompatibleModel({ baseUrl: server.baseUrl, model: 'm' }));
    const err = await writer.write(input()).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect(server.requests).toHaveLength(3);
    // Not engine_unavailable: the job runner does not ask the same model again later.
    expect((err as DomainError).kind).toBe('engine_bad_answer');
    expect((err as DomainError).status).toBe(502);
    expect((err as DomainError).message).toMatch(/no usable note in 3 answers: the answer holds no JSON object/);
    expect((err as DomainError).message).not.toMatch(/Ana|cough/);
  });
});
