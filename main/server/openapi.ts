import type { RouteSpec } from './route-registry.js';
import { ErrorBody } from './schemas.js';
import { NOTE_TEMPLATE_SCHEMA } from '../../shared/note-template-schema.js';

const ERROR_TEXT: Record<number, string> = {
  400: 'Invalid body, schema or parameters; the message names the field',
  401: 'Missing or wrong X-API-KEY / X-ACCOUNT-ID',
  403: 'Foreign Origin or Host header',
  404: 'Unknown id, or an id owned by another account',
  409: 'Conflict with an existing object, or with the object\'s state (a signed note is read-only)',
  412: 'If-Match names a version that is no longer the current one (changed elsewhere): read it again',
  428: 'If-Match is required (the version from the ETag of the last read)',
  413: 'Over a size limit',
  415: 'Unsupported media type or audio format',
  422: 'The request\'s work ran past the server\'s work budget (CLINDOC_WORK_BUDGET_MS) and was stopped; the message names the budget. The same request would overrun again: send less',
  429: 'Rate limited, or locked out after repeated wrong keys; see Retry-After',
  503: 'An engine is unavailable; or, with Retry-After, busy for a moment (another process holds the database locked, or every worker thread is taken): nothing was done, send it again after Retry-After seconds',
  507: 'Not enough free disk space (a full disk, or a model download or import too large for it): nothing was saved; work accepted earlier is kept and resumes when space returns',

};

/** Decision (issue 29) on installation-wide actions, repeated on each operation it covers. */
const OPERATOR_ONLY =
  'Operator only: this acts on the whole installation (every account\'s data, or the device\'s models and code sets), so only an account with the ' +
  'operator role may run it; any other account gets 403 before anything is read or looked up, so the answer reveals nothing about the installation. ' +
  'The desktop\'s local account (created at first start) is the operator; a clinic names its operators (`clindoc accounts create --operator`, CLINDOC_OPERATOR_ACCOUNTS).';

