import { z } from '@hono/zod-openapi';

export const WebhookIdParams = z.object({
  id: z.string().min(1).max(64).openapi({ param: { name: 'id', in: 'path' }, description: 'Webhook endpoint id.', example: 'wh_5Yb2kQ8rN0xV3mT7cLp1' }),
});

export const WebhookDeliveryParams = WebhookIdParams.extend({
  deliveryId: z
    .string()
    .min(1)
    .max(64)
    .openapi({ param: { name: 'deliveryId', in: 'path' }, description: 'A delivery of this endpoint (`Service-Delivery-Id`).', example: 'whd_8sK2mQ0vX1tB7nRw3LzP' }),
});
