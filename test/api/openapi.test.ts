import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { startServer, waitFor, type TestServer } from '../support/server.js';
import { wavBytes } from '../support/audio.js';
import { writeTinyWhisper } from '../speech2/whisper-fixture.js';

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onPostgres } from '../support/database.js';

/** Escapes a JSON pointer segment. */
const seg = (s: string): string => s.replace(/~/g, '~0').replace(/\//g, '~1');

describe('the OpenAPI document describes the responses the server gives', () => {
  let s: TestServer;
  let doc: any;
  let ajv: Ajv2020;
  beforeAll(async () => {
    s = await startServer({ CLINDOC_BACKUP_DIR: mkdtempSync(join(tmpdir(), 'clindoc-openapi-backups-')), CLINDOC_BACKUP_INTERVAL_HOURS: '0' });
    doc = await (await fetch(`${s.base}/openapi.json`)).json();
    ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema(doc, 'openapi.json');
  });
  afterAll(() => s.close());

  const checked: string[] = [];
  /** Calls the API and validates the response body against the documented schema. */
  const call = async (method: string, template: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: s.headers(headers) };
    if (body !== undefined) init.body = body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : JSON.stringify(body);
    const res = await fetch(`${s.base}${path}`, init);
    const op = doc.paths[template]?.[method.toLowerCase()];
    expect(op, `${method} ${template} is documented`).toBeDefined();
    const response = op.responses[String(res.status)];
    expect(response, `${method} ${template} documents status ${res.status}`).toBeDefined();
    if (res.status === 204) {
      // No content: documented without a body, and none sent.
      expect(response.content, `${method} ${template} 204 documents no body`).toBeUndefined();
      expect(await res.text()).toBe('');
      checked.push(`${method} ${template} 204`);
      return { status: 204, json: undefined as any };
    }
    const json = await res.json();
    const ref = `openapi.json#/paths/${seg(template)}/${method.toLowerCase()}/responses/${res.status}/content/${seg('application/json')}/schema`;
    const validate = ajv.getSchema(ref) ?? ajv.compile({ $ref: ref });
    const ok = validate(json);
    expect(ok, `${method} ${template} ${res.status}: ${JSON.stringify(validate.errors)}`).toBe(true);
    for (const h of ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'x-request-id']) expect(res.headers.get(h)).toBeTruthy();
    checked.push(`${method} ${template} ${res.status}`);
    return { status: res.status, json };
  };

  it('matches for every operation, success and error alike', { timeout: 180_000 }, async () => {
    const created = await call('POST', '/v1/notes', '/v1/notes', { transcript: '[patient] I have a cough. [doctor] Lungs are clear.', noteType: { type: 'soap', includeJson: true } });
    expect(created.status).toBe(202);
    const noteId = created.json.data.noteId;
    // The first note after a start waits for the compute worker to load the writer (seconds on a loaded machine).
    await waitFor(async () => ((await (await fetch(`${s.base}/v1/notes/${noteId}`, { headers: s.headers() })).json()).data.status === 'STATUS_DONE' ? true : undefined), 60_000);
    await call('GET', '/v1/notes/{noteId}', `/v1/notes/${noteId}`);
    await call('PUT', '/v1/notes/{noteId}', `/v1/notes/${noteId}`, { markdown: '# Edited' });
    await call('PUT', '/v1/notes/{noteId}', `/v1/notes/${noteId}`, { markdown: '# Edited' }, { 'If-Match': '"1"' });
    await call('PUT', '/v1/notes/{noteId}', `/v1/notes/${noteId}`, { markdown: '# Edited' }, { 'If-Match': '"1"' });
    await call('POST', '/v1/notes/{noteId}/addenda', `/v1/notes/${noteId}/addenda`, { text: 'Later.', author: 'Dr. A' });
    await call('POST', '/v1/notes/{noteId}/sign', `/v1/notes/${noteId}/sign`, { signer: 'Dr. A' }, { 'If-Match': '"2"' });
    await call('PUT', '/v1/notes/{noteId}', `/v1/notes/${noteId}`, { markdown: '# After signing' }, { 'If-Match': '"3"' });
    await call('POST', '/v1/notes/{noteId}/addenda', `/v1/notes/${noteId}/addenda`, { text: 'Later.', author: 'Dr. A' });
    await call('GET', '/v1/notes', '/v1/notes?limit=5');
    const visit = await call('POST', '/v1/visits', '/v1/visits', { patient: { name: 'Ana' }, notes: [{ noteId, version: 3 }] });
    await call('POST', '/v1/visits', '/v1/visits', { patient: 'Ana' });
    await call('GET', '/v1/visits/{visitId}', `/v1/visits/${visit.json.data.id}`);
    await call('POST', '/v1/sign-in', '/v1/sign-in', { token: new URL(s.clindoc.signInLink()).hash.slice('#token='.length) });
    await call('POST', '/v1/sign-in', '/v1/sign-in', { token: 'cds_spent' });
    await call('PATCH', '/v1/visits/{visitId}', `/v1/visits/${visit.json.data.id}`, { transcript: 'Saved.' }, { 'If-Match': '"1"' });
    await call('PATCH', '/v1/visits/{visitId}', `/v1/visits/${visit.json.data.id}`, { transcript: 'Stale.' }, { 'If-Match': '"1"' });
    await call('PATCH', '/v1/visits/{visitId}', `/v1/visits/${visit.json.data.id}`, { transcript: 'No version.' });
    await call('GET', '/v1/visits', '/v1/visits?q=saved');
    await call('DELETE', '/v1/visits/{visitId}', `/v1/visits/${visit.json.data.id}`);
    await call('GET', '/v1/visits/{visitId}', `/v1/visits/${visit.json.data.id}`);
    await call('POST', '/v1/notes', '/v1/notes', { transcript: 5 });
    await call('POST', '/v1/note-styles', '/v1/note-styles', { sampleNote: 'HPI\nCough for two days.\n\nPLAN\n- Rest.', instructions: [] });
    await call('POST', '/v1/utils/text-to-json', '/v1/utils/text-to-json', {
      text: '45 year old male, BP 130/85, denies chest pain.',
      schema: { type: 'object', properties: { age: { type: ['integer', 'null'] }, sex: { type: ['string', 'null'], enum: ['male', 'female', null] } }, required: ['age', 'sex'] },
    });
    await call('POST', '/v1/macros/detect', '/v1/macros/detect', { text: 'insert normal chest exam please', macros: [{ id: 'nce', examples: ['normal chest exam'], expansion_text: 'Lungs clear.' }] });
    await call('POST', '/v1/macros/detect', '/v1/macros/detect', { text: 'x' });
    const tpl = { id: 'oa', title: 'OA', sections: [{ id: 'p', type: 'list', prompt: 'Plan', properties: { list_type: 'bullet' } }] };
    await call('POST', '/v1/note-templates', '/v1/note-templates', tpl);
    await call('GET', '/v1/note-templates/{templateId}', '/v1/note-templates/oa');
    await call('PUT', '/v1/note-templates/{templateId}', '/v1/note-templates/oa', tpl);
    await call('GET', '/v1/note-templates', '/v1/note-templates');
    await call('DELETE', '/v1/note-templates/{templateId}', '/v1/note-templates/oa');
    await call('GET', '/v1/note-templates/{templateId}', '/v1/note-templates/oa');
    const upload = await call('POST', '/v2/audio/transcriptions', '/v2/audio/transcriptions?diarization=false', wavBytes(0.3), { 'content-type': 'audio/wav' });
    expect(upload.status).toBe(202);
    await call('GET', '/v2/audio/transcriptions/{transcriptionId}', `/v2/audio/transcriptions/${upload.json.id}`);
    await call('GET', '/v1/audio/transcriptions/{transcriptionId}', `/v1/audio/transcriptions/${upload.json.id}`);
    await call('GET', '/v2/audio/transcriptions', '/v2/audio/transcriptions');
    await call('POST', '/v2/audio/transcriptions', '/v2/audio/transcriptions', new TextEncoder().encode('hello'), { 'content-type': 'text/plain' });
    await call('POST', '/v1/audio/transcriptions/stream/token', '/v1/audio/transcriptions/stream/token');
    const hook = await call('POST', '/v1/webhooks', '/v1/webhooks', { url: 'https://hooks.example.org/clindoc' });
    await call('GET', '/v1/webhooks', '/v1/webhooks');
    await call('DELETE', '/v1/webhooks/{webhookId}', `/v1/webhooks/${hook.json.data.id}`);
    await call('POST', '/v1/macro-library', '/v1/macro-library', { id: 'nce', examples: ['normal chest exam'], expansion_text: 'Lungs clear.' });
    await call('GET', '/v1/macro-library/{macroId}', '/v1/macro-library/nce');
    await call('PUT', '/v1/macro-library/{macroId}', '/v1/macro-library/nce', { id: 'nce', examples: ['normal chest'], expansion_text: 'Clear.' });
    await call('GET', '/v1/macro-library', '/v1/macro-library');
    await call('DELETE', '/v1/macro-library/{macroId}', '/v1/macro-library/nce');
    await call('DELETE', '/v1/audio/transcriptions/{transcriptionId}', `/v1/audio/transcriptions/${upload.json.id}`);
    await call('DELETE', '/v2/audio/transcriptions/{transcriptionId}', `/v2/audio/transcriptions/${upload.json.id}`);
    await call('DELETE', '/v1/notes/{noteId}', `/v1/notes/${noteId}`);
    await call('GET', '/v1/audit-events', '/v1/audit-events?limit=5');
    await call('GET', '/v1/jobs/dead-letters', '/v1/jobs/dead-letters?limit=5');
    await call('GET', '/v1/jobs/dead-letters', '/v1/jobs/dead-letters?limit=0');
    await call('GET', '/v1/settings/retention', '/v1/settings/retention');
    await call('PUT', '/v1/settings/retention', '/v1/settings/retention', { days: 30 });
    await call('GET', '/v1/settings/engines', '/v1/settings/engines');
    await call('PUT', '/v1/settings/engines', '/v1/settings/engines', { asrEngine: 'pocketsphinx' });
    await call('PUT', '/v1/settings/engines', '/v1/settings/engines', { asrEngine: 'no-such-engine' });
    await call('GET', '/v1/storage', '/v1/storage');
    await call('DELETE', '/v1/storage', '/v1/storage');
    await call('DELETE', '/v1/storage', '/v1/storage?confirm=all');
    // A clinic's PostgreSQL is backed up with the database's own tools: the API answers 409 there.
    expect((await call('POST', '/v1/backups', '/v1/backups')).status).toBe(onPostgres ? 409 : 201);
    await call('GET', '/v1/backups', '/v1/backups');
    const modelDir = writeTinyWhisper(join(mkdtempSync(join(tmpdir(), 'clindoc-openapi-model-')), 'whisper'));
    await call('GET', '/v1/models', '/v1/models');
    await call('GET', '/v1/engines', '/v1/engines');

    await call('POST', '/v1/models/import', '/v1/models/import', { path: join(modelDir, 'no-such-file.gguf') });
    // A clinic server's models are installed by its operator on every instance: the API answers 409 there.
    expect((await call('POST', '/v1/models/import', '/v1/models/import', { path: modelDir, id: 'openapi-whisper' })).status).toBe(onPostgres ? 409 : 201);
    await call('GET', '/v1/models/{modelId}', '/v1/models/openapi-whisper');
    await call('GET', '/v1/models/{modelId}', '/v1/models/whisper-base');
    await call('POST', '/v1/models/{modelId}/verify', '/v1/models/openapi-whisper/verify');
    await call('POST', '/v1/models/{modelId}/pull', '/v1/models/openapi-whisper/pull');
    await call('POST', '/v1/models/{modelId}/pull', '/v1/models/no-such-model/pull');
    if (onPostgres) {
      // Refused before anything is fetched (on the desktop this would start a real download).
      const catalogPull = await call('POST', '/v1/models/{modelId}/pull', '/v1/models/whisper-base/pull');
      expect(catalogPull.status).toBe(409);
      expect(catalogPull.json.message).toMatch(/clindoc models pull/);
    }
    await call('GET', '/v1/speech/adaptation', '/v1/speech/adaptation');
    const sentence = '/v1/speech/adaptation/recordings/{sentenceId}';
    await call('PUT', sentence, '/v1/speech/adaptation/recordings/s01', wavBytes(1, 16000, 220), { 'content-type': 'audio/wav' });
    await call('PUT', sentence, '/v1/speech/adaptation/recordings/no-such-sentence', wavBytes(1), { 'content-type': 'audio/wav' });
    await call('PUT', sentence, '/v1/speech/adaptation/recordings/s01', new TextEncoder().encode('hello'), { 'content-type': 'text/plain' });
    await call('POST', '/v1/speech/adaptation/runs', '/v1/speech/adaptation/runs');
    await call('PATCH', '/v1/speech/adaptation', '/v1/speech/adaptation', { useCorrectedDictation: true });
    await call('PATCH', '/v1/speech/adaptation', '/v1/speech/adaptation', { enabled: true });
    await call('DELETE', sentence, '/v1/speech/adaptation/recordings/s01');
    await call('DELETE', '/v1/speech/adaptation', '/v1/speech/adaptation');
    await call('GET', '/v1/models/{modelId}/pull', '/v1/models/openapi-whisper/pull');
    await call('DELETE', '/v1/models/{modelId}/pull', '/v1/models/openapi-whisper/pull');
    await call('DELETE', '/v1/models/{modelId}', '/v1/models/openapi-whisper');
    await call('DELETE', '/v1/models/{modelId}', '/v1/models/openapi-whisper');
    // Every documented REST operation was exercised.

    const documented = Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops as object).map((m) => `${m.toUpperCase()} ${p}`));
    const exercised = new Set(checked.map((c) => c.split(' ').slice(0, 2).join(' ')));
    // The operations endpoints carry no rate-limit headers; test/ops/ checks them against this document.
    const missing = documented.filter((d) => !exercised.has(d) && !d.includes('/stream') && !d.includes('/coding') && !/ \/(healthz|readyz|metrics)$/.test(d));
    expect(missing).toEqual([]);
  });
});
