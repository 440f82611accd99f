import { describe, expect, it } from 'vitest';
import type { DeliveryRecord } from '../../main/services/storage.js';
import type { StoreBackend } from './backend.js';
import { MARKER, newAccount, note, transcription, useBackend } from './fixtures.js';

const delivery = (id: string, accountId: string, extra: Partial<DeliveryRecord> = {}): DeliveryRecord => ({
  id, accountId, webhookId: 'wh1', url: 'https://example.test/hook', secret: `whsec_${MARKER}`, event: 'note.completed', resourceId: 'note1',
  status: 'pending', attempts: 0, nextAttemptAt: 0, createdAt: 1_000, ...extra,
});

/** The job queue and webhook deliveries: ordering, claiming, requeueing, and claims that race. */
export function queuesContract(open: () => Promise<StoreBackend>): void {
  describe('jobs', () => {
    const backend = useBackend(open);

    it('claims ready jobs oldest run-after first, one at a time, and counts what is open', async () => {
      const { jobs } = backend().stores;
      const job = (id: string, runAfter: number, kind = 'note_generation') => ({ id, kind, accountId: 'a', resourceId: `r_${id}`, runAfter });
      await jobs.enqueue(job('j1', 300));
      await jobs.enqueue(job('j2', 100));
      await jobs.enqueue(job('j3', 200));
      await jobs.enqueue(job('j4', 10_000));
      expect(await jobs.countOpen()).toBe(4);
      const first = await jobs.claim(1_000);
      expect(first).toEqual({ id: 'j2', kind: 'note_generation', accountId: 'a', resourceId: 'r_j2', status: 'running', attempts: 1, runAfter: 100, lastError: null });
      expect((await jobs.claim(1_000))?.id).toBe('j3');
      expect((await jobs.claim(1_000))?.id).toBe('j1');
      expect(await jobs.claim(1_000)).toBeUndefined(); // j4 is not due yet
      await jobs.finish('j2', 'done', null);
      await jobs.finish('j1', 'failed', 'engine gave up');
      expect(await jobs.get('j1')).toMatchObject({ status: 'failed', lastError: 'engine gave up' });
      expect(await jobs.countOpen()).toBe(2);
      // A refunded requeue (a full disk) does not count the claim as an attempt; a plain one does.
      await jobs.requeue('j3', 50, 'disk full', true);
      expect(await jobs.get('j3')).toMatchObject({ status: 'queued', attempts: 0, runAfter: 50, lastError: 'disk full' });
      expect((await jobs.claim(1_000))?.id).toBe('j3');
      await jobs.requeue('j3', 60, 'retry', false);
      expect(await jobs.get('j3')).toMatchObject({ status: 'queued', attempts: 1 });
      // Another process claims j3 and dies: start-up here puts it back.
      expect((await backend().jobStore({}).claim(1_000))?.id).toBe('j3');
      expect(await jobs.recoverInterrupted()).toBe(1);
      expect(await jobs.get('j3')).toMatchObject({ status: 'queued' });
      expect(await jobs.get('missing')).toBeUndefined();
      await jobs.finish('j3', 'done', null);
      await jobs.finish('j4', 'done', null);
      expect(await jobs.countOpen()).toBe(0);
    });

    it('lets runners split the queue by kind', async () => {
      const b = backend();
      const pulls = b.jobStore({ only: ['model_pull'] });
      const others = b.jobStore({ except: ['model_pull'] });
      await b.stores.jobs.enqueue({ id: 'k_pull', kind: 'model_pull', accountId: 'a', resourceId: 'm', runAfter: 1 });
      await b.stores.jobs.enqueue({ id: 'k_note', kind: 'note_generation', accountId: 'a', resourceId: 'n', runAfter: 2 });
      expect(await pulls.countOpen()).toBe(1);
      expect((await others.claim(100_000))?.id).toBe('k_note');
      expect((await pulls.claim(100_000))?.id).toBe('k_pull');
      expect(await others.claim(100_000)).toBeUndefined();
      expect(await pulls.recoverInterrupted()).toBe(1);
      expect(await b.stores.jobs.get('k_note')).toMatchObject({ status: 'running' });
    });

    it('never hands the same job to two claims made at once', async () => {
      const b = backend();
      for (let i = 0; i < 12; i++) await b.stores.jobs.enqueue({ id: `race_${i}`, kind: 'race', accountId: 'a', resourceId: 'r', runAfter: 0 });
      const racer = b.jobStore({ only: ['race'] });
      const claimed = await Promise.all(Array.from({ length: 16 }, (_, i) => (i % 2 ? racer : b.jobStore({ only: ['race'] })).claim(Date.now())));
      const ids = claimed.filter((j) => j !== undefined).map((j) => j.id);
      expect(ids).toHaveLength(12);
      expect(new Set(ids).size).toBe(12);
    });
  });

  describe('webhooks and deliveries', () => {
    const backend = useBackend(open);

    it('keeps webhooks to their account with the signing secret sealed', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      const hook = { id: `wh_${a}`, accountId: a, url: 'https://example.test/a', events: ['note.completed'], secret: `whsec_${MARKER}`, createdAt: 5 };
      await b.stores.webhooks.insert(hook);
      expect(await b.stores.webhooks.list(a)).toEqual([hook]);
      expect(await b.stores.webhooks.list(other)).toEqual([]);
      expect(await b.stores.webhooks.get(other, hook.id)).toBeUndefined();
      expect(await b.stores.webhooks.delete(other, hook.id)).toBe(false);
      expect(String(await b.raw('webhooks', 'secret', { id: hook.id }))).not.toContain(MARKER);
      expect(await b.stores.webhooks.get(a, hook.id)).toEqual(hook);
      expect(await b.stores.webhooks.delete(a, hook.id)).toBe(true);
    });

    it('claims due deliveries, records attempts and recovers interrupted ones', async () => {
      const b = backend();
      const { webhooks } = b.stores;
      // The claims come from a process that then dies; this one recovers at start-up.
      const gone = b.webhookStore();
      const a = await newAccount(b);
      await webhooks.insertDelivery(delivery('d1', a, { nextAttemptAt: 100 }));
      await webhooks.insertDelivery(delivery('d2', a, { nextAttemptAt: 200, resourceId: 'note2', createdAt: 1_001 }));
      await webhooks.insertDelivery(delivery('d3', a, { nextAttemptAt: 5_000, createdAt: 1_002 }));
      await webhooks.insertDelivery(delivery('d4', a, { status: 'delivered', createdAt: 1_003 }));
      expect(String(await b.raw('webhook_deliveries', 'secret', { id: 'd1' }))).not.toContain(MARKER);
      const due = await gone.claimDue(1_000, 10);
      expect(due.map((d) => [d.id, d.status, d.secret])).toEqual([['d1', 'delivering', `whsec_${MARKER}`], ['d2', 'delivering', `whsec_${MARKER}`]]);
      expect(await webhooks.claimDue(1_000, 10)).toEqual([]);
      await webhooks.updateDelivery('d1', { status: 'pending', attempts: 1, nextAttemptAt: 300 });
      await webhooks.recordAttempt({ deliveryId: 'd1', attempt: 1, at: 900, statusCode: 500, error: null, durationMs: 12 });
      await webhooks.recordAttempt({ deliveryId: 'd1', attempt: 2, at: 950, statusCode: null, error: 'timeout', durationMs: 5_000 });
      expect(await webhooks.listAttempts('d1')).toEqual([
        { deliveryId: 'd1', attempt: 1, at: 900, statusCode: 500, error: null, durationMs: 12 },
        { deliveryId: 'd1', attempt: 2, at: 950, statusCode: null, error: 'timeout', durationMs: 5_000 },
      ]);
      expect((await gone.claimDue(1_000, 1)).map((d) => [d.id, d.attempts])).toEqual([['d1', 1]]);
      expect((await webhooks.listDeliveries(a)).map((d) => d.id)).toEqual(['d1', 'd2', 'd3', 'd4']);
      expect((await webhooks.listDeliveries(a, 'note2')).map((d) => d.id)).toEqual(['d2']);
      expect(await webhooks.listDeliveries('acct_other')).toEqual([]);
      expect(await webhooks.recoverInterrupted()).toBe(2);
      expect((await webhooks.listDeliveries(a)).map((d) => d.status)).toEqual(['pending', 'pending', 'pending', 'delivered']);
    });

    it('never hands the same delivery to two claims made at once', async () => {
      const b = backend();
      const a = await newAccount(b);
      for (let i = 0; i < 10; i++) await b.stores.webhooks.insertDelivery(delivery(`race_${i}`, a, { nextAttemptAt: 10 }));
      const batches = await Promise.all(Array.from({ length: 5 }, () => b.stores.webhooks.claimDue(20, 3)));
      const ids = batches.flat().map((d) => d.id).filter((id) => id.startsWith('race_'));
      expect(ids).toHaveLength(10);
      expect(new Set(ids).size).toBe(10);
    });
  });

  describe('the webhook outbox', () => {
    const backend = useBackend(open);
    const UNFINISHED = { statusIn: ['STATUS_PENDING', 'STATUS_PROCESSING'] } as const;
    const eventsOf = async (accountId: string) => (await backend().stores.webhooks.takeOutbox(1000)).filter((e) => e.accountId === accountId);

    it('writes a final write\'s event with it, and none for a write that did not land or announced nothing', async () => {
      const { notes, transcriptions } = backend().stores;
      const a = await newAccount(backend());
      await notes.insert(note('n-outbox', a, 1_000, { status: 'STATUS_PROCESSING', markdown: null, json: null }));
      expect(await notes.update('n-outbox', { status: 'STATUS_PROCESSING', startedAt: 5 }, UNFINISHED)).toBe(true);
      expect(await eventsOf(a)).toEqual([]);
      expect(await notes.update('n-outbox', { status: 'STATUS_DONE', markdown: '# Done', completedAt: 9 }, UNFINISHED, { event: 'note_generation.succeeded' })).toBe(true);
      // A second run of the job finds the note finished: nothing written, no second event.
      expect(await notes.update('n-outbox', { status: 'STATUS_FAILED', error: 'late' }, UNFINISHED, { event: 'note_generation.failed' })).toBe(false);
      const [event, ...more] = await eventsOf(a);
      expect(more).toEqual([]);
      expect(event).toMatchObject({ accountId: a, event: 'note_generation.succeeded', resourceId: 'n-outbox', requestUrl: null });
      expect((await notes.get(a, 'n-outbox'))?.status).toBe('STATUS_DONE');

      await transcriptions.insert(transcription('t-outbox', a, 1_000, { status: 'processing', result: null }));
      const announce = { event: 'audio_transcription.succeeded', requestUrl: 'https://example.test/per-request' };
      expect(await transcriptions.update('t-outbox', { status: 'completed', updatedAt: 7 }, { statusIn: ['pending', 'processing'] }, announce)).toBe(true);
      expect(await transcriptions.update('t-outbox', { status: 'failed', updatedAt: 8 }, { statusIn: ['pending', 'processing'] }, announce)).toBe(false);
      expect((await eventsOf(a)).filter((e) => e.resourceId === 't-outbox')).toEqual([
        expect.objectContaining({ event: 'audio_transcription.succeeded', requestUrl: 'https://example.test/per-request' }),
      ]);
    });

    it('fans an event out once: its deliveries arrive as it leaves, and a second fan-out finds nothing', async () => {
      const { notes, webhooks } = backend().stores;
      const a = await newAccount(backend());
      for (const id of ['n-fan', 'n-none']) {
        await notes.insert(note(id, a, 1_000, { status: 'STATUS_PROCESSING' }));
        await notes.update(id, { status: 'STATUS_DONE' }, UNFINISHED, { event: 'note_generation.succeeded' });
      }
      const [fan, none] = (await eventsOf(a)).sort((x, y) => x.resourceId.localeCompare(y.resourceId));
      const out = [delivery(`d-${a}-1`, a, { resourceId: 'n-fan' }), delivery(`d-${a}-2`, a, { resourceId: 'n-fan', webhookId: 'wh2' })];
      const [first, second] = await Promise.all([webhooks.fanOut(fan!.id, out), webhooks.fanOut(fan!.id, out.map((d) => ({ ...d, id: `${d.id}-again` })))]);
      expect([first, second].sort()).toEqual([false, true]);
      expect((await webhooks.listDeliveries(a, 'n-fan')).map((d) => d.id).sort()).toHaveLength(2);
      expect((await webhooks.listDeliveries(a, 'n-fan'))[0]!.secret).toBe(`whsec_${MARKER}`);
      // An event nobody subscribes to simply leaves.
      expect(await webhooks.fanOut(none!.id, [])).toBe(true);
      expect(await webhooks.fanOut(none!.id, [])).toBe(false);
      expect(await eventsOf(a)).toEqual([]);
    });
  });
}
