import { formatDateTime, formatRelativeTime } from '../lib/format';

/** "3 minutes ago", with the exact date and time on hover; `fallback` when there is no time. */
export function RelativeTime({ iso, fallback = 'never' }: { iso: string | null; fallback?: string }) {
  if (!iso) return <>{fallback}</>;
  return (
    <time dateTime={iso} title={formatDateTime(iso)}>
      {formatRelativeTime(iso)}
    </time>
  );
}
