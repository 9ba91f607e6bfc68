import { Link } from '@tanstack/react-router';
import type { CollectionSummary } from '../../../../../contract/collections';
import { RelativeTime } from '../../../../components/relative-time';
import { formatBytes, plural } from '../../../../lib/format';
import { VisibilityBadge } from '../sharing/visibility-options';
import { CollectionCover } from './collection-cover';
import { DeleteCollectionButton } from './delete-collection-button';
import { ShareCollectionButton } from './share-collection-button';

/**
 * One collection in the grid. The title's link stretches over the whole card (a click anywhere
 * opens it, one tab stop); Share and Delete sit above that layer with their own names.
 */
export function CollectionCard({ collection, onDeleted }: { collection: CollectionSummary; onDeleted: () => void }) {
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
            <span className="sr-only">Visibility: </span>
            <VisibilityBadge visibility={collection.visibility} />
          </span>
        </div>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{`${plural(collection.fileCount, 'file', 'files')} · ${formatBytes(collection.sizeBytes)}`}</p>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-x-2 gap-y-1 pt-2">
          <p className="text-xs text-zinc-600 dark:text-zinc-400">
            Updated <RelativeTime iso={collection.updatedAt} />
          </p>
          <div className="relative z-10 -mr-2 flex items-center gap-1">
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
