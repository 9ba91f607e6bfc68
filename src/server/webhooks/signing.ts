import { createHmac } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { seal, unseal } from '../auth/sealing.js';
import { randomBase62 } from '../core/secrets.js';
import type { Database } from '../db/connection.js';
import { webhookEndpoints } from '../db/schema/index.js';

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

/**
 * Signing secrets must be read back to sign, so they cannot be hashed; they are sealed at rest
 * (AES-256-GCM under a key derived from SERVER_SECRET, or the database's own sealing secret), bound
 * to their endpoint, so a database copy alone cannot sign deliveries. `v1.` tells a sealed value
 * from a plain one (`whsec_…`, before sealing existed), which `.` never appears in.
 */
const SEALED_PREFIX = 'v1.';

export const sealSigningSecret = (key: Buffer, endpointId: string, secret: string) => `${SEALED_PREFIX}${seal(key, secret, `webhook-secret\n${endpointId}`)}`;

/** The secret to sign with, or null when it was sealed under another key (SERVER_SECRET changed) or altered. */
export function openSigningSecret(key: Buffer, endpointId: string, stored: string): string | null {
  if (stored.startsWith(WEBHOOK_SECRET_PREFIX)) return stored;
  if (!stored.startsWith(SEALED_PREFIX)) return null;
  return unseal(key, stored.slice(SEALED_PREFIX.length), `webhook-secret\n${endpointId}`);
}

/** Seals the secrets stored in plain text before sealing existed; run at start by every instance, a no-op once done. */
export async function sealPlainSigningSecrets(db: Database, key: Buffer): Promise<number> {
  const plain = await db
    .select({ id: webhookEndpoints.id, secret: webhookEndpoints.signingSecret })
    .from(webhookEndpoints)
    .where(sql`${webhookEndpoints.signingSecret} LIKE ${`${WEBHOOK_SECRET_PREFIX}%`}`);
  for (const row of plain) {
    // Only if still plain: a rotation meanwhile wrote a sealed one.
    await db.execute(
      sql`UPDATE ${webhookEndpoints} SET signing_secret = ${sealSigningSecret(key, row.id, row.secret)} WHERE id = ${row.id} AND signing_secret = ${row.secret}`,
    );
  }
  return plain.length;
}
