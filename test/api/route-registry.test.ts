import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';
import express from 'express';
import pino from 'pino';
import { Writable } from 'node:stream';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { Type } from '@sinclair/typebox';
import { createRouteRegistry, wrap, type RouteRegistry } from '../../main/server/route-registry.js';
import { checkResponse, ResponseSchemaError } from '../../main/server/response-check.js';
import { registerApiRoutes, type ApiServices } from '../../main/server/app.js';
import { errorHandler } from '../../main/server/middleware/error-handler.js';
import { CreateNoteBody, IdParam, NoteCreated, PageQuery } from '../../shared/api/schemas.js';
import type { IdempotencyStore } from '../../main/services/storage.js';

/** No test here sends an Idempotency-Key: a store that is never reached. */
const noIdempotency = new Proxy({}, { get: () => () => Promise.reject(new Error('not used')) }) as IdempotencyStore;

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** A real HTTP server on loopback answering with one registry, its log lines kept. */
async function serve(validateResponses: boolean, register: (registry: RouteRegistry) => void) {
  const logs: string[] = [];
  const logger = pino(new Writable({ write: (chunk: Buffer, _enc, done) => void (logs.push(chunk.toString()), done()) }));
  const json = express.json();
  const registry = createRouteRegistry({
    idempotency: noIdempotency,
    validateResponses,
    readJson: (req, res) => new Promise((resolve, reject) => json(req, res, (err?: unknown) => (err ? reject(err) : resolve(req.body)))),
    requirePrincipal: () => ({ accountId: 'acc', keyId: 'key' }),
  });
  register(registry);
  const app = express();
  app.set('query parser', 'simple');
  app.use(registry.dispatch);
  app.use(errorHandler(logger));
  const server = app.listen(0, '127.0.0.1');
  servers.push(server);
  await new Promise((done) => server.once('listening', done));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const post = async (path: string, body: unknown) => {
    const res = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };
  return { base, post, logs, registry };
}

const createNote = {
  method: 'post', path: '/v1/notes', operationId: 'createNote', tags: ['Notes'], summary: 'Create', body: CreateNoteBody,
  envelope: 'standard', success: { status: 202, description: 'Accepted', schema: NoteCreated }, errors: [400],
} as const satisfies Parameters<RouteRegistry['add']>[0];

describe('typed routes', () => {
  it('a handler whose body breaks its success schema is a type error, and a 500 naming the route when the check is on', async () => {
    const wrong = (registry: RouteRegistry) =>
      registry.add(
        { ...createNote, tags: ['Notes'], errors: [400] },
        // @ts-expect-error noteId must be a string (NoteCreated): the handler's answer is typed by the success schema
        () => ({ noteId: 31_415_926_535 }),
      );
    const checked = await serve(true, wrong);
    const answer = await checked.post('/v1/notes', { transcript: 'Cough for two days.' });
    expect(answer).toEqual({ status: 500, body: { error: 500, message: 'internal error' } });
    const logged = checked.logs.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.errName === 'ResponseSchemaError');
    expect(logged?.problem).toMatch(/^createNote: the success body does not match its schema: \/noteId must be string/);
    // The value itself never reaches the log (it could be patient data); a long number, since the
    // log's own timestamps are digits too (a '42' in one made this check fail by chance).
    expect(checked.logs.join('')).not.toContain('31415926535');

    // Without the check the same handler's body goes out as it is: the check is what caught it.
    const unchecked = await serve(false, wrong);
    expect((await unchecked.post('/v1/notes', { transcript: 'Cough for two days.' })).status).toBe(202);
  });

  it('a body that matches passes the check unchanged', async () => {
    const { post } = await serve(true, (registry) => registry.add({ ...createNote, tags: ['Notes'], errors: [400] }, ({ body }) => ({ noteId: `n-${body.transcript.length}` })));
    const answer = await post('/v1/notes', { transcript: 'abc' });
    expect(answer.status).toBe(202);
    expect(answer.body.data).toEqual({ noteId: 'n-3' });
  });

  it('hands the handler the schemas\' static types', () => {
    const registry = createRouteRegistry({ idempotency: noIdempotency, readJson: async () => ({}), requirePrincipal: () => ({ accountId: '', keyId: '' }) });
    registry.add(
      {
        method: 'get', path: '/v1/things/:thingId', operationId: 'getThing', tags: ['T'], summary: 'T', params: IdParam('thingId'), query: PageQuery,
        envelope: 'standard', success: { status: 200, description: 'T', schema: Type.Object({ id: Type.String() }) }, errors: [],
      },
      ({ params, query, body }) => {
        expectTypeOf(params.thingId).toEqualTypeOf<string>();
        expectTypeOf(query.limit).toEqualTypeOf<number | undefined>();
        expectTypeOf(body).toEqualTypeOf<undefined>();
        // @ts-expect-error only the declared path parameter exists
        void params.otherId;
        return { id: params.thingId };
      },
    );
    registry.add({ ...createNote, tags: ['Notes'], errors: [400] }, ({ body }) => {
      expectTypeOf(body.transcript).toEqualTypeOf<string>();
      expectTypeOf(body.noteType).toMatchTypeOf<{ type?: 'note_style' | 'soap' | 'note_template' } | undefined>();
      return { noteId: 'x' };
    });
    expect(registry.routes.map((r) => r.spec.operationId)).toEqual(['getThing', 'createNote']);
  });
});

