import type { RouteRegistry } from '../route-registry.js';
import { EngineSettings, EngineSettingsBody } from '../schemas.js';
import type { EngineSettingsService } from '../../services/transcriptions/engine-settings.js';

/** The account's default engines (`GET/PUT /v1/settings/engines`). */
export function registerSettingsRoutes(registry: RouteRegistry, deps: { engines: EngineSettingsService }): void {
  const tags = ['Settings'];
  registry.add(
    {
      method: 'get', path: '/v1/settings/engines', operationId: 'getEngineSettings', tags, summary: "The account's default speech recogniser",
      envelope: 'standard', success: { status: 200, description: 'Engine settings', schema: EngineSettings }, errors: [],
    },
    ({ principal }) => deps.engines.get(principal.accountId),
  );
  registry.add(
    {
      method: 'put', path: '/v1/settings/engines', operationId: 'setEngineSettings', tags, summary: "Set the account's default speech recogniser",
      description: 'Uploads without an `engine` field use this recogniser; an upload\'s own `engine` wins. Only engines configured on this device are accepted.',
      body: EngineSettingsBody, envelope: 'standard', success: { status: 200, description: 'Engine settings', schema: EngineSettings }, errors: [400, 415],
    },
    ({ principal, body }) => deps.engines.set(principal.accountId, (body as EngineSettingsBody).asrEngine),
  );
}
