import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { CollectionSummary } from '../../../../../contract/collections';
import { RelativeTime } from '../../../../components/relative-time';
import { formatBytes } from '../../../../lib/format';
import { useIntl } from '../../../../lib/intl';
import { VisibilityBadge } from '../sharing/visibility-options';
import { CollectionCover } from './collection-cover';
import { DeleteCollectionButton } from './delete-collection-button';
import { ShareCollectionButton } from './share-collection-button';

/** The part of the card's words only screen readers hear. */
const hidden = (chunks: ReactNode[]) => (
  <span key="hidden" className="sr-only">
    {chunks}
  </span>
);

/**
 * One collection in the grid. The title's link stretches over the whole card (a click anywhere
 * opens it, one tab stop); Share and Delete sit above that layer with their own names.
 */
export function CollectionCard({ collection, onDeleted }: { collection: CollectionSummary; onDeleted: () => void }) {
  const intl = useIntl();
  return (
    <li className="group relative flex flex-col overflow-hidden rounded-lg border border-zinc-200 bg-white shadow-xs transition-shadow hover:shadow-md has-[a:focus-visible]:outline-2 has-[a:focus-visible]:outline-offset-2 has-[a:focus-visible]:outline-indigo-600 dark:border-zinc-800 dark:bg-zinc-900 dark:has-[a:focus-visible]:outline-indigo-400">
      <CollectionCover collectionId={collection.id} coverUrl={collection.coverUrl} />
      <div className="flex flex-1 flex-col gap-1.5 p-4">
        <div className="flex items-start justify-between gap-3">
          <h3 className="line-clamp-2 min-w-0 text-base font-semibold break-words">
            <Link
              to="/collections/$collectionId"
              params={{ collectionId: collection.id }}
              className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-none"
            >
              {collection.title}
            </Link>
          </h3>
          <span className="shrink-0">
            {intl.formatMessage(
              { id: 'collections.card.visibility', defaultMessage: '<hidden>Visibility:</hidden> {badge}' },
              { hidden, badge: <VisibilityBadge key="badge" visibility={collection.visibility} /> },
            )}
          </span>
        </div>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage(
            { id: 'collections.card.summary', defaultMessage: '{count, plural, one {# file} other {# files}} · {size}' },
            { count: collection.fileCount, size: formatBytes(collection.sizeBytes) },
          )}
        </p>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-2 gap-y-1 pt-2">
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'collections.card.updated', defaultMessage: 'Updated {when}' }, { when: <RelativeTime key="when" iso={collection.updatedAt} /> })}
          </p>
          <div className="relative z-10 -me-2 flex items-center gap-1">
            <ShareCollectionButton collectionId={collection.id} title={collection.title} />
            <DeleteCollectionButton
              collectionId={collection.id}
              title={collection.title}
              fileCount={collection.fileCount}
              onDeleted={onDeleted}
              appearance="compact"
            />
          </div>
        </div>
      </div>
    </li>
  );
}
