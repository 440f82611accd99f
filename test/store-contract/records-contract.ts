import { describe, expect, it } from 'vitest';
import { DomainError } from '../../main/services/errors.js';
import type { StoreBackend } from './backend.js';
import { MARKER, allPages, newAccount, note, transcription, useBackend, visitContent } from './fixtures.js';

/** Accounts, notes, documents, transcriptions, visits and idempotency: the same expectations on any backend. */
export function recordsContract(open: () => Promise<StoreBackend>): void {
  const backend = useBackend(open);

  describe('accounts, keys and streaming tokens', () => {
    it('creates, finds and counts accounts; keys are found by hash and revoked once', async () => {
      const { accounts } = backend().stores;
      const before = await accounts.countAccounts();
      const a = await newAccount(backend(), 1_000);
      expect(await accounts.getAccount(a)).toEqual({ id: a, name: expect.any(String), createdAt: 1_000, operator: false });
      // The operator role (issue 29): granted and withdrawn on the account, refused for an unknown one.
      expect(await accounts.setOperator(a, true)).toBe(true);
      expect((await accounts.getAccount(a))?.operator).toBe(true);
      expect((await accounts.listAccounts()).find((x) => x.id === a)?.operator).toBe(true);
      expect(await accounts.setOperator(a, false)).toBe(true);
      expect((await accounts.getAccount(a))?.operator).toBe(false);
      expect(await accounts.setOperator('acct_missing', true)).toBe(false);
      expect(await accounts.getAccount('acct_missing')).toBeUndefined();
      expect(await accounts.countAccounts()).toBe(before + 1);
      expect((await accounts.listAccounts()).map((x) => x.id)).toContain(a);

      await accounts.insertKey({ id: `key_${a}`, accountId: a, hash: `hash_${a}`, createdAt: 5, revokedAt: null, lastUsedAt: null });
      expect(await accounts.findKeyByHash(`hash_${a}`)).toEqual({ id: `key_${a}`, accountId: a, hash: `hash_${a}`, createdAt: 5, revokedAt: null, lastUsedAt: null });
      await accounts.touchKey(`key_${a}`, 7);
      // Listing never hands out hashes.
      expect(await accounts.listKeys(a)).toEqual([{ id: `key_${a}`, accountId: a, createdAt: 5, revokedAt: null, lastUsedAt: 7 }]);
      expect(await accounts.revokeKey(`key_${a}`, 9)).toBe(true);
      expect(await accounts.revokeKey(`key_${a}`, 10)).toBe(false);
      expect((await accounts.findKeyByHash(`hash_${a}`))?.revokedAt).toBe(9);
    });

    it('keeps streaming tokens until they expire', async () => {
      const { accounts } = backend().stores;
      const a = await newAccount(backend());
      await accounts.insertStreamToken({ hash: `old_${a}`, accountId: a, keyId: 'k1', expiresAt: 100 });
      await accounts.insertStreamToken({ hash: `new_${a}`, accountId: a, keyId: 'k1', expiresAt: 10_000 });
      expect(await accounts.findStreamToken(`new_${a}`)).toEqual({ accountId: a, keyId: 'k1', expiresAt: 10_000 });
      await accounts.deleteExpiredStreamTokens(5_000);
      expect(await accounts.findStreamToken(`old_${a}`)).toBeUndefined();
      expect(await accounts.findStreamToken(`new_${a}`)).toBeDefined();
    });
  });

  describe('notes', () => {
    it('round-trips a note and keeps it to its own account', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      const n = note(`note_${a}`, a, 1_000, { addenda: [{ id: 'ad1', text: `${MARKER} addendum`, author: 'Dr A', createdAt: 1_500 }] });
      await b.stores.notes.insert(n);
      expect(await b.stores.notes.get(a, n.id)).toEqual(n);
      expect(await b.stores.notes.getForJob(n.id)).toEqual(n);
      expect(await b.stores.notes.get(other, n.id)).toBeUndefined();
      expect((await b.stores.notes.list(other, 10)).items).toEqual([]);
      expect(await b.stores.notes.delete(other, n.id)).toBe(false);
      expect(await b.stores.notes.get(a, n.id)).toBeDefined();
      expect(await b.stores.notes.delete(a, n.id)).toBe(true);
      expect(await b.stores.notes.get(a, n.id)).toBeUndefined();
    });

    it('stores every patient column sealed, never as plaintext', async () => {
      const b = backend();
      const a = await newAccount(b);
      const n = note(`note_${a}`, a, 1_000, { addenda: [{ id: 'ad1', text: `${MARKER} addendum`, author: 'Dr A', createdAt: 1_500 }] });
      await b.stores.notes.insert(n);
      for (const column of ['request', 'markdown', 'json', 'addenda']) {
        const stored = await b.raw('notes', column, { id: n.id });
        expect(stored, column).toMatch(/^enc:v1:/);
        expect(String(stored), column).not.toContain(MARKER);
      }
      // The row id is bound into each value: a value copied into another row does not open.
      const sealed = String(await b.raw('notes', 'markdown', { id: n.id }));
      expect(() => b.cipher.open(sealed, 'notes.markdown:another_note')).toThrow();
      expect(b.cipher.open(sealed, `notes.markdown:${n.id}`)).toBe(`# ${MARKER}`);
    });

    it('updates fields, records the engine, and writes only at the expected version', async () => {
      const b = backend();
      const a = await newAccount(b);
      const id = `note_${a}`;
      await b.stores.notes.insert(note(id, a, 1_000, { status: 'STATUS_PENDING', markdown: null, json: null }));
      expect(await b.stores.notes.update(id, { status: 'STATUS_DONE', markdown: 'written', json: { ok: true }, generatedBy: { engine: 'llama', model: 'm1' } })).toBe(true);
      expect(await b.stores.notes.update(id, { markdown: 'edited', version: 2 }, { version: 1 })).toBe(true);
      // A second edit that read version 1 lost the race: nothing is written.
      expect(await b.stores.notes.update(id, { markdown: 'stale edit', version: 2 }, { version: 1 })).toBe(false);
      expect(await b.stores.notes.update('note_missing', { status: 'STATUS_FAILED' })).toBe(false);
      const got = await b.stores.notes.get(a, id);
      expect(got).toMatchObject({ status: 'STATUS_DONE', markdown: 'edited', json: { ok: true }, version: 2, generatedBy: { engine: 'llama', model: 'm1' } });
      expect(await b.raw('notes', 'markdown', { id })).not.toBe('edited');
    });

    it('writes only while the status is one of those named: of two racing final writes exactly one lands', async () => {
      const b = backend();
      const a = await newAccount(b);
      const id = `note_${a}`;
      await b.stores.notes.insert(note(id, a, 1_000, { status: 'STATUS_PROCESSING', markdown: null, json: null, completedAt: null }));
      const unfinished = { statusIn: ['STATUS_PENDING', 'STATUS_PROCESSING'] } as const;
      const results = await Promise.all([
        b.stores.notes.update(id, { status: 'STATUS_DONE', markdown: 'run one', completedAt: 2_000 }, unfinished),
        b.stores.notes.update(id, { status: 'STATUS_DONE', markdown: 'run two', completedAt: 2_000 }, unfinished),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const kept = (await b.stores.notes.get(a, id))?.markdown;
      expect(kept).toBe(results[0] ? 'run one' : 'run two');
      // A late failure finds the note finished and leaves it as it was.
      expect(await b.stores.notes.update(id, { status: 'STATUS_FAILED', error: 'gave up', completedAt: 3_000 }, unfinished)).toBe(false);
      expect(await b.stores.notes.get(a, id)).toMatchObject({ status: 'STATUS_DONE', markdown: kept, error: null, completedAt: 2_000 });
      // Both conditions at once: each must hold.
      expect(await b.stores.notes.update(id, { markdown: 'edited', version: 2 }, { version: 1, statusIn: ['STATUS_FAILED'] })).toBe(false);
      expect(await b.stores.notes.update(id, { markdown: 'edited', version: 2 }, { version: 1, statusIn: ['STATUS_DONE'] })).toBe(true);
      expect(await b.stores.notes.update('note_missing', { status: 'STATUS_DONE' }, unfinished)).toBe(false);
    });

    it('pages newest first, ties broken by id, with the other account never in a page', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      const times: [string, number][] = [['n1', 1_000], ['n2', 2_000], ['n3', 2_000], ['n4', 2_000], ['n5', 3_000]];
      for (const [suffix, t] of times) await b.stores.notes.insert(note(`${a}_${suffix}`, a, t));
      await b.stores.notes.insert(note(`${other}_n9`, other, 2_500));
      const pages = await allPages((cursor) => b.stores.notes.list(a, 2, cursor));
      expect(pages).toEqual([[`${a}_n5`, `${a}_n4`], [`${a}_n3`, `${a}_n2`], [`${a}_n1`]]);
      await expect(b.stores.notes.list(a, 2, 'not-a-cursor')).rejects.toBeInstanceOf(DomainError);
    });
  });

  describe('documents (templates and macros)', () => {
    it('creates only new ids, replaces only existing ones, and keeps each account to its own', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      const doc = { id: 'soap', accountId: a, body: { text: MARKER }, createdAt: 10, updatedAt: 10 };
      expect(await b.stores.templates.put(doc, 'new')).toBe(true);
      expect(await b.stores.templates.put({ ...doc, body: { text: 'second create' } }, 'new')).toBe(false);
      expect(await b.stores.templates.put({ ...doc, accountId: other, body: { text: 'other account' } }, 'new')).toBe(true);
      expect(await b.stores.templates.put({ ...doc, id: 'missing' }, 'existing')).toBe(false);
      expect(await b.stores.templates.put({ ...doc, body: { text: 'replaced' }, createdAt: 99, updatedAt: 20 }, 'existing')).toBe(true);
      expect(await b.stores.templates.get(a, 'soap')).toEqual({ ...doc, body: { text: 'replaced' }, updatedAt: 20 });
      expect((await b.stores.templates.get(other, 'soap'))?.body).toEqual({ text: 'other account' });
      // Macros are a table of their own.
      expect(await b.stores.macros.get(a, 'soap')).toBeUndefined();
      expect(await b.stores.templates.delete(other, 'soap')).toBe(true);
      expect(await b.stores.templates.get(a, 'soap')).toBeDefined();
    });

    it('upserts without `only`, pages newest first and seals bodies under (account, id)', async () => {
      const b = backend();
      const a = await newAccount(b);
      for (let i = 1; i <= 3; i++) await b.stores.macros.put({ id: `m${i}`, accountId: a, body: { phrase: `${MARKER} ${i}` }, createdAt: i * 100, updatedAt: i * 100 });
      expect(await b.stores.macros.put({ id: 'm1', accountId: a, body: { phrase: 'again' }, createdAt: 100, updatedAt: 500 })).toBe(true);
      expect(await allPages((cursor) => b.stores.macros.list(a, 2, cursor))).toEqual([['m3', 'm2'], ['m1']]);
      const stored = String(await b.raw('macros', 'body', { account_id: a, id: 'm2' }));
      expect(stored).toMatch(/^enc:v1:/);
      expect(stored).not.toContain(MARKER);
    });
  });

  describe('transcriptions', () => {
    it('round-trips, updates with sealed results and stays in its account', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      const t = transcription(`tr_${a}`, a, 1_000, { status: 'pending', result: null });
      await b.stores.transcriptions.insert(t);
      expect(await b.stores.transcriptions.get(a, t.id)).toEqual(t);
      expect(await b.stores.transcriptions.get(other, t.id)).toBeUndefined();
      await b.stores.transcriptions.update(t.id, { status: 'completed', result: { text: `${MARKER} words` }, completedAt: 1_200, audioBlob: null });
      expect(await b.stores.transcriptions.getForJob(t.id)).toMatchObject({ status: 'completed', result: { text: `${MARKER} words` }, completedAt: 1_200 });
      for (const column of ['options', 'result']) expect(String(await b.raw('transcriptions', column, { id: t.id }))).not.toContain(MARKER);
      for (let i = 0; i < 3; i++) await b.stores.transcriptions.insert(transcription(`tr_${a}_${i}`, a, 2_000 + i));
      expect(await allPages((cursor) => b.stores.transcriptions.list(a, 3, cursor))).toEqual([[`tr_${a}_2`, `tr_${a}_1`, `tr_${a}_0`], [t.id]]);
      expect(await b.stores.transcriptions.delete(other, t.id)).toBe(false);
      expect(await b.stores.transcriptions.delete(a, t.id)).toBe(true);
    });

    it('writes only while the status is one of those named, and says whether it wrote', async () => {
      const b = backend();
      const a = await newAccount(b);
      const t = transcription(`tr_${a}`, a, 1_000, { status: 'pending', result: null });
      await b.stores.transcriptions.insert(t);
      const unfinished = { statusIn: ['pending', 'processing'] } as const;
      expect(await b.stores.transcriptions.update(t.id, { status: 'processing', startedAt: 1_100 }, unfinished)).toBe(true);
      const results = await Promise.all([
        b.stores.transcriptions.update(t.id, { status: 'completed', result: { text: 'run one' }, completedAt: 1_200 }, unfinished),
        b.stores.transcriptions.update(t.id, { status: 'completed', result: { text: 'run two' }, completedAt: 1_200 }, unfinished),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const kept = results[0] ? 'run one' : 'run two';
      expect(await b.stores.transcriptions.update(t.id, { status: 'failed', error: 'gave up', completedAt: 1_300 }, unfinished)).toBe(false);
      expect(await b.stores.transcriptions.getForJob(t.id)).toMatchObject({ status: 'completed', result: { text: kept }, error: null, completedAt: 1_200 });
      // Without a condition the write lands whatever the status.
      expect(await b.stores.transcriptions.update(t.id, { audioBlob: null })).toBe(true);
      expect(await b.stores.transcriptions.update('tr_missing', { status: 'failed' })).toBe(false);
    });
  });

  describe('visits', () => {
    it('writes only at the expected version: of two racing updates exactly one wins', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      const id = `visit_${a}`;
      await b.stores.visits.insert({ id, accountId: a, createdAt: 1_000, updatedAt: 1_000, version: 1, content: visitContent('first') });
      const results = await Promise.all([
        b.stores.visits.update(a, id, 1, visitContent('racer one'), 1_100),
        b.stores.visits.update(a, id, 1, visitContent('racer two'), 1_100),
      ]);
      expect(results.filter(Boolean)).toHaveLength(1);
      const won = await b.stores.visits.get(a, id);
      expect(won?.version).toBe(2);
      expect(['racer one', 'racer two']).toContain(won?.content.dictation.text);
      expect(await b.stores.visits.update(other, id, 2, visitContent('intruder'), 1_200)).toBe(false);
      expect(await b.stores.visits.get(other, id)).toBeUndefined();
      const stored = String(await b.raw('visits', 'content', { id }));
      expect(stored).toMatch(/^enc:v1:/);
      expect(stored).not.toContain(MARKER);
      expect(await allPages((cursor) => b.stores.visits.list(a, 1, cursor))).toEqual([[id]]);
      expect(await b.stores.visits.delete(other, id)).toBe(false);
      expect(await b.stores.visits.delete(a, id)).toBe(true);
    });
  });

  describe('idempotency keys', () => {
    it('keeps the first response per (account, key), sealed, until purged', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      const record = { requestHash: 'h1', statusCode: 201, body: JSON.stringify({ markdown: MARKER }), createdAt: 1_000 };
      await b.stores.idempotency.put(a, 'idem-1', record);
      expect(await b.stores.idempotency.get(a, 'idem-1')).toEqual(record);
      expect(await b.stores.idempotency.get(other, 'idem-1')).toBeUndefined();
      expect(String(await b.raw('idempotency_keys', 'body', { account_id: a, key: 'idem-1' }))).not.toContain(MARKER);
      await b.stores.idempotency.put(a, 'idem-1', { ...record, statusCode: 200, createdAt: 3_000 });
      expect((await b.stores.idempotency.get(a, 'idem-1'))?.statusCode).toBe(200);
      await b.stores.idempotency.put(a, 'idem-old', { ...record, createdAt: 500 });
      await b.stores.idempotency.purgeOlderThan(2_000);
      expect(await b.stores.idempotency.get(a, 'idem-old')).toBeUndefined();
      expect(await b.stores.idempotency.get(a, 'idem-1')).toBeDefined();
    });

    it('lets one of several racing claims take a key, and gives it back or over only as told', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      const idem = b.stores.idempotency;
      const stale = { pending: 0, answered: 0 };
      const claims = await Promise.all([1, 2, 3, 4].map((n) => idem.claim(a, 'idem-race', { requestHash: `h${n}`, createdAt: 1_000 + n }, stale)));
      expect(claims.filter(Boolean)).toHaveLength(1);
      const winner = claims.indexOf(true) + 1;
      expect(await idem.get(a, 'idem-race')).toEqual({ requestHash: `h${winner}`, statusCode: 0, body: '', createdAt: 1_000 + winner });
      // Another account's key of the same name is its own.
      expect(await idem.claim(other, 'idem-race', { requestHash: 'h9', createdAt: 1_100 }, stale)).toBe(true);

      // Given back only by the claim that holds it.
      await idem.release(a, 'idem-race', 999);
      expect((await idem.get(a, 'idem-race'))?.statusCode).toBe(0);
      await idem.release(a, 'idem-race', 1_000 + winner);
      expect(await idem.get(a, 'idem-race')).toBeUndefined();
      expect(await idem.get(other, 'idem-race')).toBeDefined();

      // A claim whose process died is taken over once it is older than the pending bound.
      expect(await idem.claim(a, 'idem-race', { requestHash: 'h5', createdAt: 2_000 }, stale)).toBe(true);
      expect(await idem.claim(a, 'idem-race', { requestHash: 'h6', createdAt: 2_500 }, { pending: 2_000, answered: 0 })).toBe(false);
      expect(await idem.claim(a, 'idem-race', { requestHash: 'h6', createdAt: 2_600 }, { pending: 2_001, answered: 0 })).toBe(true);
      expect((await idem.get(a, 'idem-race'))?.requestHash).toBe('h6');

      // An answer stands against claims until it is older than the answered bound, whatever the pending one.
      await idem.put(a, 'idem-race', { requestHash: 'h6', statusCode: 202, body: MARKER, createdAt: 3_000 });
      expect(await idem.claim(a, 'idem-race', { requestHash: 'h7', createdAt: 3_500 }, { pending: 9_999, answered: 3_000 })).toBe(false);
      expect(await idem.get(a, 'idem-race')).toEqual({ requestHash: 'h6', statusCode: 202, body: MARKER, createdAt: 3_000 });
      expect(await idem.claim(a, 'idem-race', { requestHash: 'h7', createdAt: 3_600 }, { pending: 0, answered: 3_001 })).toBe(true);
      // A claim holds no answer, and its row is sealed like any other.
      expect(String(await b.raw('idempotency_keys', 'body', { account_id: a, key: 'idem-race' }))).toMatch(/^enc:v1:/);
    });
  });
}
