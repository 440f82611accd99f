/**
 * Note and transcription jobs delivered more than once, as pg-boss may: a worker that stalled (not
 * died) and the worker that took its job back run the same job together, and the runner may give
 * up on a job after it already succeeded. Whatever the overlap, a note or transcription is
 * finished by one write and announced by one event. Runs on SQLite and, where a cluster can be
 * had, on PostgreSQL, where the two runs' writes really do race.
 */
import { describe, expect, it } from 'vitest';
import { Readable } from 'node:stream';
import type { NoteStore, TranscriptionStore } from '../../main/services/storage.js';
import type { NoteWriter } from '../../main/services/notes/ports.js';
import { createNoteService, type NoteEvents, type NoteService } from '../../main/services/notes/note-service.js';
import {
  createTranscriptionService, type TranscriptionEvents, type TranscriptionPipeline, type TranscriptionService,
} from '../../main/services/transcriptions/transcription-service.js';
import { openSqliteBackend, type StoreBackend } from '../store-contract/backend.js';
import { newAccount, useBackend } from '../store-contract/fixtures.js';
import { pgBackendsForSuite } from '../store-pg/backend.js';
import { pgUnavailable } from '../support/pg-cluster.js';

/** A promise that settles when `release` is called: holds a run inside its engine call. */
function hold(): { held: Promise<void>; release: () => void } {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  return { held, release };
}

/** Lets `count` callers through only once all of them have arrived: two runs inside the engine at once. */
function barrier(count: number): () => Promise<number> {
  let arrived = 0;
  const all = hold();
  return async () => {
    const n = ++arrived;
    if (n === count) all.release();
    await all.held;
    return n;
  };
}

type Update = (id: string, changes: { status?: string }, only?: object) => Promise<boolean>;

/** The store as given, counting the writes that landed and finished a row (`final` names those statuses). */
function countingFinalWrites<S extends NoteStore | TranscriptionStore>(store: S, final: readonly string[]): { store: S; finalWrites: () => number } {
  const inner = store.update.bind(store) as Update;
  let writes = 0;
  const update: Update = async (id, changes, only) => {
    const wrote = await inner(id, changes, only);
    if (wrote && changes.status !== undefined && final.includes(changes.status)) writes += 1;
    return wrote;
  };
  return { store: { ...store, update } as S, finalWrites: () => writes };
}

