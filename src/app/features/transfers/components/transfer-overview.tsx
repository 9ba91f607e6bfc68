import type { ReactNode } from 'react';
import type { Transfer } from '../../../../contract/transfers';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { describeDownloads, describeExpiry, linkState } from '../utils/transfer-display';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="mt-0.5 text-sm font-medium break-words">{children}</dd>
    </div>
  );
}

function When({ iso, children }: { iso: string; children?: ReactNode }) {
  return <time dateTime={iso}>{children ?? formatDateTime(iso)}</time>;
}

export function TransferOverview({ transfer }: { transfer: Transfer }) {
  const intl = useIntl();
  const state = linkState(transfer);
  const muted = 'block text-xs font-normal text-zinc-600 dark:text-zinc-400';
  return (
    <dl aria-label={intl.formatMessage({ id: 'transfers.overview.label', defaultMessage: 'About this transfer' })} className="grid grid-cols-2 gap-4 rounded-lg border border-zinc-200 bg-white p-5 sm:grid-cols-3 lg:grid-cols-6 dark:border-zinc-800 dark:bg-zinc-900">
      <Fact term={intl.formatMessage({ id: 'transfers.overview.created', defaultMessage: 'Created' })}>
        <When iso={transfer.createdAt} />
      </Fact>
      <Fact term={intl.formatMessage({ id: 'transfers.overview.sent', defaultMessage: 'Sent' })}>
        {transfer.finalizedAt ? (
          <When iso={transfer.finalizedAt} />
        ) : transfer.sendRequestedAt ? (
          intl.formatMessage({ id: 'transfers.overview.sentWhenImported', defaultMessage: 'When its last URL import lands' })
        ) : (
          intl.formatMessage({ id: 'transfers.overview.notSent', defaultMessage: 'Not sent yet' })
        )}
      </Fact>
      {state === 'revoked' ? (
        <Fact term={intl.formatMessage({ id: 'transfers.overview.link', defaultMessage: 'Link' })}>
          {intl.formatMessage({ id: 'transfers.overview.revoked', defaultMessage: 'Revoked' })}
          <span className={muted}>{intl.formatMessage({ id: 'transfers.overview.revokedFilesDeleted', defaultMessage: 'Its files were deleted.' })}</span>
        </Fact>
      ) : state === 'infected' ? (
        <Fact term={intl.formatMessage({ id: 'transfers.overview.link', defaultMessage: 'Link' })}>
          {intl.formatMessage({ id: 'transfers.overview.blocked', defaultMessage: 'Blocked' })}
          <span className={muted}>
            {intl.formatMessage({ id: 'transfers.overview.malwareFilesDeleted', defaultMessage: 'A virus scan found malware in a file; every file was deleted.' })}
          </span>
        </Fact>
      ) : state === 'expired' ? (
        <Fact term={intl.formatMessage({ id: 'transfers.overview.expired', defaultMessage: 'Expired' })}>
          <When iso={transfer.expiresAt} />
          <span className={muted}>
            {intl.formatMessage(
              { id: 'transfers.overview.expiredFilesDeleted', defaultMessage: '{expiry}; its files were deleted' },
              { expiry: describeExpiry(transfer.expiresAt, intl) },
            )}
          </span>
        </Fact>
      ) : (
        <Fact term={intl.formatMessage({ id: 'transfers.overview.expires', defaultMessage: 'Expires' })}>
          <When iso={transfer.expiresAt} />
          <span className={muted}>{describeExpiry(transfer.expiresAt, intl)}</span>
        </Fact>
      )}
      <Fact term={intl.formatMessage({ id: 'transfers.overview.size', defaultMessage: 'Size' })}>
        {intl.formatMessage(
          { id: 'transfers.overview.sizeAndCount', defaultMessage: '{size}, {count, plural, one {# file} other {# files}}' },
          { size: formatBytes(transfer.sizeBytes), count: transfer.fileCount },
        )}
      </Fact>
      <Fact term={intl.formatMessage({ id: 'transfers.overview.downloads', defaultMessage: 'Downloads' })}>
        {describeDownloads(transfer, intl)}
        {state === 'limit_reached' ? <span className={muted}>{intl.formatMessage({ id: 'transfers.overview.limitReached', defaultMessage: 'limit reached' })}</span> : null}
      </Fact>
      <Fact term={intl.formatMessage({ id: 'transfers.overview.password', defaultMessage: 'Password' })}>
        {transfer.hasPassword
          ? intl.formatMessage({ id: 'transfers.overview.passwordRequired', defaultMessage: 'Required' })
          : intl.formatMessage({ id: 'transfers.overview.passwordNone', defaultMessage: 'None' })}
      </Fact>
      {transfer.message ? (
        <div className="col-span-full">
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'transfers.overview.message', defaultMessage: 'Message' })}</dt>
          <dd className="mt-0.5 text-sm whitespace-pre-line break-words">{transfer.message}</dd>
        </div>
      ) : null}
    </dl>
  );
}
