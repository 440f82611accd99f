import type { RouteRegistry } from '../route-registry.js';
import type { ExtractionService } from '../../services/extraction/index.js';
import type { MacroService } from '../../services/macros/index.js';
import { MacroBody, MacroResult, TextToJsonBody, TextToJsonResult } from '../schemas.js';
import { textWork } from './text-work.js';

/** Text-to-JSON extraction and macro detection: synchronous utilities answering `{data}`. */
export function registerUtilityRoutes(registry: RouteRegistry, deps: { extraction: ExtractionService; macros: MacroService }): void {
  registry.add(
    {
      ...textWork(TextToJsonBody), path: '/v1/utils/text-to-json', operationId: 'textToJson', tags: ['Utilities'],
      summary: 'Extract JSON conforming to a JSON Schema from unstructured text',
      description: 'Every 200 answer validates against the supplied schema. Unsupported keywords or unsatisfiable schemas are a 400 naming the problem. ' +
        'The reading runs in a worker thread under the server\'s work budget (CLINDOC_WORK_BUDGET_MS, default 30 s; time waiting on a language model not counted): past it the work is stopped and the answer is a 422 naming the budget.',
      envelope: 'raw',
      success: { status: 200, description: '`data` conforms to the schema; `engine` names who read the text; `review` lists what the check removed or marked in a language model\'s answer', schema: TextToJsonResult },
    },
    ({ principal, body }) => deps.extraction.extractChecked(body.text, body.schema, principal.accountId),
  );
  registry.add(
    {
      ...textWork(MacroBody), path: '/v1/macros/detect', operationId: 'detectAndExpandMacros', tags: ['Macros'],
      summary: 'Detect macros in text and expand them',
      description: 'Runs in a worker thread under the server\'s work budget (CLINDOC_WORK_BUDGET_MS): past it, a 422 naming the budget.',
      envelope: 'data-only', success: { status: 200, description: 'Detections and the expanded text', schema: MacroResult },
    },
    ({ body }) => deps.macros.detect(body),
  );
}