function redeliveredJobs(open: () => Promise<StoreBackend>): void {
  const backend = useBackend(open);

  describe('note generation', () => {
    const setUp = async (write: NoteWriter['write']) => {
      const b = backend();
      const accountId = await newAccount(b);
      const { store, finalWrites } = countingFinalWrites(b.stores.notes, ['STATUS_DONE', 'STATUS_FAILED']);
      const events: Parameters<NonNullable<NoteEvents['noteFinished']>>[0][] = [];
      const service: NoteService = createNoteService({
        notes: store, templates: b.stores.templates, writer: async () => ({ name: 'test-writer', write }),
        enqueue: async () => undefined, events: { noteFinished: (e) => void events.push(e) },
      });
      const { noteId } = await service.create(accountId, { transcript: 'Patient reports a dry cough for three days.' });
      return { service, accountId, noteId, events, finalWrites, notes: b.stores.notes };
    };

    it('writes the note once and announces it once when two runs of its job overlap', async () => {
      const bothInside = barrier(2);
      const { service, accountId, noteId, events, finalWrites, notes } = await setUp(async () => ({
        // Runs told apart by words that are not numbers: the fidelity check strikes a number the
        // transcript does not hold ("two" here), so number words would make the winner matter.
        markdown: `Dry cough for three days, written by the ${(await bothInside()) === 1 ? 'amber' : 'violet'} run.`,
      }));
      await Promise.all([service.generate(noteId), service.generate(noteId)]);
      expect(finalWrites()).toBe(1);
      expect(events).toEqual([{ accountId, id: noteId, status: 'STATUS_DONE' }]);
      const note = await notes.get(accountId, noteId);
      expect(note?.status).toBe('STATUS_DONE');
      expect(note?.markdown).toMatch(/^Dry cough for three days, written by the (amber|violet) run\.$/);
    });

    it('leaves a written note as it is when the runner gives up on its job late', async () => {
      const { service, accountId, noteId, events, notes } = await setUp(async () => ({ markdown: 'Dry cough for three days.' }));
      await service.generate(noteId);
      const written = await notes.get(accountId, noteId);
      await service.fail(noteId, 'note generation failed');
      expect(await notes.get(accountId, noteId)).toEqual(written);
      expect(events).toEqual([{ accountId, id: noteId, status: 'STATUS_DONE' }]);
      // Running the job again changes nothing either.
      await service.generate(noteId);
      expect(await notes.get(accountId, noteId)).toEqual(written);
      expect(events).toHaveLength(1);
    });

    it('announces a failure once when the runner gives up twice', async () => {
      const { service, accountId, noteId, events, finalWrites } = await setUp(async () => ({ markdown: 'unused' }));
      await service.fail(noteId, 'note generation failed');
      await service.fail(noteId, 'note generation failed');
      expect(finalWrites()).toBe(1);
      expect(events).toEqual([{ accountId, id: noteId, status: 'STATUS_FAILED' }]);
    });

    it('keeps a note failed when a stalled run finishes after the runner gave up', async () => {
      const stalled = hold();
      const inside = hold();
      const { service, accountId, noteId, events, notes } = await setUp(async () => {
        inside.release();
        await stalled.held;
        return { markdown: 'Dry cough for three days.' };
      });
      const run = service.generate(noteId);
      await inside.held;
      await service.fail(noteId, 'note generation failed');
      stalled.release();
      await run;
      expect(await notes.get(accountId, noteId)).toMatchObject({ status: 'STATUS_FAILED', markdown: null, error: 'note generation failed' });
      expect(events).toEqual([{ accountId, id: noteId, status: 'STATUS_FAILED' }]);
    });
  });

  describe('transcription', () => {
    const setUp = async (pipeline: TranscriptionPipeline) => {
      const b = backend();
      const accountId = await newAccount(b);
      const { store, finalWrites } = countingFinalWrites(b.stores.transcriptions, ['completed', 'failed']);
      const events: Parameters<NonNullable<TranscriptionEvents['transcriptionFinished']>>[0][] = [];
      const service: TranscriptionService = createTranscriptionService({
        store, blobs: b.blobs, pipeline: () => pipeline, enqueue: async () => undefined, maxAudioBytes: 1 << 20,
        events: { transcriptionFinished: (e) => void events.push(e) },
      });
      const audio = await b.blobs.write(Readable.from([Buffer.from('RIFF recorded audio stand-in')]), 1 << 20);
      const { id } = await service.accept(accountId, { key: audio.key, type: 'audio/wav' }, {
        language: 'en', dictation: false, diarization: false, webhookUrl: 'https://receiver.example/hooks',
      });
      return { service, accountId, id, events, finalWrites, transcriptions: b.stores.transcriptions };
    };
    const transcript = (text: string) => ({ text, duration: 2, confidence: 0.9, speakers: null, words: [], utterances: [] });
    const announced = (accountId: string, id: string, status: 'completed' | 'failed') => ({ accountId, id, status, webhookUrl: 'https://receiver.example/hooks' });

    it('writes the transcript once and announces it once when two runs of its job overlap', async () => {
      const bothInside = barrier(2);
      const { service, accountId, id, events, finalWrites, transcriptions } = await setUp(async () => transcript(`dry cough, run ${await bothInside()}`));
      await Promise.all([service.process(id), service.process(id)]);
      expect(finalWrites()).toBe(1);
      expect(events).toEqual([announced(accountId, id, 'completed')]);
      const stored = await transcriptions.get(accountId, id);
      expect(stored?.status).toBe('completed');
      expect(stored?.result?.text).toMatch(/^dry cough, run [12]$/);
    });

    it('leaves a completed transcription as it is when the runner gives up on its job late', async () => {
      const { service, accountId, id, events, transcriptions } = await setUp(async () => transcript('dry cough'));
      await service.process(id);
      const completed = await transcriptions.get(accountId, id);
      await service.fail(id, 'transcription failed');
      expect(await transcriptions.get(accountId, id)).toEqual(completed);
      await service.process(id);
      expect(await transcriptions.get(accountId, id)).toEqual(completed);
      expect(events).toEqual([announced(accountId, id, 'completed')]);
    });

    it('keeps a transcription failed, announced once, when a stalled run finishes after two give-ups', async () => {
      const stalled = hold();
      const inside = hold();
      const { service, accountId, id, events, finalWrites, transcriptions } = await setUp(async () => {
        inside.release();
        await stalled.held;
        return transcript('dry cough');
      });
      const run = service.process(id);
      await inside.held;
      await service.fail(id, 'transcription failed');
      await service.fail(id, 'transcription failed');
      stalled.release();
      await run;
      expect(finalWrites()).toBe(1);
      expect(await transcriptions.get(accountId, id)).toMatchObject({ status: 'failed', result: null, error: 'transcription failed' });
      expect(events).toEqual([announced(accountId, id, 'failed')]);
    });
  });
}

describe('jobs delivered more than once, on SQLite', () => {
  redeliveredJobs(openSqliteBackend);
});

describe.skipIf(pgUnavailable !== null)('jobs delivered more than once, on PostgreSQL', () => {
  redeliveredJobs(pgBackendsForSuite());
});
