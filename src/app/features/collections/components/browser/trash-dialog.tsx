import { Fragment, useState, type ReactNode } from 'react';
import type { TrashItem } from '../../../../../contract/collections';
import { Button } from '../../../../components/button';
import { ConfirmDialog } from '../../../../components/confirm-dialog';
import { FormError } from '../../../../components/form-error';
import { ModalDialog } from '../../../../components/modal-dialog';
import { SEPARATOR } from '../../../../components/glyphs';
import { RelativeTime } from '../../../../components/relative-time';
import { formatBytes, formatDate } from '../../../../lib/format';
import { useIntl } from '../../../../lib/intl';
import { useDeleteFromTrash, useRestoreFromTrash, useTrash } from '../../api/trash';
import { FileIcon, fileKind } from '../../../recipient';
import { FolderIcon } from './item-visual';

/** The part of a button's words only screen readers hear (the name of what it acts on). */
const hidden = (chunks: ReactNode[]) => (
  <span key="hidden" className="sr-only">
    {chunks}
  </span>
);

/**
 * The collection's trash: what was deleted in the last 30 days, each item (a file, or a folder with everything that
 * was in it) restorable where it was, or deleted for good after a confirmation. Nothing in it is seen by guests.
 */
export function TrashDialog({ collectionId, onClose, onRestored }: { collectionId: string; onClose: () => void; onRestored: (message: string) => void }) {
  const intl = useIntl();
  const trash = useTrash(collectionId, true);
  const restore = useRestoreFromTrash(collectionId);
  const remove = useDeleteFromTrash(collectionId);
  const [forGood, setForGood] = useState<TrashItem | null>(null);
  const [failure, setFailure] = useState<{ id: string; error: unknown } | null>(null);
  const items = trash.data ?? [];

  /** What is known of a deleted item, one fact after the other: where it was, what it held, when it goes for good. */
  const facts = (item: TrashItem): ReactNode[] => [
    ...(item.path !== item.name
      ? [
          <span key="from" className="wrap-anywhere">
            {intl.formatMessage(
              { id: 'collections.trash.from', defaultMessage: 'From {path}' },
              { path: <bdi key="path">{item.path.slice(0, item.path.length - item.name.length - 1)}</bdi> },
            )}
          </span>,
        ]
      : []),
    ...(item.kind === 'folder'
      ? [intl.formatMessage({ id: 'collections.trash.files', defaultMessage: '{count, plural, one {# file} other {# files}}' }, { count: item.fileCount })]
      : []),
    formatBytes(item.sizeBytes),
    intl.formatMessage({ id: 'collections.trash.deleted', defaultMessage: 'Deleted {when}' }, { when: <RelativeTime key="when" iso={item.trashedAt} /> }),
    intl.formatMessage({ id: 'collections.trash.purgeOn', defaultMessage: 'Goes for good on {date}' }, { date: formatDate(item.purgeAt) }),
  ];

  return (
    <ModalDialog
      title={intl.formatMessage({ id: 'collections.trash.title', defaultMessage: 'Trash' })}
      description={intl.formatMessage({
        id: 'collections.trash.description',
        defaultMessage: 'Deleted files and folders stay here for 30 days, out of sight of guests and visitors, then go for good.',
      })}
      onClose={onClose}
      size="wide"
    >
      {trash.isPending ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'collections.trash.loading', defaultMessage: 'Loading the trash…' })}</p>
      ) : null}
      {trash.error ? <FormError error={trash.error} /> : null}
      {trash.isSuccess && items.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'collections.trash.empty', defaultMessage: 'The trash is empty.' })}</p>
      ) : null}
      {items.length > 0 ? (
        <ul aria-label={intl.formatMessage({ id: 'collections.trash.list', defaultMessage: 'Deleted items' })} className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {items.map((item) => (
            <li key={item.id} className="flex flex-wrap items-center gap-3 py-3">
              <span className="flex size-9 shrink-0 items-center justify-center [&>span]:size-9">
                {item.kind === 'folder' ? <FolderIcon /> : <FileIcon kind={fileKind(item.mimeType ?? '', item.name)} />}
              </span>
              {/* On a phone the buttons wrap under the text rather than squeeze it. */}
              <div className="min-w-0 flex-1 basis-52">
                <p className="font-medium wrap-anywhere">{item.name}</p>
                <p className="text-xs text-zinc-600 dark:text-zinc-400">
                  {facts(item).map((fact, index) => (
                    // The facts of one item, in a fixed order: their place is their key.
                    <Fragment key={index}>
                      {index > 0 ? SEPARATOR : null}
                      {fact}
                    </Fragment>
                  ))}
                </p>
                {failure?.id === item.id ? <FormError error={failure.error} className="mt-2" /> : null}
              </div>
              <div className="ms-12 flex gap-2 sm:ms-0">
                <Button
                  variant="secondary"
                  disabled={restore.isPending}
                  onClick={() => {
                    setFailure(null);
                    restore.mutate(item.id, {
                      onSuccess: () => onRestored(intl.formatMessage({ id: 'collections.trash.restored', defaultMessage: '“{name}” is back where it was.' }, { name: item.name })),
                      onError: (error) => setFailure({ id: item.id, error }),
                    });
                  }}
                >
                  {intl.formatMessage({ id: 'collections.trash.restore', defaultMessage: 'Restore<hidden> {name}</hidden>' }, { name: item.name, hidden })}
                </Button>
                <Button variant="danger" disabled={remove.isPending} onClick={() => setForGood(item)}>
                  {intl.formatMessage({ id: 'collections.trash.deleteForever', defaultMessage: 'Delete forever<hidden> {name}</hidden>' }, { name: item.name, hidden })}
                </Button>
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {forGood ? (
        <ConfirmDialog
          title={intl.formatMessage({ id: 'collections.trash.confirmTitle', defaultMessage: 'Delete “{name}” forever?' }, { name: forGood.name })}
          confirmLabel={intl.formatMessage({ id: 'collections.trash.confirm', defaultMessage: 'Delete forever' })}
          pendingLabel={intl.formatMessage({ id: 'collections.trash.deleting', defaultMessage: 'Deleting…' })}
          pending={remove.isPending}
          error={remove.error ? <FormError error={remove.error} /> : null}
          onCancel={() => {
            remove.reset();
            setForGood(null);
          }}
          onConfirm={() => remove.mutate(forGood.id, { onSuccess: () => setForGood(null) })}
        >
          {forGood.kind === 'folder'
            ? intl.formatMessage(
                {
                  id: 'collections.trash.confirmFolder',
                  defaultMessage: 'The folder and its {count, plural, one {# file} other {# files}} are deleted now, with their bytes. This cannot be undone.',
                },
                { count: forGood.fileCount },
              )
            : intl.formatMessage({ id: 'collections.trash.confirmFile', defaultMessage: 'The file is deleted now, with its bytes. This cannot be undone.' })}
        </ConfirmDialog>
      ) : null}
    </ModalDialog>
  );
}
