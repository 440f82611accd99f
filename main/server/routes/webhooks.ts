import type { RouteRegistry } from '../route-registry.js';
import type { WebhookService } from '../../services/webhooks/webhook-service.js';
import { IdParam, WebhookBody, WebhookView } from '../schemas.js';
import { Type } from '@sinclair/typebox';

/** Account webhooks (API-DECISIONS "Webhooks"). */
export function registerWebhookRoutes(registry: RouteRegistry, deps: { webhooks: WebhookService }): void {
  const tags = ['Webhooks'];
  registry.add(
    {
      method: 'post', path: '/v1/webhooks', operationId: 'createWebhook', tags, summary: 'Register a webhook',
      description:
        'Deliveries follow Standard Webhooks: headers webhook-id, webhook-timestamp, webhook-signature (v1, HMAC-SHA256 of "id.timestamp.body" with the base64 secret after "whsec_"). Retried with exponential backoff for more than 24 h; redirects are not followed. A per-request `webhookUrl` on an upload must be a registered webhook URL.',
      body: WebhookBody, envelope: 'standard', success: { status: 201, description: 'Registered; the secret is shown only now', schema: WebhookView },
      errors: [400, 415],
    },
    ({ principal, body }) => deps.webhooks.create(principal.accountId, body),
  );
  registry.add(
    {
      method: 'get', path: '/v1/webhooks', operationId: 'listWebhooks', tags, summary: "List the account's webhooks", envelope: 'standard',
      success: { status: 200, description: 'Webhooks (without secrets)', schema: Type.Array(WebhookView) }, errors: [],
    },
    ({ principal }) => deps.webhooks.list(principal.accountId),
  );
  registry.add(
    {
      method: 'delete', path: '/v1/webhooks/:webhookId', operationId: 'deleteWebhook', tags, summary: 'Delete a webhook',
      params: IdParam('webhookId'), envelope: 'delete', success: { status: 200, description: 'Deleted' }, errors: [404],
    },
    ({ principal, params }) => deps.webhooks.delete(principal.accountId, params.webhookId),
  );
}