const RATE_HEADERS = {
  'X-RateLimit-Limit': { description: 'Requests allowed per window for this account', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Requests left in the current window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  'X-Request-Id': { description: 'Identifier of this request (also in the server log)', schema: { type: 'string' } },
};

const TEMPLATE_REF = `"$ref":"${NOTE_TEMPLATE_SCHEMA.$id}"`;

/** Strips TypeBox's symbol keys and points shared models at `components.schemas`. */
function plain(schema: unknown): unknown {
  return JSON.parse(JSON.stringify(schema ?? {}).split(TEMPLATE_REF).join('"$ref":"#/components/schemas/NoteTemplate"'));
}

/** The NoteTemplate model as a component, its `$defs` addressed from the document root. */
function noteTemplateComponent(): unknown {
  const { $id: _id, ...rest } = NOTE_TEMPLATE_SCHEMA;
  return JSON.parse(JSON.stringify(rest).split('"#/$defs/').join('"#/components/schemas/NoteTemplate/$defs/'));
}

function envelopeSchema(spec: RouteSpec): Record<string, unknown> | undefined {
  const data = spec.success.schema ? plain(spec.success.schema) : undefined;
  switch (spec.envelope) {
    case 'standard':
      return {
        type: 'object', required: ['status', 'data', 'date'],
        properties: { status: { const: 'ok' }, data: data ?? {}, date: { type: 'string', format: 'date-time' } },
      };
    case 'data-only':
      return { type: 'object', required: ['data'], properties: { data: data ?? {} } };
    case 'delete':
      return { type: 'object', required: ['status', 'date'], properties: { status: { const: 'ok' }, date: { type: 'string', format: 'date-time' } } };
    case 'raw':
      return data as Record<string, unknown> | undefined;
  }
}

function parameters(spec: RouteSpec): unknown[] {
  const out: unknown[] = [];
  const add = (where: 'path' | 'query', schema: unknown): void => {
    const s = plain(schema) as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
    for (const [name, prop] of Object.entries(s.properties ?? {})) {
      const { description, ...rest } = prop;
      out.push({ name, in: where, required: where === 'path' || (s.required ?? []).includes(name), schema: rest, ...(description ? { description } : {}) });
    }
  };
  if (spec.params) add('path', spec.params);
  if (spec.query) add('query', spec.query);
  out.push(...(spec.headers ?? []));
  if (spec.method === 'post') {
    out.push({
      name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', maxLength: 255 },
      description: 'The same key and body within 24 h returns the first response (header Idempotent-Replayed: true); the same key with another body is a 400. A retry sent while the first request with its key is still running waits for it and then replays its answer: on this instance for as long as the first runs, on another instance of the same database up to 30 s, then 409 if it is still running; a first request that failed keeps nothing under its key, so its retry runs afresh.',
    });
  }
  return out;
}

/**
 * Builds the OpenAPI 3.1 document from the route registry, so every path, parameter, body and
 * response schema published here is the one the server validates with.
 */
/**
 * The operations endpoints (main/server/routes/ops.ts): no API key, nothing about patients or
 * accounts. `/metrics` asks for the bearer token when CLINDOC_METRICS_TOKEN is set, else it answers
 * loopback clients only.
 */
export function opsPaths(metricsToken: boolean): Record<string, unknown> {
  const check = { type: 'object', required: ['name', 'ok'], properties: { name: { type: 'string', enum: ['database', 'job queue', 'engines'] }, ok: { type: 'boolean' }, reason: { type: 'string', enum: ['failed', 'timed out'] } } };
  const readiness = {
    type: 'object', required: ['status', 'checks'],
    properties: { status: { type: 'string', enum: ['ready', 'unavailable', 'draining'] }, checks: { type: 'array', items: check } },
  };
  const error = (description: string): Record<string, unknown> => ({ description, content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } });
  return {
    '/healthz': {
      get: {
        operationId: 'healthz', summary: 'Liveness: the process answers', tags: ['Operations'], security: [],
        description: 'Touches neither the database nor the engines: 200 while the process runs, also while it drains. Needs no API key and no particular Host.',
        responses: { 200: { description: 'Alive.', content: { 'application/json': { schema: { type: 'object', required: ['status'], properties: { status: { type: 'string', const: 'ok' } } } } } } },
      },
    },
    '/readyz': {
      get: {
        operationId: 'readyz', summary: 'Readiness: database, job queue and engines work', tags: ['Operations'], security: [],
        description: 'Runs every check at once (2 s each). 503 names the checks that failed, never why; from the moment the process begins to drain (SIGTERM, SIGINT) it answers 503 `draining` without checking, so a load balancer sends elsewhere. Needs no API key and no particular Host.',
        responses: {
          200: { description: 'Every check passed.', content: { 'application/json': { schema: readiness } } },
          503: { description: 'A check failed or timed out, or the process is draining.', content: { 'application/json': { schema: readiness } } },
        },
      },
    },
    '/metrics': {
      get: {
        operationId: 'metrics', summary: 'Prometheus metrics', tags: ['Operations'],
        security: metricsToken ? [{ metricsToken: [] }] : [],
        description:
          'Prometheus text format: `clindoc_http_requests_total` and `clindoc_http_request_duration_seconds` by method, route template (`/v1/notes/{noteId}`, `unmatched` for no route) and status; ' +
          '`clindoc_jobs_queued`, `clindoc_jobs_running`, `clindoc_jobs_oldest_queued_age_seconds` by job kind and `clindoc_jobs_queue_up`; `clindoc_transcription_real_time_factor` by engine; ' +
          'Node process metrics (`clindoc_process_*`, `clindoc_nodejs_*`). No patient data and no account ids. ' +
          'Access: with CLINDOC_METRICS_TOKEN set, `Authorization: Bearer <token>` from anywhere; without it, loopback clients only (behind a TLS proxy, the address the proxy forwards) under the local Host and Origin rules.',
        responses: {
          200: { description: 'The metrics.', content: { 'text/plain; version=0.0.4': { schema: { type: 'string' } } } },
          401: error('CLINDOC_METRICS_TOKEN is set and the request does not carry it.'),
          403: error('No token is configured and the client is not on this computer.'),
        },
      },
    },
  };
}

