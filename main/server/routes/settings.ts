import { Type } from '@sinclair/typebox';
import type { RouteRegistry } from '../route-registry.js';
import type { EngineSettingsService } from '../../services/transcriptions/engine-settings.js';

const EngineSettings = Type.Object({
  asrEngine: Type.String({ description: 'Recogniser used for uploads that do not name an `engine`.' }),
  source: Type.String({ enum: ['account', 'default'], description: '`default` when the account follows CLINDOC_ASR_ENGINE.' }),
  available: Type.Array(Type.String(), { description: 'Recognisers configured on this device (pocketsphinx, onnx-ctc, onnx-whisper, openai-compatible).' }),
});
const EngineSettingsBody = Type.Object({
  asrEngine: Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Null()], { description: 'One of `available`; null returns to the device default.' }),
});

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
    ({ principal, body }) => deps.engines.set(principal.accountId, (body as { asrEngine: string | null }).asrEngine),
  );
}
