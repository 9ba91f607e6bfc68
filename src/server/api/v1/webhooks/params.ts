import { z } from '@hono/zod-openapi';
import { resourceIdParam } from '../../../../contract/ids.js';

export const WebhookIdParams = z.object({
  id: resourceIdParam('id', 'wh', 'Webhook endpoint id.', 'wh_5Yb2kQ8rN0xV3mT7cLp1'),
});

export const WebhookDeliveryParams = WebhookIdParams.extend({
  deliveryId: resourceIdParam('deliveryId', 'whd', 'A delivery of this endpoint (`Service-Delivery-Id`).', 'whd_8sK2mQ0vX1tB7nRw3LzP'),
});
