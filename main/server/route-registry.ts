import { createHash } from 'node:crypto';
import type { Request, Response, NextFunction } from 'express';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import type { Static, TSchema } from '@sinclair/typebox';
import { DomainError, invalidRequest } from '../services/errors.js';
import type { Principal } from '../services/accounts/account-service.js';
import type { IdempotencyStore } from '../services/storage.js';
import { createIdempotencyGate, type IdempotencyEntry } from './idempotency-gate.js';
import { NOTE_TEMPLATE_SCHEMA } from '../../shared/note-template-schema.js';
import { classifyRoute, type RouteLocals } from './middleware/audit.js';
import { checkResponse } from './response-check.js';
import { addRequestFormats, REQUEST_FORMATS } from './request-formats.js';

/** How a route's success body is wrapped (API-DECISIONS "Wire conventions"). */
export type Envelope = 'standard' | 'data-only' | 'delete' | 'raw';

export interface ResponseSpec {
  description: string;
  schema?: TSchema | Record<string, unknown>;
}

export interface RouteSpec {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  /** Express-style path (`/v1/notes/:noteId`). */
  path: string;
  operationId: string;
  summary: string;
  tags: string[];
  description?: string;
  /** Default true: needs X-API-KEY + X-ACCOUNT-ID. */
  auth?: boolean;
  body?: TSchema | Record<string, unknown>;
  /** Request body is not JSON (uploads): the route reads the stream itself. */
  rawBody?: { contentTypes: string[]; description: string };
  query?: TSchema;
  params?: TSchema;
  /** Request headers the operation reads (OpenAPI parameter objects, `in: 'header'`), e.g. If-Match. */
  headers?: readonly Record<string, unknown>[];
  envelope: Envelope;
  /**
   * Success status and schema of `data` (or of the whole body for `raw`); `etag` when the answer
   * carries the object's version as an ETag header.
   */
  success: { status: number; description: string; schema?: TSchema | Record<string, unknown>; etag?: boolean };
  /** Error statuses this operation may answer besides 401/429 (documented in OpenAPI). */
  errors: number[];
  /**
   * An installation-wide action (backups, model installs, code-set imports): only an account with
   * the operator role may run it; any other gets 403 before its body is read or anything is looked up.
   */
  operator?: true;
}

/** A request or response schema: a TypeBox schema, or a plain JSON Schema object (typed `unknown`). */
type Schema = TSchema | Record<string, unknown>;

/** What a value that passed `S` is: `Static<S>` for a TypeBox schema, `unknown` for a plain JSON Schema. */
type StaticOf<S> = S extends TSchema ? Static<S> : unknown;

/** The static type of the spec's `key` schema, or `None` when the spec declares none. */
type Declared<Spec, Key extends string, None> = Spec extends { [K in Key]: infer S } ? (S extends Schema ? StaticOf<S> : None) : None;

/** The request parts a route's handler receives, typed by the schemas its spec declares. */
export interface RouteContext<Spec extends RouteSpec = RouteSpec> {
  req: Request;
  res: Response;
  /** The validated JSON body; `undefined` for a route without a `body` schema. */
  body: Declared<Spec, 'body', undefined>;
  /** The validated query (numbers and booleans coerced, defaults filled); empty for a route without a `query` schema. */
  query: Declared<Spec, 'query', Record<string, never>>;
  params: Declared<Spec, 'params', Record<string, never>>;
  principal: Principal;
}

/** What a route's handler must answer: the success schema's static type (anything for a route that sends no body). */
export type SuccessOf<Spec extends RouteSpec> = Spec extends { success: { schema: infer S } } ? StaticOf<S> : unknown;

/**
 * A route's handler, typed from its spec (as Fastify's type provider types a route from its
 * schemas): the body, query and params are the schemas' static types, and answering anything
 * but the success schema's type is a type error.
 */
export type RouteHandler<Spec extends RouteSpec = RouteSpec> = (ctx: RouteContext<Spec>) => SuccessOf<Spec> | Promise<SuccessOf<Spec>>;

export interface RegisteredRoute {
  spec: RouteSpec;
}

const bodyAjv = addRequestFormats(new Ajv({ allErrors: false, strict: false, coerceTypes: false }));
// Shared models referenced by $id from route schemas.
bodyAjv.addSchema(NOTE_TEMPLATE_SCHEMA as unknown as Record<string, unknown>);
const queryAjv = new Ajv({ allErrors: false, strict: false, coerceTypes: true, useDefaults: true });