export function buildOpenApi(routes: RouteSpec[], extra: { serverUrl: string; version: string; paths?: Record<string, unknown>; metricsToken?: boolean }): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const spec of routes) {
    const path = spec.path.replace(/:([A-Za-z]+)/g, '{$1}');
    const responses: Record<string, unknown> = {};
    const schema = envelopeSchema(spec);
    responses[String(spec.success.status)] = {
      description: spec.success.description,
      headers: spec.success.etag
        ? { ...RATE_HEADERS, ETag: { description: 'The object\'s version in quotes; send it back as If-Match to change the object.', schema: { type: 'string' } } }
        : RATE_HEADERS,
      ...(schema ? { content: { 'application/json': { schema } } } : {}),
    };
    // Any operation that stores something can meet a full disk, or a database another process holds locked (503).
    const statuses = new Set([...(spec.auth === false ? [] : [401, 403, 429]), ...(spec.method === 'get' ? [] : [503, 507]), ...spec.errors]);
    for (const status of [...statuses].sort()) {
      responses[String(status)] = {
        description: status === 403 && spec.operator ? `${ERROR_TEXT[403]}, or an account without the operator role` : ERROR_TEXT[status] ?? 'Error',
        headers: RATE_HEADERS,
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      };
    }
    const operation: Record<string, unknown> = {
      operationId: spec.operationId,
      summary: spec.summary,
      ...(spec.description || spec.operator ? { description: [spec.operator ? OPERATOR_ONLY : '', spec.description ?? ''].filter(Boolean).join(' ') } : {}),
      ...(spec.operator ? { 'x-clindoc-operator-only': true } : {}),
      tags: spec.tags,
      parameters: parameters(spec),
      responses,
      ...(spec.auth === false ? { security: [] } : {}),
    };
    if (spec.body) {
      operation.requestBody = { required: true, content: { 'application/json': { schema: plain(spec.body) } } };
    } else if (spec.rawBody) {
      operation.requestBody = {
        required: true,
        description: spec.rawBody.description,
        content: Object.fromEntries(spec.rawBody.contentTypes.map((type) => [type, {
          schema: type === 'multipart/form-data'
            ? {
                type: 'object', required: ['audio'],
                properties: {
                  audio: { type: 'string', contentMediaType: 'application/octet-stream' }, language: { type: 'string' }, dictation: { type: 'string' },
                  diarization: { type: 'string' }, webhookUrl: { type: 'string' }, engine: { type: 'string' },
                },
              }
            : { type: 'string', contentMediaType: type },
        }])),
      };
    }
    (paths[path] ??= {})[spec.method] = operation;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Clindoc local Clinical Documentation API',
      version: extra.version,
      description:
        'The local API of the Clindoc desktop app, implementing the Clinical Documentation API contract (interface version 0.2.0) with the decisions recorded here. Listens on 127.0.0.1; requests from foreign web origins are refused. ' +
        'Wrong keys are throttled: from the third wrong key an address waits longer for each answer; after CLINDOC_AUTH_MAX_FAILURES (default 10) wrong keys for one account ' +
        'that address is locked out of that account (429 with Retry-After, 60 s doubling per lockout in a row, at most 1 h) and its keys are not checked until the lockout ends; ' +
        'five times as many from one address for any accounts lock the address; an account under attack from many addresses locks out each address at its first wrong key, ' +
        'while clients that have not failed (the owner) keep working. Lockouts are recorded in the targeted account\'s audit trail; the keys tried never are. ' +
        'Installation-wide actions (backups, model downloads, imports, cancels and removals, ICD-10-CM imports) belong to the operator role: the desktop\'s local account, ' +
        'and on a clinic server the accounts its administrator names; any other account gets 403 (x-clindoc-operator-only on those operations). ' +
        'Order of checks: Host/Origin (403), credentials (401/429), rate limit (429), the operator role where needed (403), then the request itself; a JSON body is read only after the credentials check, so an ' +
        'unauthenticated request with a malformed or oversized body gets 401, not 400 or 413. Paths are case-sensitive; a trailing slash is ignored; HEAD is answered by the GET route without a body.',
    },
    servers: [{ url: extra.serverUrl }],
    security: [{ apiKey: [], accountId: [] }],
    paths: { ...paths, ...(extra.paths ?? {}), ...opsPaths(extra.metricsToken ?? false) },
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'X-API-KEY' },
        accountId: { type: 'apiKey', in: 'header', name: 'X-ACCOUNT-ID' },
        metricsToken: { type: 'http', scheme: 'bearer', description: 'CLINDOC_METRICS_TOKEN, for `GET /metrics` only.' },
      },
      schemas: { Error: plain(ErrorBody), NoteTemplate: noteTemplateComponent() },
    },
  };
}
