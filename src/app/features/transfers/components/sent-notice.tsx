import { Link } from '@tanstack/react-router';
import type { Transfer } from '../../../../contract/transfers';
import { buttonClass } from '../../../components/button';
import { CopyField } from '../../../components/copy-field';
import { formatDateTime, plural } from '../../../lib/format';

/**
 * Shown on a transfer's page right after it was sent from the dashboard: the sender lands here,
 * where the link, its QR code and the recipients stay after a refresh.
 */
export function SentNotice({ transfer }: { transfer: Transfer }) {
  const emailed = transfer.recipients.length;
  // Recipients are mailed once the last URL import lands, not at sending.
  const importing = transfer.files.some((f) => f.state === 'importing');
  return (
    <section
      aria-labelledby="sent-heading"
      className="mb-6 flex flex-wrap items-center justify-between gap-4 rounded-lg border border-emerald-300 bg-emerald-50 p-4 dark:border-emerald-800 dark:bg-emerald-950/50"
    >
      <div>
        <h2 id="sent-heading" className="font-semibold text-emerald-900 dark:text-emerald-100">
          Your transfer is on its way
        </h2>
        <p className="mt-1 text-sm text-emerald-900 dark:text-emerald-100">
          {emailed === 0
            ? 'Nobody was emailed: share the link yourself.'
            : importing
              ? `${plural(emailed, 'recipient is', 'recipients are')} emailed a link as soon as the files imported from URLs arrive.`
              : `${plural(emailed, 'recipient was', 'recipients were')} emailed a link.`}{' '}
          The link works until {formatDateTime(transfer.expiresAt)}.
        </p>
      </div>
      <Link to="/transfers/new" className={buttonClass('secondary')}>
        Send another
      </Link>
      {/* The link first, where a phone shows it without scrolling past the details. */}
      <CopyField label="Link to share" value={transfer.url} className="w-full" />
    </section>
  );
}
