import type { Response } from 'express';
import type { AuditService } from '../../services/audit/audit-service.js';
import type { AuditEvent } from '../../services/audit/ports.js';
import type { Principal } from '../../services/accounts/account-service.js';

/** What the route registry leaves in `res.locals.route` for the audit trail, the log and the metrics. */
export interface RouteLocals {
  operationId: string;
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
  params: Record<string, string>;
  /** The route's `classifyRoute`, worked out once when it was registered. */
  audited: RouteAudit | undefined;
}

export type RouteAudit = { resourceType: AuditEvent['resourceType']; action: AuditEvent['action'] };

/** Path prefixes of stored patient-data resources, most specific first. */
const RESOURCES: Array<[RegExp, AuditEvent['resourceType']]> = [
  [/^\/v1\/audio\/transcriptions\/stream\b/, 'audio'],
  [/^\/v[12]\/audio\/transcriptions\b/, 'transcription'],
  [/^\/v1\/note-templates\b/, 'note_template'],
  [/^\/v1\/notes\b/, 'note'],
  [/^\/v1\/visits\b/, 'visit'],
  [/^\/v1\/macro-library\b/, 'macro'],
  [/^\/v1\/webhooks\b/, 'webhook'],
  [/^\/v1\/backups\b/, 'backup'],
];

/** Classifies a registered route: which resource it touches and how; undefined when not audited. */
export function classifyRoute(route: Pick<RouteLocals, 'method' | 'path'>): RouteAudit | undefined {
  const found = RESOURCES.find(([pattern]) => pattern.test(route.path));
  if (!found || found[1] === 'audio') return undefined; // the token route stores nothing
  const hasId = route.path.includes('/:');
  const action: AuditEvent['action'] =
    route.method === 'get' ? (hasId ? 'read' : 'list')
    : route.method === 'delete' ? 'delete'
    : /\/sign$/.test(route.path) ? 'sign'
    : /\/addenda$/.test(route.path) ? 'amend'
    : 'write';
  return { resourceType: found[1], action };
}

const outcomeOf = (status: number): AuditEvent['outcome'] =>
  status < 400 ? 'success' : status === 401 || status === 403 ? 'denied' : status === 404 ? 'not_found' : status >= 500 ? 'error' : 'rejected';

/** The id a create returned (`noteId`, `id`), never anything else from the body. */
function createdId(result: unknown): string | null {
  if (!result || typeof result !== 'object') return null;
  const r = result as Record<string, unknown>;
  const id = r.noteId ?? r.id;
  return typeof id === 'string' ? id.slice(0, 200) : null;
}

/**
 * Records a finished read, write, list or delete of notes, transcriptions, templates, saved macros
 * and webhooks (called by the front door's `finish` listener): who (account, key id), what
 * (resource id), when, from where (remote address) and the outcome. Content never enters the
 * trail: only ids and statuses.
 */
export function auditResponse(audit: AuditService, res: Response): void {
  const route = res.locals.route as RouteLocals | undefined;
  if (!route) return;
  const kind = route.audited;
  if (!kind) return;
  const principal = res.locals.principal as Principal | undefined;
  const paramId = Object.values(route.params)[0];
  audit.record({
    accountId: principal?.accountId ?? null,
    keyId: principal?.keyId ?? null,
    actor: principal ? 'api-key' : 'anonymous',
    action: kind.action,
    resourceType: kind.resourceType,
    resourceId: paramId !== undefined ? paramId.slice(0, 200) : kind.action === 'write' && res.statusCode < 300 ? createdId(res.locals.result) : null,
    operation: route.operationId,
    // Read by the front door when the request started: by now a failed upload may have destroyed the socket.
    ip: (res.locals.clientAddress as string | undefined) ?? null,
    outcome: outcomeOf(res.statusCode),
    status: res.statusCode,
    requestId: (res.locals.requestId as string | undefined) ?? null,
    // The signer's name, set by the sign and addendum routes on success (a clinician's name, not patient data).
    signer: res.statusCode < 300 ? ((res.locals.auditSigner as string | undefined) ?? null) : null,
  });
}
