import { and, eq, sql } from 'drizzle-orm';
import { WEBHOOK_PAUSE_AFTER_EXHAUSTED } from '../../contract/webhook-events.js';
import { newId } from '../core/secrets.js';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../db/schema/index.js';
import { renderEmail } from '../mail/html.js';
import { mailIntl, mailLocale } from '../mail/intl.js';
import { ownerAddress } from '../mail/workspace-mail.js';
import { safeRequest } from '../net/safe-request.js';
import type { Services } from '../services.js';
import { openSigningSecret, signatureHeader } from './signing.js';

/**
 * Push delivery. Every attempt is a database row claimed with FOR UPDATE SKIP LOCKED and held by
 * a lease (the delivery time-out plus a margin): any number of dispatchers can run, and when one
 * dies mid-delivery the lease runs out and another sends it again. At least once, never lost.
 */
type DispatchServices = Pick<Services, 'db' | 'clock' | 'config' | 'log' | 'mailer' | 'outbound' | 'webhookSecretKey'>;

const LEASE_MARGIN_SECONDS = 5;
const RESPONSE_BODY_KEPT = 2048;

const UNREADABLE_SECRET = 'Not sent: the signing secret could not be read (the server\'s SERVER_SECRET changed since it was made). Rotate the secret.';

export const PAUSE_REASON = `Paused automatically: ${WEBHOOK_PAUSE_AFTER_EXHAUSTED} deliveries in a row failed every attempt. Fix the receiver, then resume the endpoint.`;

interface Claimed {
  id: string;
  /** Redelivery requests seen when claimed; more than zero makes this attempt a manual one that answers all of them. */
  redeliveries: number;
  eventId: string;
  eventType: string;
  body: string;
  url: string;
  endpointId: string;
  /** The signing secret as stored: sealed (see signing.ts), opened only to sign. */
  storedSecret: string;
}

/**
 * Claims up to `limit` deliveries that are due now (or whose redelivery was requested), with
 * everything needed to send them.
 */
export async function claimDueDeliveries(services: Pick<Services, 'db' | 'clock' | 'config'>, limit: number): Promise<Claimed[]> {
  const now = services.clock.now();
  const leaseUntil = new Date(now.getTime() + (services.config.WEBHOOK_TIMEOUT_SECONDS + LEASE_MARGIN_SECONDS) * 1000);
  const result = await services.db.execute<{
    id: string;
    redelivery_requests: number;
    event_id: string;
    event_type: string;
    body: string;
    url: string;
    endpoint_id: string;
    signing_secret: string;
  }>(sql`
    UPDATE ${webhookDeliveries} AS d SET lease_until = ${leaseUntil}
    FROM (
      SELECT d2.id, e.id AS endpoint_id, e.url, e.signing_secret FROM ${webhookDeliveries} AS d2 JOIN ${webhookEndpoints} AS e ON e.id = d2.endpoint_id
      WHERE d2.mode = 'push'
        AND (d2.lease_until IS NULL OR d2.lease_until <= ${now})
        AND (d2.redelivery_requests > 0 OR (d2.status = 'pending' AND d2.next_attempt_at <= ${now} AND (e.enabled OR d2.force)))
      ORDER BY d2.next_attempt_at ASC NULLS FIRST
      LIMIT ${limit}
      FOR UPDATE OF d2 SKIP LOCKED
    ) AS due
    WHERE d.id = due.id
    RETURNING d.id, d.redelivery_requests, d.event_id, d.event_type, d.body, due.url, due.endpoint_id, due.signing_secret`);
  return result.rows.map((r) => ({
    id: r.id,
    redeliveries: Number(r.redelivery_requests),
    eventId: r.event_id,
    eventType: r.event_type,
    body: r.body,
    url: r.url,
    endpointId: r.endpoint_id,
    storedSecret: r.signing_secret,
  }));
}

