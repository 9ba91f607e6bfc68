import { useCallback, useEffect, useRef, useState } from 'react';
import { useIntl } from '../../../../lib/intl';
import { useCollections } from '../../api/get-collections';
import { CollectionCard } from './collection-card';
import { NewCollectionButton } from './new-collection-button';

/**
 * Every collection as a card, most recently changed first; one column on a phone. A deleted
 * card takes its focused Delete button with it, so focus moves to the heading above the grid
 * (in an effect: after the confirmation dialog's own attempt to hand focus back).
 */
export function CollectionsGrid() {
  const intl = useIntl();
  const { data: collections } = useCollections();
  const heading = useRef<HTMLHeadingElement>(null);
  const [deletions, setDeletions] = useState(0);
  const onDeleted = useCallback(() => setDeletions((n) => n + 1), []);
  useEffect(() => {
    if (deletions > 0) heading.current?.focus();
  }, [deletions]);

  if (collections.length === 0) {
    return (
      <div className="rounded-lg border border-dashed border-zinc-300 px-6 py-12 text-center dark:border-zinc-700">
        <h2 ref={heading} tabIndex={-1} className="text-base font-semibold focus:outline-none">
          {intl.formatMessage({ id: 'collections.grid.emptyHeading', defaultMessage: 'No collections yet' })}
        </h2>
        <p className="mx-auto mt-2 max-w-md text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({
            id: 'collections.grid.emptyText',
            defaultMessage:
              'A collection is a set of files in folders that stays online: share it with anyone who has the link, behind a password, or only with the guests you invite.',
          })}
        </p>
        <div className="mt-6">
          <NewCollectionButton label={intl.formatMessage({ id: 'collections.grid.createFirst', defaultMessage: 'Create your first collection' })} />
        </div>
      </div>
    );
  }

  return (
    <section aria-labelledby="collections-count">
      <h2 id="collections-count" ref={heading} tabIndex={-1} className="mb-3 text-sm font-medium text-zinc-600 focus:outline-none dark:text-zinc-400">
        {intl.formatMessage({ id: 'collections.grid.count', defaultMessage: '{count, plural, one {# collection} other {# collections}}' }, { count: collections.length })}
      </h2>
      <ul className="grid grid-cols-1 gap-5 sm:grid-cols-2 lg:grid-cols-3">
        {collections.map((collection) => (
          <CollectionCard key={collection.id} collection={collection} onDeleted={onDeleted} />
        ))}
      </ul>
    </section>
  );
}
