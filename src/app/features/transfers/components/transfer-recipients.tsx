import { Badge } from '../../../components/badge';
import { formatDateTime, formatRelativeTime } from '../../../lib/format';
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

export function TransferRecipients({ recipients }: { recipients: Recipient[] }) {
  return (
    <Section title="Recipients">
      {recipients.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Nobody was emailed: this transfer is shared by its link only.</p>
      ) : (
        <div className={stackedTable.wrapper} tabIndex={0} role="group" aria-label="Recipients (scrolls sideways)">
          <table className={stackedTable.table('sm:min-w-[32rem]')}>
            <thead className={stackedTable.head}>
              <tr>
                <th scope="col" className={`${th} pl-5`}>Email</th>
                <th scope="col" className={th}>Notified</th>
                <th scope="col" className={th}>Downloaded</th>
                <th scope="col" className={`${th} pr-5`}>Bounced</th>
              </tr>
            </thead>
            <tbody className={stackedTable.body}>
              {recipients.map((recipient) => (
                <tr key={recipient.id} className={stackedTable.row}>
                  <th scope="row" className={stackedTable.rowHeader}>
                    {recipient.email}
                  </th>
                  <td data-label="Notified" className={td}>{recipient.notifiedAt ? <When iso={recipient.notifiedAt} /> : 'Not yet'}</td>
                  <td data-label="Downloaded" className={td}>{recipient.downloaded ? <Badge tone="success">Downloaded</Badge> : 'Not yet'}</td>
                  <td data-label="Bounced" className={`${td} ${stackedTable.lastCell}`}>
                    {recipient.bouncedAt ? (
                      <span className="inline-flex flex-wrap items-center gap-1.5">
                        <Badge tone="warning">{recipient.bounceKind ? `Bounced (${recipient.bounceKind})` : 'Bounced'}</Badge>
                        <When iso={recipient.bouncedAt} />
                      </span>
                    ) : (
                      'No'
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
