import PgBoss from 'pg-boss';
import type { Services } from '../services.js';
import { sweepAbandonedUploads, sweepOrphanedBytes } from '../files/stored.js';
import { sweepOldActivity } from '../activity/activity.js';
import { sweepExpiredCredentials } from '../jobs/maintenance.js';
import { retrySubmissionMails } from '../collections/requests/submission-mail.js';
import { sweepUnsentSubmissions } from '../collections/requests/submissions.js';
import { purgeExpiredTrash } from '../collections/trash.js';
import { sendReviewDigests } from '../collections/review.js';
import { retryDeferredNotifications, sendSettledTransfers } from '../transfers/send.js';
import { sweepTransfers } from '../transfers/end.js';
import { remindUnseenBeforeExpiry, retryDownloadNotifications } from '../transfers/sender-mail.js';
import { startThumbnailer } from '../thumbnails/thumbnails.js';
import { startDispatcher } from '../webhooks/dispatcher.js';
import { startImporter } from '../imports/importer.js';
import { startScanner } from '../scanning/scanner.js';
import { sweepWebhookDeliveries } from '../webhooks/retention.js';

/**
 * Background work on pg-boss in the application's own database: jobs are claimed with
 * FOR UPDATE SKIP LOCKED, so any number of workers (in-process or `npm run worker`) can run and a
 * crash loses nothing.
 */
export interface Worker {
  boss: PgBoss;
  stop(): Promise<void>;
}

const SWEEP = 'sweep-expired';
const TRANSFERS = 'sweep-transfers';

/**
 * Two workers starting at once on a new database both create pg-boss's queues, and PostgreSQL may
 * pick one of them as a deadlock victim (40P01): that one tries again rather than exiting.
 */
async function retryOnDeadlock<T>(step: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await step();
    } catch (err) {
      if ((err as { code?: string }).code !== '40P01' || attempt >= 5) throw err;
      await new Promise((resolve) => setTimeout(resolve, 100 * attempt + Math.random() * 200));
    }
  }
}

/** Every ten minutes: what has expired or been abandoned is forgotten. Exported for tools and tests, which run it on demand. */
export async function runMaintenanceSweep(services: Services): Promise<void> {
  const swept = await sweepExpiredCredentials(services);
  const webhookDeliveries = await sweepWebhookDeliveries(services.db, services.clock.now());
  const abandonedUploads = await sweepAbandonedUploads(services);
  const unsentSubmissions = await sweepUnsentSubmissions(services);
  const activityEntries = await sweepOldActivity(services);
  const trashedItems = await purgeExpiredTrash(services);
  const reviewDigests = await sendReviewDigests(services);
  // Last: whatever the sweeps above (or a crash) left in storage without a row.
  const orphanedBytes = await sweepOrphanedBytes(services);
  services.log.info(
    { swept, webhookDeliveries, abandonedUploads, unsentSubmissions, activityEntries, trashedItems, reviewDigests, orphanedBytes },
    'swept expired credentials, old webhook deliveries, abandoned uploads, unsent submissions, old activity, old trash and orphaned bytes; sent review digests',
  );
}

/** Every minute: expiry warnings and reminders, expiry, unsent drafts past 24 hours, mail deferred by a temporary failure. */
export async function runTransferSweep(services: Services): Promise<void> {
  const swept = await sweepTransfers(services);
  // Sent transfers whose last import settled in a process that died before sending them out.
  await sendSettledTransfers(services);
  await retryDeferredNotifications(services);
  await retryDownloadNotifications(services);
  await retrySubmissionMails(services);
  await remindUnseenBeforeExpiry(services);
  if (swept.expiring + swept.expired + swept.drafts + swept.purged > 0) services.log.info({ swept }, 'swept transfers');
}

export async function startWorker(services: Services, databaseUrl: string): Promise<Worker> {
  // Its own schema, 'jobs': pg-boss 10's tables. (The 'pgboss' schema of the 12.x line, which needs Node 22, is left as it was.)
  const boss = new PgBoss({ connectionString: databaseUrl, schema: 'jobs', max: 4 });
  boss.on('error', (err) => services.log.error({ err }, 'job queue error'));
  await retryOnDeadlock(() => boss.start());
  await retryOnDeadlock(() => boss.createQueue(SWEEP));
  await retryOnDeadlock(() => boss.schedule(SWEEP, '*/10 * * * *'));
  await boss.work(SWEEP, () => runMaintenanceSweep(services));
  // Every minute: expiry warnings and reminders, expiry, unsent drafts past 24 hours, mail deferred by a temporary failure.
  await retryOnDeadlock(() => boss.createQueue(TRANSFERS));
  await retryOnDeadlock(() => boss.schedule(TRANSFERS, '* * * * *'));
  await boss.work(TRANSFERS, () => runTransferSweep(services));
  // Webhook deliveries need seconds, not a minute's schedule: their own polling loop, on the same rows.
  const dispatcher = startDispatcher(services);
  // URL imports likewise: claimed rows held by a lease, so a crashed worker's imports are resumed by another.
  const importer = startImporter(services);
  // Virus scans (only with CLAMD_URL) likewise: leased rows, taken over when a worker dies.
  const scanner = startScanner(services);
  // Previews (thumbnails, posters, waveforms, first pages) likewise, one at a time.
  const thumbnailer = startThumbnailer(services);
  return {
    boss,
    stop: async () => {
      await thumbnailer.stop();
      await scanner?.stop();
      await importer.stop();
      await dispatcher.stop();
      await boss.stop({ graceful: true, timeout: 10_000 });
    },
  };
}
