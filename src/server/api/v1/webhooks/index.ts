import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../http/env.js';
import { registerCreateWebhook } from './create.js';
import { registerDeleteWebhook } from './delete.js';
import { registerListWebhookDeliveries } from './deliveries.js';
import { registerWebhookEventDocs } from './event-docs.js';
import { registerListWebhookEvents } from './events.js';
import { registerGetWebhook } from './get.js';
import { registerListWebhooks } from './list.js';
import { registerRetryWebhookDelivery } from './retry.js';
import { registerRotateWebhookSecret } from './rotate-secret.js';
import { registerTestWebhook } from './test.js';
import { registerUpdateWebhook } from './update.js';

/** The Webhooks resource: push and pull endpoints, their deliveries and feeds. */
export function registerWebhooks(app: OpenAPIHono<AppEnv>) {
  registerListWebhooks(app);
  registerCreateWebhook(app);
  registerGetWebhook(app);
  registerUpdateWebhook(app);
  registerDeleteWebhook(app);
  registerRotateWebhookSecret(app);
  registerTestWebhook(app);
  registerListWebhookDeliveries(app);
  registerRetryWebhookDelivery(app);
  registerListWebhookEvents(app);
  registerWebhookEventDocs(app);
}
