import { Type } from '@sinclair/typebox';
import type { RouteRegistry } from '../route-registry.js';
import type { AuditService } from '../../services/audit/audit-service.js';
import { invalidRequest } from '../../services/errors.js';
import { pageOf } from '../schemas.js';
import { registerAccountRead } from './account-read.js';

const AuditEventView = Type.Object(
  {
    id: Type.String(),
    at: Type.String({ format: 'date-time' }),
    accountId: Type.Union([Type.String(), Type.Null()]),
    keyId: Type.Union([Type.String(), Type.Null()], { description: 'API key id (a streaming token resolves to its key); never the secret.' }),
    actor: Type.String({ description: '`api-key`, `anonymous` (a lockout), or `system:retention` for background deletions.' }),
    action: Type.String({ enum: ['read', 'list', 'write', 'delete', 'authenticate', 'sign', 'amend'], description: '`authenticate` with outcome `locked`: a client was locked out after repeated wrong keys for this account (its address in `ip`; the keys tried are never recorded). `sign`: a note was signed; `amend`: an addendum was added (the name in `signer`).' }),
    resourceType: Type.String({ enum: ['note', 'transcription', 'note_template', 'macro', 'webhook', 'audio', 'account', 'backup', 'visit'] }),
    resourceId: Type.Union([Type.String(), Type.Null()]),
    operation: Type.Union([Type.String(), Type.Null()], { description: 'OpenAPI operationId of the request.' }),
    ip: Type.Union([Type.String(), Type.Null()]),
    outcome: Type.String({ enum: ['success', 'denied', 'not_found', 'rejected', 'error', 'locked'] }),
    status: Type.Union([Type.Integer(), Type.Null()]),
    requestId: Type.Union([Type.String(), Type.Null()]),
    signer: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'The name a note was signed with (`sign`) or an addendum\'s author (`amend`).' })),
  },
  { description: 'One audit entry: identifiers and outcome only, never content.' },
);

const AuditQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50, description: 'Page size (1-200, default 50).' })),
  cursor: Type.Optional(Type.String({ maxLength: 20, description: "Opaque cursor from a previous page's `nextCursor`." })),
  resourceId: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Only events about this resource.' })),
  since: Type.Optional(Type.String({ maxLength: 40, description: 'Only events at or after this ISO 8601 time.' })),
});

const Retention = Type.Object({
  days: Type.Integer({ minimum: 0, description: 'Days after creation when notes, transcriptions and audio are deleted; 0 keeps them.' }),
  source: Type.String({ enum: ['account', 'default'], description: '`default` when the account follows CLINDOC_RETENTION_DAYS.' }),
});
const RetentionBody = Type.Object({
  days: Type.Union([Type.Integer({ minimum: 0, maximum: 36_500 }), Type.Null()], { description: 'Whole days (0 keeps); null returns to the default.' }),
});

/** The account's own audit trail (`GET /v1/audit-events`) and its retention setting. */
export function registerAuditRoutes(registry: RouteRegistry, deps: { audit: AuditService }): void {
  const tags = ['Data protection'];
  registry.add(
    {
      method: 'get', path: '/v1/audit-events', operationId: 'listAuditEvents', tags,
      summary: "The account's audit trail, newest first",
      description: 'Every read, list, write and delete of notes, transcriptions, templates, saved macros and webhooks, with key id, remote address and outcome, and every lockout after repeated wrong keys for this account. Only the calling account\'s own events.',
      query: AuditQuery, envelope: 'standard', success: { status: 200, description: 'A page of audit events', schema: pageOf(AuditEventView) }, errors: [400],
    },
    ({ principal, query }) => {
      let since: number | undefined;
      if (query.since !== undefined) {
        since = Date.parse(query.since);
        if (!Number.isFinite(since)) throw invalidRequest('since: must be an ISO 8601 date-time');
      }
      return deps.audit.list(principal.accountId, query.limit ?? 50, query.cursor, {
        ...(query.resourceId !== undefined ? { resourceId: query.resourceId } : {}),
        ...(since !== undefined ? { since } : {}),
      });
    },
  );
  registerAccountRead(registry, {
    path: '/v1/settings/retention', operationId: 'getRetention', tags, summary: "The account's retention period", schema: Retention, answer: 'Retention in days',
  }, (accountId) => deps.audit.getRetentionDays(accountId));
  registry.add(
    {
      method: 'put', path: '/v1/settings/retention', operationId: 'setRetention', tags, summary: "Set the account's retention period",
      description: 'A background sweep deletes notes, transcriptions and their audio once they are older than this many days.',
      body: RetentionBody, envelope: 'standard', success: { status: 200, description: 'Retention in days', schema: Retention }, errors: [400, 415],
    },
    ({ principal, body }) => deps.audit.setRetentionDays(principal.accountId, body.days),
  );
}