describe('request formats live in the schemas', () => {
  it('rejects a malformed or impossible encounter date and date of birth with the messages the service gave', async () => {
    const { post } = await serve(true, (registry) => registry.add({ ...createNote, tags: ['Notes'], errors: [400] }, () => ({ noteId: 'n' })));
    const note = (extra: Record<string, unknown>) => post('/v1/notes', { transcript: 'Cough.', ...extra });
    for (const date of ['2026-1-05', '2026-02-30', '2026-02-03 10:00:00Z', '2026-02-30T10:00:00Z']) {
      expect(await note({ date })).toEqual({ status: 400, body: { error: 400, message: 'date: must be YYYY-MM-DD or YYYY-MM-DDTHH:mm:ssZ' } });
    }
    for (const dateOfBirth of ['1980-13-01', '01/02/1980', '1981-02-29']) {
      expect(await note({ patientInfo: { dateOfBirth } })).toEqual({ status: 400, body: { error: 400, message: 'patientInfo.dateOfBirth: must be YYYY-MM-DD' } });
    }
    expect((await note({ date: '2024-02-29T09:30:00Z', patientInfo: { dateOfBirth: '1980-01-31' } })).status).toBe(202);
  });
});

describe('the route table', () => {
  const services = Object.fromEntries(
    ['deadLetters', 'accounts', 'notes', 'styles', 'templates', 'transcriptions', 'extraction', 'macros', 'macroLibrary', 'webhooks', 'idempotency', 'audit', 'storage',
      'visits', 'signIn', 'engines', 'coding', 'codeEditions', 'models', 'engineStatus', 'backups'].map((name) => [name, {}]),
  ) as unknown as ApiServices;

  it('gives every route that answers a body a success schema, which the response check compiles and holds answers to', () => {
    const registry = createRouteRegistry({ idempotency: noIdempotency, readJson: async () => ({}), requirePrincipal: () => ({ accountId: '', keyId: '' }) });
    registerApiRoutes(registry, services, { port: () => 0, maxAudioBytes: 1, streamTokenTtlSeconds: 1 });
    const specs = registry.routes.map((r) => r.spec);
    // Every optional part is present, so the table is the whole API.
    expect(specs.map((s) => s.operationId)).toEqual(expect.arrayContaining(['createNote', 'listDeadLetters', 'listModels', 'getEngineStatus', 'exchangeSignInToken', 'listCodingEditions']));
    const withoutSchema = specs.filter((s) => s.envelope !== 'delete' && !s.success.schema).map((s) => s.operationId);
    expect(withoutSchema).toEqual([]);
    // A delete answers {status, date} alone: a schema there would promise data that is never sent.
    expect(specs.filter((s) => s.envelope === 'delete' && s.success.schema).map((s) => s.operationId)).toEqual([]);
    // Each schema compiles in the check (its $refs resolve): an empty answer is refused as a mismatch, never a crash of the checker.
    const broken = specs.filter((s) => s.success.schema).filter((s) => {
      try {
        checkResponse(s, JSON.stringify(wrap(s.envelope, null)));
        return true; // no route may promise `null` as its whole answer
      } catch (err) {
        return !(err instanceof ResponseSchemaError);
      }
    });
    expect(broken.map((s) => s.operationId)).toEqual([]);
  });
});
