import type { RouteRegistry } from '../route-registry.js';
import { requireOneSource, type CodingService } from '../../services/coding/coding-service.js';
import { CodingAnalysisView, CodingAnalyzeBody } from '../../../shared/api/coding.js';

/** Coding analysis: ICD-10-CM and office E/M suggestions with evidence. */
export function registerCodingRoutes(registry: RouteRegistry, deps: { coding: CodingService }): void {
  registry.add(
    {
      method: 'post', path: '/v1/coding/analyze', operationId: 'analyzeCoding', tags: ['Coding'],
      summary: 'Suggest ICD-10-CM and CPT (office E/M) codes for a text or a stored note',
      description:
        'Synchronous (200) for a text and for a finished note. Only billable ICD-10-CM codes are suggested, shown with the dot, each naming its edition. ' +
        'Negated, ruled-out and uncertain findings are never coded; history and family history become Z codes where the text supports them. ' +
        'CPT: the office E/M level from documented medical decision making or total time, by code number; no HCPCS Level II table is bundled. ' +
        'The analysis runs in a worker thread under the server\'s work budget (CLINDOC_WORK_BUDGET_MS): past it, a 422 naming the budget.',
      body: CodingAnalyzeBody, envelope: 'standard',
      success: { status: 200, description: 'Suggested codes', schema: CodingAnalysisView },
      errors: [400, 404, 409, 413, 415, 422, 503],
    },
    ({ principal, body }) => {
      requireOneSource(body as { text?: unknown; noteId?: unknown });
      const { text, noteId } = body as { text?: string; noteId?: string };
      return noteId !== undefined ? deps.coding.analyzeNote(principal.accountId, noteId) : deps.coding.analyzeText(text!);
    },
  );
}
