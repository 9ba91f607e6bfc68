import { useMutation, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Button } from '../../../../components/button';
import { useIntl } from '../../../../lib/intl';
import { collectionQueryOptions } from '../../api/get-collection';
import { ShareCollectionDialog } from '../sharing/share-dialog';

/**
 * Opens the share dialog from a card. The list has only summaries, so the collection is read
 * first (the button says so meanwhile) and the dialog opens on a complete one.
 */
export function ShareCollectionButton({ collectionId, title }: { collectionId: string; title: string }) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const load = useMutation({
    mutationFn: () => queryClient.fetchQuery(collectionQueryOptions(collectionId)),
    onSuccess: () => setOpen(true),
  });
  return (
    <>
      <Button
        variant="ghost"
        aria-label={intl.formatMessage({ id: 'collections.card.shareNamed', defaultMessage: 'Share {title}' }, { title })}
        className="px-2 py-1 text-xs"
        // Not disabled while loading: a disabled button loses focus, and the dialog hands focus back to whatever had it.
        aria-busy={load.isPending || undefined}
        onClick={() => {
          if (!load.isPending) load.mutate();
        }}
      >
        {load.isPending
          ? intl.formatMessage({ id: 'collections.card.opening', defaultMessage: 'Opening…' })
          : intl.formatMessage({ id: 'collections.card.share', defaultMessage: 'Share' })}
      </Button>
      {load.error ? (
        <span role="alert" className="text-xs text-red-700 dark:text-red-400">
          {load.error instanceof Error
            ? load.error.message
            : intl.formatMessage({ id: 'collections.card.shareFailed', defaultMessage: 'Could not open the sharing settings.' })}
        </span>
      ) : null}
      {open ? <CachedShareDialog collectionId={collectionId} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function CachedShareDialog({ collectionId, onClose }: { collectionId: string; onClose: () => void }) {
  const { data: collection } = useSuspenseQuery(collectionQueryOptions(collectionId));
  return <ShareCollectionDialog collection={collection} open onClose={onClose} />;
}
