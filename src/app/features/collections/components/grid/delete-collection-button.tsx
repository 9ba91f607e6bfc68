import { useState } from 'react';
import { Button } from '../../../../components/button';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { FormError } from '../../../../components/form-error';
import { useIntl } from '../../../../lib/intl';
import { useDeleteCollection } from '../../api/delete-collection';

interface DeleteCollectionButtonProps {
  collectionId: string;
  title: string;
  /** Said in the confirmation when known, so nobody deletes 2,000 files thinking it was empty. */
  fileCount?: number;
  /** After the server confirmed: a page of the collection goes back to the list, the list moves focus. */
  onDeleted?: () => void;
  /** `compact` for a card's footer; `button` (the default) for a page header. */
  appearance?: 'button' | 'compact';
}

/** Deletes a collection after a confirmation that says what goes with it. */
export function DeleteCollectionButton({ collectionId, title, fileCount, onDeleted, appearance = 'button' }: DeleteCollectionButtonProps) {
  const intl = useIntl();
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteCollection(collectionId, {
    onDeleted: () => {
      setConfirming(false);
      onDeleted?.();
    },
  });
  const consequences =
    fileCount === undefined
      ? intl.formatMessage({
          id: 'collections.deleteCollection.consequences',
          defaultMessage: 'Its files, folders and guests are deleted for good, and its links stop working at once. This cannot be undone.',
        })
      : intl.formatMessage(
          {
            id: 'collections.deleteCollection.consequencesCounted',
            defaultMessage:
              '{count, plural, =0 {Its folders and guests are deleted for good, and its links stop working at once. This cannot be undone.} one {Its # file, folders and guests are deleted for good, and its links stop working at once. This cannot be undone.} other {Its # files, folders and guests are deleted for good, and its links stop working at once. This cannot be undone.}}',
          },
          { count: fileCount },
        );
  return (
    <>
      {appearance === 'compact' ? (
        <Button
          variant="ghost"
          aria-label={intl.formatMessage({ id: 'collections.deleteCollection.deleteNamed', defaultMessage: 'Delete {title}' }, { title })}
          // `!`: the ghost variant sets its own text colour, and utilities of one kind do not override by order.
          className="px-2 py-1 text-xs text-red-700! hover:bg-red-50! hover:text-red-800! dark:text-red-400! dark:hover:bg-red-950/60! dark:hover:text-red-300!"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
        >
          {intl.formatMessage({ id: 'collections.deleteCollection.delete', defaultMessage: 'Delete' })}
        </Button>
      ) : (
        <Button
          variant="secondary"
          className="text-red-700! dark:text-red-400!"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
        >
          {intl.formatMessage({ id: 'collections.deleteCollection.button', defaultMessage: 'Delete collection' })}
        </Button>
      )}
      {confirming ? (
        <ConfirmDialog
          title={intl.formatMessage({ id: 'collections.deleteCollection.title', defaultMessage: 'Delete “{title}”?' }, { title })}
          confirmLabel={intl.formatMessage({ id: 'collections.deleteCollection.confirm', defaultMessage: 'Delete collection' })}
          pendingLabel={intl.formatMessage({ id: 'collections.deleteCollection.deleting', defaultMessage: 'Deleting…' })}
          pending={remove.isPending}
          error={remove.error ? <FormError error={remove.error} /> : null}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirming(false)}
        >
          {consequences}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
