import type { IntlShape } from 'react-intl';
import { Badge } from '../../../components/badge';
import { formatDateTime, formatRelativeTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import type { Recipient } from '../api/get-transfer-downloads';
import { Section } from '../../../components/section';
import { stackedTable } from '../../../components/stacked-table';

const { headCell: th, cell: td } = stackedTable;

function When({ iso }: { iso: string }) {
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelativeTime(iso)}
    </time>
  );
}

/** "Bounced", and how (the server's `permanent`: the address refused the mail for good); another kind as it came. */
function bounceLabel(kind: Recipient['bounceKind'], intl: IntlShape): string {
  if (!kind) return intl.formatMessage({ id: 'transfers.recipients.bounced', defaultMessage: 'Bounced' });
  if (kind === 'permanent') return intl.formatMessage({ id: 'transfers.recipients.bouncedPermanent', defaultMessage: 'Bounced (permanent)' });
  return intl.formatMessage({ id: 'transfers.recipients.bouncedKind', defaultMessage: 'Bounced ({kind})' }, { kind });
}

export function TransferRecipients({ recipients }: { recipients: Recipient[] }) {
  const intl = useIntl();
  const columns = {
    email: intl.formatMessage({ id: 'transfers.recipients.column.email', defaultMessage: 'Email' }),
    notified: intl.formatMessage({ id: 'transfers.recipients.column.notified', defaultMessage: 'Notified' }),
    downloaded: intl.formatMessage({ id: 'transfers.recipients.column.downloaded', defaultMessage: 'Downloaded' }),
    bounced: intl.formatMessage({ id: 'transfers.recipients.column.bounced', defaultMessage: 'Bounced' }),
  };
  const notYet = intl.formatMessage({ id: 'transfers.recipients.notYet', defaultMessage: 'Not yet' });
  return (
    <Section title={intl.formatMessage({ id: 'transfers.recipients.title', defaultMessage: 'Recipients' })}>
      {recipients.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'transfers.recipients.none', defaultMessage: 'Nobody was emailed: this transfer is shared by its link only.' })}
        </p>
      ) : (
        <div
          className={stackedTable.wrapper}
          tabIndex={0}
          role="group"
          aria-label={intl.formatMessage({ id: 'transfers.recipients.tableLabel', defaultMessage: 'Recipients (scrolls sideways)' })}
        >
          <table className={stackedTable.table('sm:min-w-[32rem]')}>
            <thead className={stackedTable.head}>
              <tr>
                <th scope="col" className={`${th} ps-5`}>
                  {columns.email}
                </th>
                <th scope="col" className={th}>
                  {columns.notified}
                </th>
                <th scope="col" className={th}>
                  {columns.downloaded}
                </th>
                <th scope="col" className={`${th} pe-5`}>
                  {columns.bounced}
                </th>
              </tr>
            </thead>
            <tbody className={stackedTable.body}>
              {recipients.map((recipient) => (
                <tr key={recipient.id} className={stackedTable.row}>
                  <th scope="row" className={stackedTable.rowHeader}>
                    {recipient.email}
                  </th>
                  <td data-label={columns.notified} className={td}>
                    {recipient.notifiedAt ? <When iso={recipient.notifiedAt} /> : notYet}
                  </td>
                  <td data-label={columns.downloaded} className={td}>
                    {recipient.downloaded ? (
                      <Badge tone="success">{intl.formatMessage({ id: 'transfers.recipients.downloadedBadge', defaultMessage: 'Downloaded' })}</Badge>
                    ) : (
                      notYet
                    )}
                  </td>
                  <td data-label={columns.bounced} className={`${td} ${stackedTable.lastCell}`}>
                    {recipient.bouncedAt ? (
                      <span className="inline-flex flex-wrap items-center gap-1.5">
                        <Badge tone="warning">{bounceLabel(recipient.bounceKind, intl)}</Badge>
                        <When iso={recipient.bouncedAt} />
                      </span>
                    ) : (
                      intl.formatMessage({ id: 'transfers.recipients.notBounced', defaultMessage: 'No' })
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
