import { formatDateTime, formatRelativeTime } from '../lib/format';
import { useIntl } from '../lib/intl';

/** "3 minutes ago", with the exact date and time on hover; `fallback` (by default "never") when there is no time. */
export function RelativeTime({ iso, fallback }: { iso: string | null; fallback?: string }) {
  const intl = useIntl();
  if (!iso) return <>{fallback ?? intl.formatMessage({ id: 'time.never', defaultMessage: 'never' })}</>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelativeTime(iso)}
    </time>
  );
}
