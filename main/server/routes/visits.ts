import type { RouteRegistry } from '../route-registry.js';
import type { VisitService } from '../../services/visits/visit-service.js';
import { IdParam, pageOf } from '../schemas.js';
import { VisitBody, VisitListQuery, VisitSummary, VisitView } from '../../../shared/api/visits.js';
import { ifMatchVersion, setEtag } from '../preconditions.js';

const IfMatch = {
  name: 'If-Match', in: 'header', required: true, schema: { type: 'string' },
  description: 'The visit\'s current version, as the ETag of the last read gives it (e.g. `"3"`). Stale: 412 (changed in another window); missing: 428.',
} as const;

/** Visits (extension): one patient encounter and everything documented for it. */
export function registerVisitRoutes(registry: RouteRegistry, deps: { visits: VisitService }): void {
  const tags = ['Visits'];
  registry.add(
    {
      method: 'post', path: '/v1/visits', operationId: 'createVisit', tags, summary: 'Start a visit',
      description: 'Every field is optional. Linked notes and transcriptions must be the account\'s own. The content is encrypted at rest.',
      body: VisitBody, envelope: 'standard', success: { status: 201, description: 'The new visit', schema: VisitView, etag: true }, errors: [400, 413, 415],
    },
    async ({ principal, body, res }) => {
      const visit = await deps.visits.create(principal.accountId, body);
      setEtag(res, visit.version);
      return visit;
    },
  );
  registry.add(
    {
      method: 'get', path: '/v1/visits', operationId: 'listVisits', tags, summary: "List the account's visits, newest first",
      description: 'Today\'s visits come first (newest first by start). With `q`, only visits whose patient name, dictation or transcript contain every word ' +
        '(any case and accents); with `dateOfBirth`, only visits of a patient born that day. Each visit names its newest note\'s status (draft, signed, amended) and time. ' +
        'Search opens the account\'s own encrypted visits and matches in memory: no search index holds patient data.',
      query: VisitListQuery, envelope: 'standard', success: { status: 200, description: 'A page of visits', schema: pageOf(VisitSummary) }, errors: [400],
    },
    ({ principal, query }) => deps.visits.list(principal.accountId, { limit: query.limit ?? 20, ...(query.cursor ? { cursor: query.cursor } : {}), ...(query.q ? { q: query.q } : {}),
      ...(query.dateOfBirth ? { dateOfBirth: query.dateOfBirth } : {}) }),
  );
  registry.add(
    {
      method: 'get', path: '/v1/visits/:visitId', operationId: 'getVisit', tags, summary: 'Get a visit',
      params: IdParam('visitId'), envelope: 'standard', success: { status: 200, description: 'The visit', schema: VisitView, etag: true }, errors: [404],
    },
    async ({ principal, params, res }) => {
      const visit = await deps.visits.get(principal.accountId, params.visitId);
      setEtag(res, visit.version);
      return visit;
    },
  );
  registry.add(
    {
      method: 'patch', path: '/v1/visits/:visitId', operationId: 'updateVisit', tags, summary: 'Change a visit (autosave)',
      description: 'Each field sent replaces that field whole; fields not sent are kept. If-Match must name the current version: a change made ' +
        'in another window meanwhile is a 412, never silently overwritten. A signed note stays in its visit: `notes` that leave one out are a 409.',
      params: IdParam('visitId'), headers: [IfMatch], body: VisitBody, envelope: 'standard',
      success: { status: 200, description: 'The visit after the change', schema: VisitView, etag: true }, errors: [400, 404, 409, 412, 413, 415, 428],
    },
    async ({ principal, params, body, req, res }) => {
      const visit = await deps.visits.update(principal.accountId, params.visitId, body, ifMatchVersion(req, true));
      setEtag(res, visit.version);
      return visit;
    },
  );
  registry.add(
    {
      method: 'delete', path: '/v1/visits/:visitId', operationId: 'deleteVisit', tags, summary: 'Delete a visit',
      description: 'Deletes the visit record. The notes and transcriptions it links to are kept (a signed note is part of the record); delete them on their own.',
      params: IdParam('visitId'), envelope: 'delete', success: { status: 200, description: 'Deleted' }, errors: [404],
    },
    ({ principal, params }) => deps.visits.delete(principal.accountId, params.visitId),
  );
}