/** One HTTP attempt of a claimed delivery, then its outcome recorded. */
export async function attemptDelivery(services: DispatchServices, claimed: Claimed): Promise<void> {
  const { config } = services;
  const secret = openSigningSecret(services.webhookSecretKey, claimed.endpointId, claimed.storedSecret);
  if (secret === null) {
    // Nothing is sent unsigned or wrongly signed; the attempt fails where the owner sees it, and retries follow the schedule.
    services.log.error({ deliveryId: claimed.id, endpointId: claimed.endpointId }, 'webhook signing secret cannot be opened; was SERVER_SECRET changed?');
    await recordAttempt(services, claimed, { success: false, statusCode: null, error: UNREADABLE_SECRET, durationMs: 0, responseBody: null });
    return;
  }
  const sentAt = services.clock.now();
  const response = await safeRequest(
    claimed.url,
    {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Parcel-Webhooks/1.0',
        'service-event-id': claimed.eventId,
        'service-event-type': claimed.eventType,
        'service-delivery-id': claimed.id,
        'service-signature': signatureHeader(secret, claimed.body, sentAt),
      },
      body: claimed.body,
      timeoutMs: config.WEBHOOK_TIMEOUT_SECONDS * 1000,
      allowInsecure: config.WEBHOOKS_ALLOW_INSECURE,
      maxResponseBytes: RESPONSE_BODY_KEPT,
    },
    services.outbound,
  );
  const outcome: AttemptOutcome = response.ok
    ? {
        success: response.status >= 200 && response.status < 300,
        statusCode: response.status,
        error: response.status >= 200 && response.status < 300 ? null : `The receiver answered HTTP ${response.status}.`,
        durationMs: response.durationMs,
        responseBody: response.bodyText,
      }
    : { success: false, statusCode: response.status ?? null, error: response.message, durationMs: response.durationMs, responseBody: null };
  await recordAttempt(services, claimed, outcome);
}

interface AttemptOutcome {
  success: boolean;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  responseBody: string | null;
}

/**
 * Writes the attempt and moves the delivery on: success ends it; a failed scheduled attempt
 * schedules the next retry, or, with the retries used up, fails the delivery and counts towards
 * pausing the endpoint. A redelivery never changes the schedule or the count, except by succeeding.
 */
export async function recordAttempt(services: DispatchServices, claimed: Claimed, outcome: AttemptOutcome): Promise<void> {
  const { db, config } = services;
  const now = services.clock.now();
  const delays = config.WEBHOOK_RETRY_DELAYS;
  const paused = await db.transaction(async (tx) => {
    const [d] = await tx.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, claimed.id)).for('update');
    if (!d) return null;
    const manual = claimed.redeliveries > 0;
    const scheduled = manual ? d.scheduledAttempts : d.scheduledAttempts + 1;
    let status = d.status;
    let nextAttemptAt = d.nextAttemptAt;
    let exhausted = false;
    if (outcome.success) {
      status = 'succeeded';
      nextAttemptAt = null;
    } else if (!manual) {
      const delay = delays[scheduled - 1];
      if (delay !== undefined) {
        nextAttemptAt = new Date(now.getTime() + delay * 1000);
      } else {
        status = 'failed';
        nextAttemptAt = null;
        exhausted = true;
      }
    }
    await tx
      .update(webhookDeliveries)
      .set({
        status,
        nextAttemptAt,
        attempts: d.attempts + 1,
        scheduledAttempts: scheduled,
        leaseUntil: null,
        // Only the requests this attempt answered: one made while it was on the wire still stands.
        ...(manual ? { redeliveryRequests: sql`greatest(${webhookDeliveries.redeliveryRequests} - ${claimed.redeliveries}, 0)` } : { force: false }),
      })
      .where(eq(webhookDeliveries.id, d.id));
    await tx.insert(webhookAttempts).values({
      id: newId('wha'),
      deliveryId: d.id,
      endpointId: d.endpointId,
      attempt: d.attempts + 1,
      manual,
      attemptedAt: now,
      success: outcome.success,
      statusCode: outcome.statusCode,
      error: outcome.error,
      durationMs: Math.max(0, Math.round(outcome.durationMs)),
      nextRetryAt: status === 'pending' && !outcome.success ? nextAttemptAt : null,
      responseBody: outcome.responseBody,
    });
    if (outcome.success) {
      await tx.update(webhookEndpoints).set({ lastSuccessAt: now, exhaustedInRow: 0 }).where(eq(webhookEndpoints.id, d.endpointId));
      return null;
    }
    const [ep] = await tx
      .update(webhookEndpoints)
      .set({ lastFailureAt: now, ...(exhausted ? { exhaustedInRow: sql`${webhookEndpoints.exhaustedInRow} + 1` } : {}) })
      .where(eq(webhookEndpoints.id, d.endpointId))
      .returning();
    if (!ep || !exhausted || ep.exhaustedInRow < WEBHOOK_PAUSE_AFTER_EXHAUSTED) return null;
    // Only the transition from enabled pauses and mails: one email per pause.
    const [pausedNow] = await tx
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: PAUSE_REASON, updatedAt: now })
      .where(and(eq(webhookEndpoints.id, ep.id), eq(webhookEndpoints.enabled, true)))
      .returning();
    return pausedNow ?? null;
  });
  if (paused) await emailPaused(services, paused);
}

