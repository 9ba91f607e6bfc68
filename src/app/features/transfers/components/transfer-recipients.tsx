import { Badge } from '../../../components/badge';
import { formatDateTime, formatRelativeTime } from '../../../lib/format';
import type { Recipient } from '../api/get-transfer-downloads';
import { Section } from '../../../components/section';

const th = 'px-3 py-2 text-left text-xs font-medium tracking-wide text-zinc-600 uppercase dark:text-zinc-400';
const td = 'px-3 py-2 align-top';

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
        <div className="-mx-5 overflow-x-auto" tabIndex={0} role="group" aria-label="Recipients (scrolls sideways)">
          <table className="w-full min-w-[32rem] text-sm">
            <thead className="border-b border-zinc-200 dark:border-zinc-800">
              <tr>
                <th scope="col" className={`${th} pl-5`}>Email</th>
                <th scope="col" className={th}>Notified</th>
                <th scope="col" className={th}>Downloaded</th>
                <th scope="col" className={`${th} pr-5`}>Bounced</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-zinc-100 dark:divide-zinc-800">
              {recipients.map((recipient) => (
                <tr key={recipient.id}>
                  <th scope="row" className={`${td} pl-5 text-left font-medium break-all`}>
                    {recipient.email}
                  </th>
                  <td className={td}>{recipient.notifiedAt ? <When iso={recipient.notifiedAt} /> : 'Not yet'}</td>
                  <td className={td}>{recipient.downloaded ? <Badge tone="success">Downloaded</Badge> : 'Not yet'}</td>
                  <td className={`${td} pr-5`}>
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
