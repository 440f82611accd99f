import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { finishedNote, startServer, type TestServer } from '../support/server.js';
import { answer, startChatServer, type ChatServer } from './chat-server.js';

// A language model that invents: a dose ten times the one said, and the wrong knee. The loopback
// server plays it, so the whole path runs: POST /v1/notes, the job, the model writer, the fidelity
// check every writer's note passes, the stored note and GET /v1/notes/{id}.
const TRANSCRIPT = `[doctor] what brings you in today ?
[patient] my right knee has been hurting for about three days .
[doctor] are you still taking metformin ?
[patient] yes , metformin five hundred milligrams twice a day .
[doctor] any fever ?
[patient] no .`;

const MODEL_NOTE = {
  subjective: 'Right knee pain for 3 days. Takes metformin 5000 mg twice daily. Denies fever.',
  objective: 'Left knee effusion, no erythema.',
  assessment: 'Knee pain.',
  plan: ['Continue metformin 500 mg twice daily.', 'Ice the left knee.'],
};

describe('fidelity of a language model note through POST /v1/notes', () => {
  let chat: ChatServer;
  let s: TestServer;
  beforeAll(async () => {
    chat = await startChatServer((_req, res) => answer(res, JSON.stringify(MODEL_NOTE)));
    s = await startServer({ CLINDOC_LLM_BASE_URL: chat.baseUrl, CLINDOC_LLM_MODEL: 'inventive' });
  });
  afterAll(async () => {
    await s?.close();
    await chat?.close();
  });

  const write = async (includeJson: boolean) => {
    const res = await fetch(`${s.base}/v1/notes`, {
      method: 'POST', headers: s.headers(),
      body: JSON.stringify({ transcript: TRANSCRIPT, noteType: { type: 'soap', includeJson } }),
    });
    expect(res.status).toBe(202);
    const { noteId } = (await res.json()).data;
    return finishedNote(s, noteId);
  };

  it('never shows the invented dose, marks the swapped side, and lists both in payload.json.review', async () => {
    const note = await write(true);
    expect(note.status).toBe('STATUS_DONE');
    const md: string = note.payload.markdown;
    expect(md).not.toContain('5000');
    expect(md).toContain('Takes metformin ⚠[check: removed, the transcript gives metformin 500 mg] twice daily.');
    expect(md).toContain('Left knee ⚠[check: the transcript says right knee] effusion');
    expect(md).toContain('Ice the left knee ⚠[check: the transcript says right knee].');
    // What the transcript supports stays as the model wrote it.
    expect(md).toContain('Right knee pain for 3 days.');
    expect(md).toContain('Denies fever.');
    expect(md).toContain('Continue metformin 500 mg twice daily.');

    const review = note.payload.json.review as { kind: string; text: string; action: string; position: { start: number; end: number } }[];
    expect(review.map((r) => [r.kind, r.text, r.action])).toEqual([
      ['dose', '5000 mg', 'removed'],
      ['laterality', 'Left knee', 'marked'],
      ['laterality', 'left knee', 'marked'],
    ]);
    for (const r of review) expect(md.slice(r.position.start, r.position.end)).toMatch(/⚠\[check: [^\]]+\]$/);
    // The structured form carries the same markers; only the review list names what was removed.
    const { review: _listed, ...sections } = note.payload.json;
    expect(sections.Subjective).toBe('Right knee pain for 3 days. Takes metformin ⚠[check: removed, the transcript gives metformin 500 mg] twice daily. Denies fever.');
    expect(JSON.stringify(sections)).not.toContain('5000');
  });

  it('lists what it flagged even when no structured note was asked for', async () => {
    const note = await write(false);
    expect(note.payload.markdown).not.toContain('5000');
    expect(Object.keys(note.payload.json)).toEqual(['review']);
    expect(note.payload.json.review).toHaveLength(3);
  });
});
