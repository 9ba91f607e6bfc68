import type { OutboxMessageSummary } from '../../../../contract/mail';
import { Badge } from '../../../components/badge';
import { formatDateTime, formatRelativeTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { describeMailTag } from '../utils/mail-tags';

interface OutboxMessageListProps {
  messages: OutboxMessageSummary[];
  selectedId: string | null;
  onSelect: (message: OutboxMessageSummary) => void;
}

/** One button per message, in the server's order (newest first); the chosen one is marked current. */
export function OutboxMessageList({ messages, selectedId, onSelect }: OutboxMessageListProps) {
  const intl = useIntl();
  return (
    <ul
      aria-label={intl.formatMessage({ id: 'outbox.list.label', defaultMessage: 'Messages' })}
      className="divide-y divide-zinc-200 overflow-hidden rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900"
    >
      {messages.map((message) => (
        <li key={message.id}>
          <button
            type="button"
            aria-current={message.id === selectedId ? 'true' : undefined}
            onClick={() => onSelect(message)}
            className="flex w-full flex-col gap-1.5 px-4 py-3 text-start hover:bg-zinc-50 focus-visible:-outline-offset-2 aria-[current=true]:bg-indigo-50 dark:hover:bg-zinc-800/60 dark:aria-[current=true]:bg-indigo-950"
          >
            <span className="flex items-baseline justify-between gap-3">
              <span className="min-w-0 font-medium break-words">{message.subject || intl.formatMessage({ id: 'outbox.list.noSubject', defaultMessage: '(no subject)' })}</span>
              <time
                dateTime={message.createdAt}
                title={formatDateTime(message.createdAt)}
                className="shrink-0 text-xs text-zinc-600 dark:text-zinc-400"
              >
                {formatRelativeTime(message.createdAt)}
              </time>
            </span>
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-zinc-600 dark:text-zinc-400">
              <span className="min-w-0 break-all">
                {intl.formatMessage({ id: 'outbox.list.to', defaultMessage: 'To {address}' }, { address: <bdi key="address">{message.to}</bdi> })}
              </span>
              <Badge>{describeMailTag(message.tag, intl)}</Badge>
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