/** Tells the workspace's owner, in their language, that an endpoint was paused. */
async function emailPaused(services: DispatchServices, ep: typeof webhookEndpoints.$inferSelect) {
  const owner = await ownerAddress(services, ep.workspaceId);
  if (!owner) return;
  const locale = mailLocale(owner.locale);
  const intl = mailIntl(locale);
  const values = { count: WEBHOOK_PAUSE_AFTER_EXHAUSTED, url: ep.url ?? '', description: ep.description ?? '' };
  const described = Boolean(ep.description);
  const failed =
    ep.url !== null
      ? described
        ? intl.formatMessage(
            {
              id: 'mail.webhookPaused.failedDescribed',
              defaultMessage: '{count, plural, one {# delivery} other {# deliveries}} in a row to {url} ({description}) failed every attempt, so we paused the endpoint and stopped sending it new events.',
              description: 'url: the endpoint\'s address; description: what the workspace wrote about the endpoint',
            },
            values,
          )
        : intl.formatMessage(
            {
              id: 'mail.webhookPaused.failed',
              defaultMessage: '{count, plural, one {# delivery} other {# deliveries}} in a row to {url} failed every attempt, so we paused the endpoint and stopped sending it new events.',
              description: 'url: the endpoint\'s address',
            },
            values,
          )
      : described
        ? intl.formatMessage(
            {
              id: 'mail.webhookPaused.pullFailedDescribed',
              defaultMessage: '{count, plural, one {# delivery} other {# deliveries}} in a row to your pull endpoint ({description}) failed every attempt, so we paused the endpoint and stopped sending it new events.',
              description: 'A pull endpoint has no address: the workspace fetches its events; description: what the workspace wrote about the endpoint',
            },
            values,
          )
        : intl.formatMessage(
            {
              id: 'mail.webhookPaused.pullFailed',
              defaultMessage: '{count, plural, one {# delivery} other {# deliveries}} in a row to your pull endpoint failed every attempt, so we paused the endpoint and stopped sending it new events.',
              description: 'A pull endpoint has no address: the workspace fetches its events',
            },
            values,
          );
  const heading = intl.formatMessage({ id: 'mail.webhookPaused.heading', defaultMessage: 'A webhook endpoint was paused' });
  const content = renderEmail({
    locale,
    heading,
    paragraphs: [
      failed,
      intl.formatMessage({
        id: 'mail.webhookPaused.resume',
        defaultMessage: 'Check that the receiver answers with a 2xx status within 10 seconds, then resume the endpoint in the dashboard. Failed deliveries can be sent again from the endpoint’s delivery list.',
      }),
    ],
    action: { label: intl.formatMessage({ id: 'mail.webhookPaused.action', defaultMessage: 'Open webhooks' }), url: `${services.config.PUBLIC_URL}/webhooks` },
  });
  const result = await services.mailer.send({
    to: owner.email,
    subject: heading,
    text: content.text,
    html: content.html,
    tag: 'webhook.paused',
    workspaceId: ep.workspaceId,
  });
  if (result.status !== 'sent') services.log.warn({ endpointId: ep.id, status: result.status }, 'webhook pause mail not sent');
}

/** Claims and sends everything due now, `concurrency` at a time, until nothing is due. Returns the attempts made. */
export async function deliverDueWebhooks(services: DispatchServices, options: { concurrency?: number; shouldStop?: () => boolean } = {}): Promise<number> {
  const concurrency = options.concurrency ?? services.config.WEBHOOK_CONCURRENCY;
  let total = 0;
  for (;;) {
    if (options.shouldStop?.()) return total;
    const batch = await claimDueDeliveries(services, concurrency);
    if (batch.length === 0) return total;
    await Promise.all(
      batch.map((c) =>
        attemptDelivery(services, c).catch((err) => services.log.error({ err, deliveryId: c.id }, 'webhook delivery attempt crashed')),
      ),
    );
    total += batch.length;
  }
}

export interface Dispatcher {
  stop(): Promise<void>;
}

/** The background loop: polls for due deliveries, sends them, and stops cleanly between attempts. */
export function startDispatcher(services: DispatchServices): Dispatcher {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const tick = () => {
    timer = null;
    if (stopped || running) return;
    running = deliverDueWebhooks(services, { shouldStop: () => stopped })
      .then(() => undefined)
      .catch((err) => services.log.error({ err }, 'webhook dispatcher pass failed'))
      .finally(() => {
        running = null;
        if (!stopped) timer = setTimeout(tick, services.config.WEBHOOK_POLL_INTERVAL_MS);
      });
  };
  timer = setTimeout(tick, 0);
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
