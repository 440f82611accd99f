/**
 * Live dictation applies the local API's macro decisions: a phrase said in a negation stays as
 * spoken (also when the negation ended the previous utterance), is marked with the reason, and
 * can still be expanded by hand; an `insert` macro waits for its command.
 */
import { untilState } from '../support/store-wait.js';
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { startServer, type TestServer } from '../support/server.js';
import { createApiClient, type ApiClient } from '../../renderer/api/client.js';
import { expansions } from '../../renderer/state/dictation-doc.js';
import { createDictationStore } from '../../renderer/state/dictation-store.js';
import type { StreamClientDeps } from '../../renderer/audio/stream-client.js';
import type { StreamMessage } from '../../renderer/api/types.js';

let server: TestServer;
let client: ApiClient;
beforeAll(async () => {
  server = await startServer();
  client = createApiClient({ baseUrl: server.base, ...server.creds });
  await client.createMacro({ id: 'cardiac', examples: ['normal cardiac exam'], expansion_text: 'HEART: regular rate and rhythm, no murmurs.' });
  await client.createMacro({ id: 'lungs', examples: ['lungs clear'], expansion_text: 'LUNGS: clear bilaterally.', trigger: 'insert' });
});
afterAll(async () => server?.close());

async function dictate(finals: string[]) {
  let emit: ((m: StreamMessage) => void) | undefined;
  const dictation = createDictationStore({
    client: () => client,
    listMicrophones: async () => [],
    now: () => performance.now(),
    startCapture: async () => ({ sampleRate: 48_000, deviceLabel: 'test', stop: async () => undefined }),
    createStream: (d: StreamClientDeps) => {
      emit = (m) => d.onMessage(m, 0);
      return { start: () => d.onState('open'), sendAudio: () => undefined, stop: async () => undefined, state: () => 'open' };
    },
  });
  await dictation.getState().loadMacros();
  await dictation.getState().start();
  const t = { type: 'transcript' as const, audio_start: 0, audio_end: 2, duration: 2, words: [], timestamp: '', is_final: true, isFinal: true };
  for (const text of finals) {
    emit!({ ...t, text });
    // Each final's macros are settled before the next one arrives, as the API answers in order.
    await untilState(dictation, (s) => Object.keys(s.doc.pending).length === 0);
  }
  return dictation;
}

const macroPieces = (d: Awaited<ReturnType<typeof dictate>>) => expansions(d.getState().doc).map((p) => ({ p }));

describe('macros in live dictation', () => {
  it('leaves a negated macro unexpanded, marked with the reason, and expands it on request', async () => {
    const d = await dictate(['This was not a normal cardiac exam.']);
    expect(d.getState().text()).toBe('This was not a normal cardiac exam.');
    const pieces = macroPieces(d);
    expect(pieces).toHaveLength(1);
    const { p } = pieces[0]!;
    expect(p).toMatchObject({ skipped: 'negated', undone: true });
    d.getState().toggleExpansion(p.id);
    expect(d.getState().text()).toBe('This was not a HEART: regular rate and rhythm, no murmurs.');
  });

  it('reads a negation that ended the previous utterance', async () => {
    const d = await dictate(['The exam was not', 'a normal cardiac exam.']);
    expect(d.getState().text()).toBe('The exam was not a normal cardiac exam.');
    expect(macroPieces(d).map(({ p }) => p.skipped)).toEqual(['negated']);
  });

  it('expands a macro after a sentence that had a negation', async () => {
    const d = await dictate(['No chest pain.', 'Normal cardiac exam.']);
    expect(d.getState().text()).toBe('No chest pain. HEART: regular rate and rhythm, no murmurs.');
  });

  it('expands an insert macro only after "insert"', async () => {
    const d = await dictate(['Lungs clear.', 'Insert lungs clear.']);
    expect(d.getState().text()).toBe('Lungs clear. LUNGS: clear bilaterally.');
    expect(macroPieces(d).map(({ p }) => p.skipped)).toEqual(['trigger_required', undefined]);
    // Undone, the inserted macro reads as the sentence that was said, capital and full stop.
    d.getState().toggleExpansion(macroPieces(d)[1]!.p.id);
    expect(d.getState().text()).toBe('Lungs clear. Lungs clear.');
  });
});
