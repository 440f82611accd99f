import type { RouteRegistry } from '../route-registry.js';
import { EngineSettings, EngineSettingsBody } from '../schemas.js';
import { registerAccountRead } from './account-read.js';
import type { EngineSettingsService } from '../../services/transcriptions/engine-settings.js';
import { DomainError } from '../../services/errors.js';

/** What choosing engines does, and who may set up a server (OpenAPI). */
const CHOOSING_ENGINES =
  'Takes effect for the next live dictation, upload and note, without a restart; a live session already running keeps its engine until it ends. ' +
  'Uploads without an `engine` field use `asrEngine`; an upload\'s own `engine` wins. Only engines configured on this device and installed models ' +
  '(`/v1/models`) are accepted (400). A chosen model is loaded first: one that cannot load is refused with 503 and the reason, and the previous engine stays. ' +
  '`servers.notes` / `servers.speech` set up an OpenAI-compatible server for the account: each is tested with one real call before anything is saved ' +
  '(a server that answers an error, garbage or nothing is refused with 400 saying what happened: the caller should correct the address), then kept with its key sealed at rest and chosen as ' +
  '`account-server` for its task; a later change of address, model or key takes effect for the next note or recording. `onEngineFailure` says what ' +
  'happens when a chosen model or server fails: `embedded` (the embedded engine does the work, marked in generatedBy.fallbackFrom) or `fail`. ' +
  'Decision: setting up a server (`servers` with an address) needs the operator role (403 otherwise): Clindoc connects to whatever address is named, ' +
  'so on a clinic server any account could otherwise make it reach hosts on the clinic network. The desktop\'s local account is an operator; ' +
  'other accounts choose among the engines offered and may remove their own server (null).';

/** The account's engines (`GET/PUT /v1/settings/engines`). */
export function registerSettingsRoutes(registry: RouteRegistry, deps: { engines: EngineSettingsService; isOperator: (accountId: string) => Promise<boolean> }): void {
  const tags = ['Settings'];
  registerAccountRead(registry, {
    path: '/v1/settings/engines', operationId: 'getEngineSettings', tags, summary: "The account's speech recogniser and note engine", schema: EngineSettings, answer: 'Engine settings',
  }, (accountId) => deps.engines.get(accountId));
  registry.add(
    {
      method: 'put', path: '/v1/settings/engines', operationId: 'setEngineSettings', tags, summary: "Choose the account's speech recogniser and note engine",
      description: CHOOSING_ENGINES,
      body: EngineSettingsBody, envelope: 'standard', success: { status: 200, description: 'Engine settings', schema: EngineSettings }, errors: [400, 403, 415, 503],
    },
    async ({ principal, body }) => {
      const naming = Object.values(body.servers ?? {}).some((server) => server !== null && server !== undefined);
      if (naming && !(await deps.isOperator(principal.accountId))) {
        throw new DomainError('forbidden', 'servers: setting up a server Clindoc connects to needs the operator role; choose among the engines this installation offers');
      }
      return deps.engines.choose(principal.accountId, body);
    },
  );
}
