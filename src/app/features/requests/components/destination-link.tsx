import { Link } from '@tanstack/react-router';
import { useIntl } from '../../../lib/intl';

/**
 * The collection a request sends its files to, linking to it; said plainly once it was deleted
 * (which closed the request). Without the collection's title (the free plan cannot read
 * collections, or the list is still loading), the link says what it opens.
 */
export function DestinationLink({ collectionId, title, className = '' }: { collectionId: string | null; title: string | undefined; className?: string }) {
  const intl = useIntl();
  if (collectionId === null)
    return (
      <span className="text-zinc-600 italic dark:text-zinc-400">
        {intl.formatMessage({ id: 'requests.destinationLink.deleted', defaultMessage: 'Collection deleted' })}
      </span>
    );
  return (
    <Link
      to="/collections/$collectionId"
      params={{ collectionId }}
      className={`font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-400 ${className}`}
    >
      {title ?? intl.formatMessage({ id: 'requests.destinationLink.open', defaultMessage: 'Open the collection' })}
    </Link>
  );
}
