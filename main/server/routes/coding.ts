import type { RouteRegistry } from '../route-registry.js';
import { requireOneSource, type CodingService } from '../../services/coding/coding-service.js';
import { DomainError } from '../../services/errors.js';
import type { VisitService } from '../../services/visits/visit-service.js';
import { CodingAnalysisView, CodingAnalyzeBody } from '../../../shared/api/coding.js';

/** Coding analysis: ICD-10-CM and office E/M suggestions with evidence, from a text, a note, a conversation or a visit. */
export function registerCodingRoutes(registry: RouteRegistry, deps: { coding: CodingService; visits?: Pick<VisitService, 'get'> }): void {
  registry.add(
    {
      method: 'post', path: '/v1/coding/analyze', operationId: 'analyzeCoding', tags: ['Coding'],
      summary: 'Suggest ICD-10-CM and CPT (office E/M) codes for a text, a stored note, a visit conversation or a visit',
      description:
        'Synchronous (200) for a text and for a finished note. Only billable ICD-10-CM codes are suggested, shown with the dot, each naming its edition. ' +
        'Negated, ruled-out and uncertain findings are never coded; history and family history become Z codes where the text supports them. ' +
        'A transcript (or a visit\'s transcript) is coded through the encounter understanding: only the problems it reads as confirmed, current and the patient\'s own. ' +
        'Every ICD-10-CM suggestion names the rule or convention that chose it (`rule`). ' +
        'CPT: the office E/M level from documented medical decision making or total time, by code number; no HCPCS Level II table is bundled. ' +
        'The analysis runs in a worker thread under the server\'s work budget (CLINDOC_WORK_BUDGET_MS): past it, a 422 naming the budget.',
      body: CodingAnalyzeBody, envelope: 'standard',
      success: { status: 200, description: 'Suggested codes', schema: CodingAnalysisView },
      errors: [400, 404, 409, 413, 415, 422, 503],
    },
    async ({ principal, body }) => {
      requireOneSource(body);
      const { text, noteId, transcript, visitId } = body;
      if (noteId !== undefined) return deps.coding.analyzeNote(principal.accountId, noteId);
      if (transcript !== undefined) return deps.coding.analyzeText(transcript, { source: 'transcript', accountId: principal.accountId });
      if (visitId !== undefined) {
        if (!deps.visits) throw new DomainError('conflict', 'visitId: this server keeps no visits');
        const visit = await deps.visits.get(principal.accountId, visitId);
        if (!visit.transcript.trim()) throw new DomainError('conflict', 'visitId: the visit has no transcript yet; code its note with noteId, or its text with text');
        return { ...(await deps.coding.analyzeText(visit.transcript, { source: 'transcript', accountId: principal.accountId })), visitId };
      }
      return deps.coding.analyzeText(text!, { accountId: principal.accountId });
    },
  );
}
