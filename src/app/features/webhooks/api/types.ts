import type { z } from 'zod';
import type {
  CreateWebhookRequestSchema,
  PullEventsResponseSchema,
  UpdateWebhookRequestSchema,
  WebhookDeliveryAttemptSchema,
  WebhookDeliveryListSchema,
  WebhookEndpointSchema,
  WebhookWithSecretSchema,
} from '../../../../contract/webhooks';

/** Types only: the schemas themselves (and zod) never reach the browser bundle. */
export type WebhookEndpoint = z.output<typeof WebhookEndpointSchema>;
export type CreateWebhookRequest = z.input<typeof CreateWebhookRequestSchema>;
export type UpdateWebhookRequest = z.input<typeof UpdateWebhookRequestSchema>;
export type WebhookWithSecret = z.output<typeof WebhookWithSecretSchema>;
export type WebhookDeliveryAttempt = z.output<typeof WebhookDeliveryAttemptSchema>;
export type WebhookDeliveryList = z.output<typeof WebhookDeliveryListSchema>;
export type PendingDelivery = WebhookDeliveryList['pending'][number];
export type PullEventsPage = z.output<typeof PullEventsResponseSchema>;
export type PulledEvent = PullEventsPage['events'][number];
