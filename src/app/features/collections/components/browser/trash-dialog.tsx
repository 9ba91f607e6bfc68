import { useState } from 'react';
import type { TrashItem } from '../../../../../contract/collections';
import { Button } from '../../../../components/button';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { FormError } from '../../../../components/form-error';
import { ModalDialog } from '../../../../components/modal-dialog';
import { RelativeTime } from '../../../../components/relative-time';
import { formatBytes, formatDate, plural } from '../../../../lib/format';
import { useDeleteFromTrash, useRestoreFromTrash, useTrash } from '../../api/trash';
import { FileIcon, fileKind } from '../../../recipient';
import { FolderIcon } from './item-visual';

/**
 * The collection's trash: what was deleted in the last 30 days, each item (a file, or a folder with everything that
 * was in it) restorable where it was, or deleted for good after a confirmation. Nothing in it is seen by guests.
 */
export function TrashDialog({ collectionId, onClose, onRestored }: { collectionId: string; onClose: () => void; onRestored: (message: string) => void }) {
  const trash = useTrash(collectionId, true);
  const restore = useRestoreFromTrash(collectionId);
  const remove = useDeleteFromTrash(collectionId);
  const [forGood, setForGood] = useState<TrashItem | null>(null);
  const [failure, setFailure] = useState<{ id: string; error: unknown } | null>(null);
  const items = trash.data ?? [];

  return (
    <ModalDialog title="Trash" description="Deleted files and folders stay here for 30 days, out of sight of guests and visitors, then go for good." onClose={onClose} size="wide">
      {trash.isPending ? <p className="text-sm text-zinc-600 dark:text-zinc-400">Loading the trash…</p> : null}
      {trash.error ? <FormError error={trash.error} /> : null}
      {trash.isSuccess && items.length === 0 ? <p className="text-sm text-zinc-600 dark:text-zinc-400">The trash is empty.</p> : null}
      {items.length > 0 ? (
        <ul aria-label="Deleted items" className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-3 py-3">
              <span className="flex size-9 shrink-0 items-center justify-center [&>span]:size-9">
                {item.kind === 'folder' ? <FolderIcon /> : <FileIcon kind={fileKind(item.mimeType ?? '', item.name)} />}
              </span>
              {/* On a phone the buttons wrap under the text rather than squeeze it. */}
              <div className="min-w-0 flex-1 basis-52">
                <p className="font-medium wrap-anywhere">{item.name}</p>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">
                  {item.path !== item.name ? <span className="wrap-anywhere">From {item.path.slice(0, item.path.length - item.name.length - 1)} · </span> : null}
                  {item.kind === 'folder' ? `${plural(item.fileCount, 'file', 'files')} · ` : ''}
                  {formatBytes(item.sizeBytes)} · Deleted <RelativeTime iso={item.trashedAt} /> · Goes for good on {formatDate(item.purgeAt)}
                </p>
                {failure?.id === item.id ? <FormError error={failure.error} className="mt-2" /> : null}
              </div>
              <div className="ml-12 flex gap-2 sm:ml-0">
                <Button
                  variant="secondary"
                  disabled={restore.isPending}
                  onClick={() => {
                    setFailure(null);
                    restore.mutate(item.id, {
                      onSuccess: () => onRestored(`“${item.name}” is back where it was.`),
                      onError: (error) => setFailure({ id: item.id, error }),
                    });
                  }}
                >
                  Restore<span className="sr-only"> {item.name}</span>
                </Button>
                <Button variant="danger" disabled={remove.isPending} onClick={() => setForGood(item)}>
                  Delete forever<span className="sr-only"> {item.name}</span>
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {forGood ? (
        <ConfirmDialog
          title={`Delete “${forGood.name}” forever?`}
          confirmLabel="Delete forever"
          pendingLabel="Deleting…"
          pending={remove.isPending}
          error={remove.error ? <FormError error={remove.error} /> : null}
          onCancel={() => {
            remove.reset();
            setForGood(null);
          }}
          onConfirm={() => remove.mutate(forGood.id, { onSuccess: () => setForGood(null) })}
        >
          {forGood.kind === 'folder' ? `The folder and its ${plural(forGood.fileCount, 'file', 'files')} are deleted now, with their bytes.` : 'The file is deleted now, with its bytes.'} This cannot be
          undone.
        </ConfirmDialog>
      ) : null}
    </ModalDialog>
  );
}
