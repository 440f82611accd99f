import type { RouteRegistry } from '../route-registry.js';
import { EnginesStatus } from '../../../shared/api/models.js';
import type { EngineStatusService } from '../../services/engines/engine-status.js';

/** Which engine answers each task for the account, with measured quality and warnings (`GET /v1/engines`). */
export function registerEngineRoutes(registry: RouteRegistry, deps: { status: EngineStatusService }): void {
  registry.add(
    {
      method: 'get', path: '/v1/engines', operationId: 'getEngineStatus', tags: ['Settings'], summary: 'Which engine answers each task, and how good it is',
      description:
        'For dictation, transcription of uploads, notes, extraction and coding: the engine answering this account now (embedded, a downloaded model or a server), ' +
        'whether a model is in memory, the quality figures the repository\'s evaluation scripts measured for it (with date and machine), and warnings ' +
        '(for the embedded recogniser: how many words to expect wrong, and to install a speech model).',
      envelope: 'standard', success: { status: 200, description: 'Engine status by task', schema: EnginesStatus }, errors: [],
    },
    ({ principal }) => deps.status.status(principal.accountId),
  );
}
