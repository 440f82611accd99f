import { Readable } from 'node:stream';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../../main/services/audit/ports.js';
import { DomainError } from '../../main/services/errors.js';
import type { StoreBackend } from './backend.js';
import { MARKER, allPages, newAccount, note, transcription, useBackend, visitContent } from './fixtures.js';

const DAY = 86_400_000;

const event = (id: string, accountId: string | null, at: number, extra: Partial<AuditEvent> = {}): AuditEvent => ({
  id, at, accountId, keyId: 'key1', actor: 'api-key', action: 'read', resourceType: 'note', resourceId: 'n1', operation: 'getNote',
  ip: '127.0.0.1', outcome: 'success', status: 200, requestId: `req_${id}`, signer: null, ...extra,
});

/** The audit trail, retention, engine choices and storage usage. */
export function trailContract(open: () => Promise<StoreBackend>): void {
  const backend = useBackend(open);

  describe('audit trail', () => {
    it('lists an account\'s events newest first with cursor paging and filters', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      await b.stores.audit.append(event(`e1_${a}`, a, 100));
      await b.stores.audit.append(event(`e2_${a}`, a, 200, { resourceId: 'n2', action: 'sign', signer: 'Dr A' }));
      await b.stores.audit.append(event(`e3_${a}`, a, 300));
      await b.stores.audit.append(event(`x1_${other}`, other, 250));
      await b.stores.audit.append(event(`anon_${a}`, null, 260, { actor: 'anonymous', outcome: 'denied' }));
      expect(await allPages((cursor) => b.stores.audit.list(a, 2, cursor))).toEqual([[`e3_${a}`, `e2_${a}`], [`e1_${a}`]]);
      expect((await b.stores.audit.list(a, 10, undefined, { resourceId: 'n2' })).items).toEqual([event(`e2_${a}`, a, 200, { resourceId: 'n2', action: 'sign', signer: 'Dr A' })]);
      expect((await b.stores.audit.list(a, 10, undefined, { since: 200 })).items.map((e) => e.id)).toEqual([`e3_${a}`, `e2_${a}`]);
      expect((await b.stores.audit.list(other, 10)).items.map((e) => e.id)).toEqual([`x1_${other}`]);
      await expect(b.stores.audit.list(a, 10, 'abc')).rejects.toBeInstanceOf(DomainError);
    });

    it('keeps events in the order they were appended when appends are not awaited one by one', async () => {
      const b = backend();
      const a = await newAccount(b);
      // A server appends on each response's finish without waiting; under load many are in flight.
      const ids = Array.from({ length: 120 }, (_, i) => `burst${String(i).padStart(3, '0')}_${a}`);
      await Promise.all(ids.map((id, i) => b.stores.audit.append(event(id, a, 1_000 + i))));
      const listed = await allPages((cursor) => b.stores.audit.list(a, 50, cursor));
      expect(listed.flat()).toEqual([...ids].reverse());
    });

    it('refuses to change or remove an event, even past the store', async () => {
      const b = backend();
      const a = await newAccount(b);
      await b.stores.audit.append(event(`keep_${a}`, a, 100));
      await expect(b.exec(`UPDATE audit_events SET outcome = 'denied'`)).rejects.toThrow(/append-only/);
      await expect(b.exec('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
      expect((await b.stores.audit.list(a, 10)).items).toEqual([event(`keep_${a}`, a, 100)]);
    });
  });

  describe('retention', () => {
    it('stores each account\'s days and finds notes, transcriptions and visits past their cut-off', async () => {
      const b = backend();
      const now = 1_800_000_000_000;
      const [own, byDefault, keeper] = [await newAccount(b), await newAccount(b), await newAccount(b)];
      expect(await b.stores.retention.getRetentionDays(own)).toBeNull();
      await b.stores.retention.setRetentionDays(own, 400); // past 24 days: the cut-off must not overflow 32 bits
      await b.stores.retention.setRetentionDays(keeper, 0);
      expect(await b.stores.retention.getRetentionDays(own)).toBe(400);
      await b.stores.notes.insert(note(`old_${own}`, own, now - 401 * DAY));
      await b.stores.notes.insert(note(`young_${own}`, own, now - 399 * DAY));
      await b.stores.transcriptions.insert(transcription(`tr_${byDefault}`, byDefault, now - 31 * DAY, { audioBlob: 'blob-key-1' }));
      await b.stores.visits.insert({ id: `v_${byDefault}`, accountId: byDefault, createdAt: now - 40 * DAY, updatedAt: now, version: 1, content: visitContent('x') });
      await b.stores.notes.insert(note(`kept_${keeper}`, keeper, now - 4_000 * DAY));
      const expired = await b.stores.retention.findExpired(now, 30, 100);
      const mine = expired.filter((e) => [own, byDefault, keeper].includes(e.accountId));
      expect(mine.sort((x, y) => x.id.localeCompare(y.id))).toEqual([
        { type: 'note', accountId: own, id: `old_${own}`, audioBlob: null },
        { type: 'transcription', accountId: byDefault, id: `tr_${byDefault}`, audioBlob: 'blob-key-1' },
        { type: 'visit', accountId: byDefault, id: `v_${byDefault}`, audioBlob: null },
      ]);
      expect(await b.stores.retention.findExpired(now, 30, 1)).toHaveLength(1);
      // With a default of 0 only the account with its own setting expires anything.
      expect((await b.stores.retention.findExpired(now, 0, 100)).filter((e) => [own, byDefault, keeper].includes(e.accountId)).map((e) => e.id)).toEqual([`old_${own}`]);
      await b.stores.retention.setRetentionDays(own, null);
      expect(await b.stores.retention.getRetentionDays(own)).toBeNull();
    });
  });

  describe('engine settings', () => {
    it('keeps each account\'s engines beside its retention without either overwriting the other', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      expect(await b.stores.engineSettings.getAsrEngine(a)).toBeNull();
      await b.stores.retention.setRetentionDays(a, 90);
      await b.stores.engineSettings.setAsrEngine(a, 'whisper-small');
      await b.stores.engineSettings.setNoteEngine(a, 'llama');
      expect(await b.stores.engineSettings.getAsrEngine(a)).toBe('whisper-small');
      expect(await b.stores.engineSettings.getNoteEngine(a)).toBe('llama');
      expect(await b.stores.retention.getRetentionDays(a)).toBe(90);
      expect(await b.stores.engineSettings.getAsrEngine(other)).toBeNull();
      await b.stores.engineSettings.setAsrEngine(a, null);
      expect(await b.stores.engineSettings.getAsrEngine(a)).toBeNull();
      expect(await b.stores.engineSettings.getNoteEngine(a)).toBe('llama');
    });

    it('keeps an account\'s own servers with their keys sealed, readable only for that account', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      const servers = { notes: { url: 'https://llm.example.test/v1', model: 'm', apiKey: `sk-${MARKER}` } };
      await b.stores.engineSettings.setServers(a, servers);
      expect(await b.stores.engineSettings.getServers(a)).toEqual(servers);
      expect(await b.stores.engineSettings.getServers(other)).toBeNull();
      const stored = await b.raw('account_settings', 'engine_servers', { account_id: a });
      expect(stored).toEqual(expect.any(String));
      expect(String(stored)).not.toContain(MARKER);
      expect(String(stored)).not.toContain('llm.example.test');
      // Sealed for its account: the same bytes under another account's row do not open.
      await b.stores.engineSettings.setServers(other, { speech: { url: 'https://asr.example.test', model: 's' } });
      await b.exec(`UPDATE account_settings SET engine_servers = '${String(stored).replace(/'/g, "''")}' WHERE account_id = '${other}'`);
      await expect(b.stores.engineSettings.getServers(other)).rejects.toThrow();
      await b.stores.engineSettings.setServers(a, null);
      expect(await b.stores.engineSettings.getServers(a)).toBeNull();
    });
  });

  describe('storage usage', () => {
    it('counts an account\'s own rows by their stored bytes, and its audio files', async () => {
      const b = backend();
      const [a, other] = [await newAccount(b), await newAccount(b)];
      await b.stores.notes.insert(note(`n_${a}`, a, 1_000, { error: 'none' }));
      const { key } = await b.blobs.write(Readable.from([Buffer.alloc(4_000, 7)]), 1_000_000);
      await b.stores.transcriptions.insert(transcription(`t_${a}`, a, 1_000, { audioBlob: key }));
      await b.stores.transcriptions.insert(transcription(`t2_${a}`, a, 1_001, { audioBlob: '00000000-0000-0000-0000-000000000000' })); // audio since discarded
      await b.stores.templates.put({ id: 'tpl', accountId: a, body: { text: MARKER }, createdAt: 1, updatedAt: 1 });
      await b.stores.webhooks.insert({ id: `wh_${a}`, accountId: a, url: 'https://example.test/usage', events: ['note.completed'], secret: 's', createdAt: 1 });
      await b.stores.visits.insert({ id: `v_${a}`, accountId: a, createdAt: 1, updatedAt: 1, version: 1, content: visitContent('x') });
      await b.stores.notes.insert(note(`n_${other}`, other, 1_000));

      const bytes = async (table: string, columns: string[], where: Record<string, string>): Promise<number> => {
        let sum = 0;
        for (const column of columns) {
          const value = await b.raw(table, column, where);
          if (value !== null && value !== undefined) sum += Buffer.byteLength(String(value));
        }
        return sum;
      };
      const usage = await b.stores.storageUsage.usage(a);
      expect(usage).toEqual({
        notes: { count: 1, bytes: await bytes('notes', ['request', 'markdown', 'json', 'error', 'addenda'], { id: `n_${a}` }) },
        transcriptions: {
          count: 2,
          bytes: (await bytes('transcriptions', ['options', 'result', 'error'], { id: `t_${a}` })) + (await bytes('transcriptions', ['options', 'result', 'error'], { id: `t2_${a}` })),
        },
        audio: { count: 1, bytes: statSync(b.blobs.pathOf(key)).size },
        templates: { count: 1, bytes: await bytes('note_templates', ['body'], { account_id: a, id: 'tpl' }) },
        macros: { count: 0, bytes: 0 },
        webhooks: { count: 1, bytes: await bytes('webhooks', ['url', 'events', 'secret'], { id: `wh_${a}` }) },
        visits: { count: 1, bytes: await bytes('visits', ['content'], { id: `v_${a}` }) },
      });
      expect(usage.audio.bytes).toBeGreaterThan(4_000); // the encrypted file, header and tag included
      expect((await b.stores.storageUsage.usage(other)).transcriptions).toEqual({ count: 0, bytes: 0 });
    });
  });
}
