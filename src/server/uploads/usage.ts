import { sql } from 'drizzle-orm';
import type { Tx } from '../db/connection.js';
import { ApiError } from '../core/errors.js';
import type { Services } from '../services.js';
import { billingOff, monthKey } from '../workspaces/plan.js';
import { said } from '../core/sentences.js';


/**
 * API upload usage: bytes registered through the API count against the month's included volume;
 * past it, each GB costs UPLOAD_PRICE_EUR_PER_GB from prepaid credit. Checked and charged when
 * files are registered, before any byte is accepted: `402 out_of_credit` when credit cannot pay.
 * With `BILLING=off` the bytes are still counted (usage on /me) but never charged or refused.
 */
export async function chargeApiUpload(
  tx: Tx,
  services: Pick<Services, 'config'>,
  workspaceId: string,
  bytes: number,
  now: Date,
  { check = false }: { check?: boolean } = {},
): Promise<void> {
  // `check`: refuse even a call that declares no bytes (URL imports of unknown size) once the allowance is used up and no credit is left.
  if (bytes <= 0 && !check) return;
  const { config } = services;
  const month = monthKey(now);
  // Counts the bytes and locks the month's usage row, so concurrent registrations are charged one
  // after the other; a refusal below throws, and the caller's transaction takes the count back.
  const counted = Math.max(0, bytes);
  const [usage] = (
    await tx.execute<{ api_upload_bytes: string }>(sql`
      INSERT INTO monthly_usage (workspace_id, month, api_upload_bytes) VALUES (${workspaceId}, ${month}, ${counted})
      ON CONFLICT (workspace_id, month) DO UPDATE SET api_upload_bytes = monthly_usage.api_upload_bytes + ${counted}
      RETURNING api_upload_bytes`)
  ).rows;
  const used = Number(usage?.api_upload_bytes ?? 0) - counted;
  if (billingOff(config)) return;
  const included = config.FREE_UPLOAD_BYTES_PER_MONTH;
  const billableBytes = Math.max(0, used + bytes - included) - Math.max(0, used - included);
  if (bytes <= 0) {
    if (used < included) return;
    const credit = await tx.execute(sql`SELECT id FROM workspaces WHERE id = ${workspaceId} AND credit_micro_eur > 0`);
    if (credit.rows.length > 0) return;
    throw new ApiError('out_of_credit', said({ id: 'api.uploads.apiUploadUsagePast', defaultMessage: 'API upload usage is past the included amount and no prepaid credit is left for URL imports' }), {
      includedBytes: included,
      usedBytes: used,
      requestedBytes: 0,
      costEur: 0,
    });
  }
  if (billableBytes > 0) {
    const costMicroEur = Math.ceil((billableBytes * config.UPLOAD_PRICE_EUR_PER_GB * 1_000_000) / 1e9);
    const paid = await tx.execute(sql`
      UPDATE workspaces SET credit_micro_eur = credit_micro_eur - ${costMicroEur}
      WHERE id = ${workspaceId} AND credit_micro_eur >= ${costMicroEur} RETURNING id`);
    if (paid.rows.length === 0) {
      throw new ApiError('out_of_credit', said({ id: 'api.uploads.apiUploadUsagePast2', defaultMessage: 'API upload usage is past the included amount and the prepaid credit does not cover these files' }), {
        includedBytes: included,
        usedBytes: used,
        requestedBytes: bytes,
        costEur: costMicroEur / 1_000_000,
      });
    }
  }
}
