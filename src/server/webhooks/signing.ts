import { createHmac } from 'node:crypto';
import { randomBase62 } from '../core/secrets.js';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** 43 base62 characters: about 256 bits, like an API key. */
export const newWebhookSecret = () => `${WEBHOOK_SECRET_PREFIX}${randomBase62(43)}`;

/**
 * `Service-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the
 * endpoint secret as given to the integrator (the whole string, prefix included).
 */
export function signatureHeader(secret: string, body: string, at: Date): string {
  const t = Math.floor(at.getTime() / 1000);
  const v1 = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return `t=${t},v1=${v1}`;
}
