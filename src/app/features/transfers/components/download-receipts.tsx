import { formatDateTime, formatRelativeTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import type { Download } from '../api/get-transfer-downloads';
import { groupVisits } from '../utils/group-visits';
import { Section } from '../../../components/section';

/** The receipts as a timeline: one entry per visit (who, when), listing what was fetched in it. */
export function DownloadReceipts({ downloads, totalDownloads }: { downloads: Download[]; totalDownloads: number }) {
  const intl = useIntl();
  const visits = groupVisits(downloads);
  return (
    <Section
      title={intl.formatMessage({ id: 'transfers.receipts.title', defaultMessage: 'Downloads' })}
      description={
        visits.length === 0
          ? undefined
          : intl.formatMessage(
              {
                id: 'transfers.receipts.summary',
                defaultMessage:
                  '{visits, plural, one {# visit} other {# visits}}, {downloads, plural, one {# file or zip download} other {# file and zip downloads}} started.',
              },
              { visits: visits.length, downloads: totalDownloads },
            )
      }
    >
      {visits.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'transfers.receipts.none', defaultMessage: 'Nobody has downloaded anything yet.' })}
        </p>
      ) : (
        <ol
          aria-label={intl.formatMessage({ id: 'transfers.receipts.visitsLabel', defaultMessage: 'Visits, newest first' })}
          className="relative space-y-6 border-s border-zinc-200 ps-6 dark:border-zinc-800"
        >
          {visits.map((visit) => (
            <li key={visit.sessionId} className="relative">
              <span aria-hidden="true" className="absolute top-1.5 -start-[1.90rem] size-3 rounded-full border-2 border-white bg-indigo-500 dark:border-zinc-900" />
              <h3 className="text-sm font-semibold break-all">
                {visit.recipientEmail ?? intl.formatMessage({ id: 'transfers.receipts.anonymous', defaultMessage: 'Someone with the link' })}
              </h3>
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                {intl.formatMessage(
                  { id: 'transfers.receipts.started', defaultMessage: 'Started {when}' },
                  {
                    when: (
                      <time key="when" dateTime={visit.startedAt} title={formatDateTime(visit.startedAt)}>
                        {formatRelativeTime(visit.startedAt)}
                      </time>
                    ),
                  },
                )}
              </p>
              <ul className="mt-2 space-y-1 text-sm">
                {visit.downloads.map((download) => (
                  <li key={download.id} className="flex flex-wrap items-baseline gap-x-2">
                    <span className="font-medium break-all">
                      {download.fileName ?? intl.formatMessage({ id: 'transfers.receipts.allFiles', defaultMessage: 'All files (zip)' })}
                    </span>
                    <span className="text-zinc-600 dark:text-zinc-400">
                      {download.completedAt ? (
                        intl.formatMessage(
                          { id: 'transfers.receipts.completed', defaultMessage: 'completed {when}' },
                          {
                            when: (
                              <time key="when" dateTime={download.completedAt} title={formatDateTime(download.completedAt)}>
                                {formatRelativeTime(download.completedAt)}
                              </time>
                            ),
                          },
                        )
                      ) : (
                        <span className="text-amber-700 dark:text-amber-400">
                          {intl.formatMessage({ id: 'transfers.receipts.stopped', defaultMessage: 'stopped partway' })}
                        </span>
                      )}
                    </span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