function fieldOf(error: ErrorObject, root: string): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('');
  const base = path ? `${root ? root : ''}${path}`.replace(/^\./, '') : root;
  if (error.keyword === 'required') {
    const missing = String(error.params.missingProperty);
    return `${base ? `${base}.` : ''}${missing}: is required`;
  }
  const format = error.keyword === 'format' ? REQUEST_FORMATS[String(error.params.format)] : undefined;
  if (format) return `${base || root || 'body'}: must be ${format.words}`;
  if (error.keyword === 'additionalProperties') return `${base || root}: unknown property "${String(error.params.additionalProperty)}"`;
  const allowed = error.keyword === 'enum' ? ` (${(error.params.allowedValues as unknown[]).map(String).join(', ')})` : '';
  return `${base || root || 'body'}: ${error.message ?? 'is invalid'}${allowed}`;
}

/** Turns the first schema violation into a 400 whose message names the field. */
export function validationError(errors: ErrorObject[] | null | undefined, root: string): DomainError {
  const first = errors?.find((e) => e.keyword !== 'if');
  return invalidRequest(first ? fieldOf(first, root) : `${root || 'body'}: is invalid`);
}

const compiled = new WeakMap<object, ValidateFunction>();
/**
 * The validator of `schema`, compiled by its first call rather than here: compiling every route's
 * schemas when the routes are registered took most of a second of each start. Its `errors` are the
 * compiled function's.
 */
function compile(ajv: Ajv, schema: object): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) {
    let real: ValidateFunction | undefined;
    const lazy = ((data: unknown) => (real ??= ajv.compile(schema))(data)) as ValidateFunction;
    Object.defineProperty(lazy, 'errors', { get: () => real?.errors });
    fn = lazy;
    compiled.set(schema, fn);
  }
  return fn;
}

export function wrap(envelope: Envelope, data: unknown, now: Date = new Date()): unknown {
  switch (envelope) {
    case 'standard':
      return { status: 'ok', data, date: now.toISOString() };
    case 'data-only':
      return { data };
    case 'delete':
      return { status: 'ok', date: now.toISOString() };
    case 'raw':
      return data;
  }
}

export interface RegistryDeps {
  idempotency: IdempotencyStore;
  /** Called when a POST waits on its Idempotency-Key, held by a request still running here or on another instance (metrics). */
  onIdempotencyWait?: () => void;
  /**
   * Reads and parses a JSON request body (within the size limit), for routes that take one: only
   * after the credentials check of routes that need one, so no stranger gets the server to parse a body.
   */
  readJson: (req: Request, res: Response) => Promise<unknown>;
  /** Resolves the authenticated principal set by the auth middleware, or throws 401. */
  requirePrincipal: (req: Request) => Principal;
  /** Rejects (403) unless the principal's account holds the operator role; needed by routes marked `operator`. */
  requireOperator?: (principal: Principal) => Promise<void>;
  /**
   * Check every success body against its route's success schema before it is sent, and answer a
   * 500 (ResponseSchemaError, logged) when it does not match. On in the tests' servers so every
   * route the suite calls holds its published promise; off by default (it parses each answer again).
   */
  validateResponses?: boolean;
}

/** What `res.type('application/json')` sets. */
const JSON_TYPE = 'application/json; charset=utf-8';

type RouteRun = (req: Request, res: Response, next: NextFunction) => Promise<void>;

/**
 * Registers the API's routes, validating params, query and body with the same schemas that the
 * OpenAPI document publishes: the registry is the single source of both. Requests find their
 * route in one radix-tree lookup (find-my-way) rather than express's walk over a layer per route.
 */
