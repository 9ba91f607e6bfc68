import { useState } from 'react';
import { Button } from '../../../../components/button';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { FormError } from '../../../../components/form-error';
import { plural } from '../../../../lib/format';
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
  const [confirming, setConfirming] = useState(false);
  const remove = useDeleteCollection(collectionId, {
    onDeleted: () => {
      setConfirming(false);
      onDeleted?.();
    },
  });
  const contents =
    fileCount === undefined
      ? 'Its files, folders and guests'
      : fileCount === 0
        ? 'Its folders and guests'
        : `Its ${plural(fileCount, 'file', 'files')}, folders and guests`;
  return (
    <>
      {appearance === 'compact' ? (
        <Button
          variant="ghost"
          aria-label={`Delete ${title}`}
          // `!`: the ghost variant sets its own text colour, and utilities of one kind do not override by order.
          className="px-2 py-1 text-xs text-red-700! hover:bg-red-50! hover:text-red-800! dark:text-red-400! dark:hover:bg-red-950/60! dark:hover:text-red-300!"
          onClick={() => {
            remove.reset();
            setConfirming(true);
          }}
        >
          Delete
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
          Delete collection
        </Button>
      )}
      {confirming ? (
        <ConfirmDialog
          title={`Delete “${title}”?`}
          confirmLabel="Delete collection"
          pendingLabel="Deleting…"
          pending={remove.isPending}
          error={remove.error ? <FormError error={remove.error} /> : null}
          onConfirm={() => remove.mutate()}
          onCancel={() => setConfirming(false)}
        >
          {contents} are deleted for good, and its links stop working at once. This cannot be undone.
        </ConfirmDialog>
      ) : null}
    </>
  );
}
