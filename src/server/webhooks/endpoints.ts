import { and, count, eq } from 'drizzle-orm';
import { isPaidWebhookEvent, webhookEndpointLimits } from '../../contract/webhook-events.js';
import type { Database } from '../db/connection.js';
import { webhookEndpoints } from '../db/schema/index.js';
import { ApiError, invalidInput, notFound } from '../core/errors.js';
import { checkUrlForCreation } from '../net/safe-request.js';
import type { Services } from '../services.js';
import type { Plan } from '../workspaces/plan.js';
import { said } from '../core/sentences.js';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;

export function toWebhook(row: EndpointRow) {
  return {
    id: row.id,
    url: row.url,
    mode: row.url === null ? ('pull' as const) : ('push' as const),
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    lastFailureAt: row.lastFailureAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const webhookNotFound = () => notFound(said({ id: 'api.webhooks.webhookEndpointNotFound', defaultMessage: 'Webhook endpoint not found' }));

export async function loadEndpoint(db: Pick<Database, 'select'>, workspaceId: string, id: string): Promise<EndpointRow> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.workspaceId, workspaceId), eq(webhookEndpoints.id, id)));
  if (!row) throw webhookNotFound();
  return row;
}

/** `402 upgrade_required` for a free workspace subscribing to a paid event type. */
export function assertEventsAllowed(plan: Plan, events: readonly string[]): void {
  const paid = events.filter(isPaidWebhookEvent);
  if (plan !== 'paid' && paid.length > 0) {
    throw new ApiError('upgrade_required', said({ id: 'api.webhooks.paidEvents', defaultMessage: 'These events need a paid plan: {events}.', description: 'events: event types, comma-separated' }, { events: paid.join(', ') }), { reason: 'paid_event', events: paid });
  }
}

/**
 * The endpoint limit, counted under the caller's transaction (which holds the workspace row) so
 * that concurrent creates cannot pass it together. Free: `402` (upgrading lifts it); paid: `409`.
 */
export async function assertBelowEndpointLimit(tx: Pick<Database, 'select'>, workspaceId: string, plan: Plan): Promise<void> {
  const [row] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.workspaceId, workspaceId));
  const limit = webhookEndpointLimits[plan];
  if ((row?.n ?? 0) < limit) return;
  if (plan === 'free') {
    throw new ApiError('upgrade_required', said({ id: 'api.webhooks.freeEndpointLimit', defaultMessage: 'The free plan has {limit} webhook endpoint; a paid plan has up to {paidLimit}.' }, { limit: String(limit), paidLimit: String(webhookEndpointLimits.paid) }), {
      reason: 'endpoint_limit',
      limit,
    });
  }
  throw new ApiError('conflict', said({ id: 'api.webhooks.endpointLimit', defaultMessage: 'A workspace has at most {limit} webhook endpoints. Delete one first.' }, { limit: String(limit) }), { reason: 'endpoint_limit', limit });
}

/**
 * A clear error when a push URL is created or changed: https only (unless the development
 * setting allows http and loopback), no credentials, and no private, loopback, link-local or
 * reserved address, for a literal or for any address the name resolves to. Every delivery checks
 * again in the step that connects.
 */
export async function assertDeliverableUrl(services: Pick<Services, 'config' | 'outbound'>, url: string): Promise<string> {
  const checked = await checkUrlForCreation(url, { allowInsecure: services.config.WEBHOOKS_ALLOW_INSECURE, lookup: services.outbound?.lookup });
  if (checked.ok) return new URL(url).href;
  const reason = checked.reason === 'forbidden_address' || checked.reason === 'insecure_scheme' ? 'forbidden_url' : 'invalid_url';
  throw new ApiError('invalid_request', invalidInput('body', 'url', checked.message), {
    location: 'body',
    reason,
    fields: [{ path: 'url', message: checked.message }],
  });
}