export function createRouteRegistry(deps: RegistryDeps) {
  const routes: RegisteredRoute[] = [];
  // Paths are matched as written (case-sensitive); a trailing slash is ignored, as express did.
  const table = FindMyWay({ ignoreTrailingSlash: true, maxParamLength: 500 });
  const idempotency = createIdempotencyGate({ store: deps.idempotency, ...(deps.onIdempotencyWait ? { onWait: deps.onIdempotencyWait } : {}) });

  /** Registers a route; its handler's types come from `spec`'s schemas (see {@link RouteHandler}). */
  const add = <Spec extends RouteSpec>(spec: Spec, handler: RouteHandler<Spec>): void => {
    routes.push({ spec });
    const validateBody = spec.body ? compile(bodyAjv, spec.body) : undefined;
    const validateQuery = spec.query ? compile(queryAjv, spec.query) : undefined;
    const validateParams = spec.params ? compile(bodyAjv, spec.params) : undefined;
    const audited = classifyRoute(spec);
    const run: RouteRun = async (req, res, next) => {
      // For the audit trail, which runs when the response finishes (after express has moved on).
      res.locals.route = { operationId: spec.operationId, method: spec.method, path: spec.path, params: { ...req.params } as Record<string, string>, audited } satisfies RouteLocals;
      /** What the Idempotency-Key gate decided; its slot on this instance is left once the answer is settled. */
      let entry: IdempotencyEntry | undefined;
      try {
        const principal = spec.auth === false ? ({ accountId: '', keyId: '' } as Principal) : deps.requirePrincipal(req);
        if (spec.operator) {
          try {
            if (!deps.requireOperator) throw new DomainError('forbidden', 'this operation needs the operator role');
            await deps.requireOperator(principal);
          } catch (err) {
            if (spec.rawBody) req.resume(); // an upload refused is discarded, never buffered
            throw err;
          }
        }
        if (validateParams && !validateParams(req.params)) throw validationError(validateParams.errors, '');
        // No query string, no parse: most requests carry none.
        const query = req.url.includes('?') ? { ...(req.query as Record<string, unknown>) } : {};
        if (validateQuery && !validateQuery(query)) throw validationError(validateQuery.errors, '');
        let body: unknown = undefined;
        if (spec.body) {
          if (!req.is('application/json')) {
            throw new DomainError('unsupported_media_type', 'Content-Type must be application/json');
          }
          body = await deps.readJson(req, res);
          if (!validateBody!(body)) throw validationError(validateBody!.errors, '');
        }
        const idemKey = spec.method === 'post' ? req.get('Idempotency-Key') : undefined;
        if (idemKey !== undefined) {
          if (!idemKey || idemKey.length > 255) throw invalidRequest('Idempotency-Key: must be 1 to 255 characters');
          const requestHash = createHash('sha256').update(`${spec.method} ${req.path}\n${JSON.stringify(body ?? null)}`).digest('hex');
          entry = await idempotency.enter(principal.accountId, idemKey, requestHash, () => req.socket.destroyed);
          if (entry.kind === 'gone') return;
          if (entry.kind === 'replay') {
            res.set('Idempotent-Replayed', 'true').status(entry.answer.statusCode).type('application/json').send(entry.answer.body);
            return;
          }
        }
        const claim = entry?.kind === 'claimed' ? entry : undefined;
        let data: unknown;
        try {
          // The one place the schemas' types are taken on trust: params, query and body passed them just above.
          data = await handler({ req, res, body, query, params: req.params, principal } as RouteContext<Spec>);
        } catch (err) {
          await claim?.giveBack();
          throw err;
        }
        res.locals.result = data;
        if (res.headersSent) {
          await claim?.giveBack();
          return;
        }
        const payload = JSON.stringify(wrap(spec.envelope, data));
        if (deps.validateResponses) {
          try {
            checkResponse(spec, payload);
          } catch (err) {
            await claim?.giveBack();
            throw err;
          }
        }
        await claim?.keep(spec.success.status, payload);
        // Set directly: express's status() and type() checks and mime lookup cost a constant answer per request.
        res.statusCode = spec.success.status;
        res.setHeader('Content-Type', JSON_TYPE);
        // Written directly: express's send() would hash the body for an ETag nobody asked for.
        res.setHeader('Content-Length', Buffer.byteLength(payload));
        res.end(req.method === 'HEAD' ? undefined : payload);
      } catch (err) {
        next(err);
      } finally {
        entry?.leave();
      }
    };
    table.on(spec.method.toUpperCase() as HTTPMethod, spec.path, () => undefined, run);
  };

  /**
   * Answers a request with its registered route, or passes it on (`next()`) when none matches its
   * method and path. HEAD is answered by the GET route, without a body.
   */
  const dispatch = (req: Request, res: Response, next: NextFunction): void => {
    // find-my-way leaves the query string aside itself.
    const found = table.find(req.method === 'HEAD' ? 'GET' : (req.method as HTTPMethod), req.url);
    if (!found) {
      next(malformedPath(req.path) ? invalidRequest('the request path is not valid percent-encoding') : undefined);
      return;
    }
    req.params = found.params as Record<string, string>;
    void (found.store as RouteRun)(req, res, next);
  };

  return { add, routes, dispatch };
}

function malformedPath(path: string): boolean {
  if (!path.includes('%')) return false;
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

export type RouteRegistry = ReturnType<typeof createRouteRegistry>;
