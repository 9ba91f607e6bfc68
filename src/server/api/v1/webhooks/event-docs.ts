import { z, type OpenAPIHono } from '@hono/zod-openapi';
import { isPaidWebhookEvent, webhookEventDescriptions, webhookEventTypes } from '../../../../contract/webhook-events.js';
import { WebhookDeliveryHeadersSchema, webhookEventDataSchemas } from '../../../../contract/webhooks.js';
import type { AppEnv } from '../../../http/env.js';

/**
 * The OpenAPI 3.1 `webhooks` section: what a receiver gets for each event type, so integrators
 * can generate handlers from the same document as their API client.
 */
export function registerWebhookEventDocs(app: OpenAPIHono<AppEnv>) {
  for (const type of webhookEventTypes) {
    const envelope = z
      .object({
        id: z.string().openapi({ example: 'evt_3mQ8xK1vT7bN2cR9sLw4' }),
        type: z.literal(type),
        createdAt: z.iso.datetime().openapi({ description: 'When it happened; order events by it (delivery order is not guaranteed).' }),
        data: webhookEventDataSchemas[type],
      })
      .openapi(`Event_${type.replace('.', '_')}`);
    app.openAPIRegistry.registerWebhook({
      method: 'post',
      path: type,
      operationId: `event_${type.replace('.', '_')}`,
      tags: ['Webhook events'],
      summary: type,
      // The receiver authenticates the sender by Service-Signature, not by a credential of ours.
      security: [],
      description: `${webhookEventDescriptions[type]}${isPaidWebhookEvent(type) ? ' Paid plan.' : ''} Sent as a POST with \`Content-Type: application/json\` to push endpoints, or kept for pull endpoints (the same envelope, plus \`deliveryId\`).`,
      request: {
        headers: WebhookDeliveryHeadersSchema,
        body: { required: true, content: { 'application/json': { schema: envelope } } },
      },
      responses: {
        200: { description: 'Any 2xx within 10 seconds acknowledges the event. Anything else, a redirect or no complete answer in time is retried after 1, 5 and 30 minutes, then 2, 6, 12 and 24 hours.' },
      },
    });
  }
}
