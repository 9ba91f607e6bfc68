import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId } from 'react';
import type { Folder, ListedCollectionFile } from '../../../../../contract/collections';
import { useImportStatuses, type ImportStatusResult, ImportRow } from '../../../imports';
import { useDeleteFiles } from '../../api/delete-files';
import { useIntl } from '../../../../lib/intl';
import { collectionKeys } from '../../api/query-keys';

interface CollectionImportsProps {
  collectionId: string;
  collectionTitle: string;
  folders: Folder[];
  files: ListedCollectionFile[];
}

/**
 * The collection's URL imports that are still running or failed, whatever folder they go into:
 * each with its progress, or why it failed and a way to remove it. The list of files is the
 * server's, so an import started in an earlier visit (or by the API) shows too. When one lands,
 * the listing is read again: the file becomes an ordinary one there and leaves this list.
 */
export function CollectionImports({ collectionId, collectionTitle, folders, files }: CollectionImportsProps) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const headingId = useId();
  const deleteFiles = useDeleteFiles(collectionId);
  const imports = files.filter((file) => file.state === 'importing' || file.state === 'failed');
  const statuses = useImportStatuses(imports.map((file) => file.id));

  // Files the listing still has as importing whose import has settled: the listing is behind.
  const landed = imports
    .filter((file) => file.state === 'importing' && statuses.get(file.id)?.status?.status !== undefined && statuses.get(file.id)?.status?.status !== 'importing')
    .map((file) => file.id)
    .join(' ');
  useEffect(() => {
    if (landed === '') return;
    for (const queryKey of [collectionKeys.files(collectionId), collectionKeys.folders(collectionId), collectionKeys.detail(collectionId), collectionKeys.list]) {
      void queryClient.invalidateQueries({ queryKey });
    }
  }, [landed, collectionId, queryClient]);

  const pathOf = new Map(folders.map((folder) => [folder.id, folder.path]));
  if (imports.length === 0) return null;
  return (
    <section aria-labelledby={headingId} className="mb-6 space-y-2">
      <h2 id={headingId} className="text-base font-semibold">
        {intl.formatMessage({ id: 'collections.imports.heading', defaultMessage: 'Imports' })}
      </h2>
      <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white px-4 dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
        {imports.map((file) => (
          <ImportRow
            key={file.id}
            name={file.name}
            place={intl.formatMessage(
              { id: 'collections.imports.into', defaultMessage: 'Into {place}' },
              { place: file.folderId === null ? collectionTitle : (pathOf.get(file.folderId) ?? collectionTitle) },
            )}
            query={statuses.get(file.id)?.status ? statuses.get(file.id)! : fromListing(file, statuses.get(file.id)?.error)}
            onRemove={() => deleteFiles.mutate([file.id])}
            removing={deleteFiles.isPending && deleteFiles.variables?.includes(file.id)}
            removeError={deleteFiles.variables?.includes(file.id) ? deleteFiles.error : null}
          />
        ))}
      </ul>
    </section>
  );
}

/** Until its status is in, a failed file says why from the listing alone (the listing has the same reason). */
function fromListing(file: ListedCollectionFile, error: unknown): ImportStatusResult {
  if (file.state !== 'failed') return { status: undefined, error };
  return {
    status: { fileId: file.id, name: file.name, size: file.sizeBytes, receivedBytes: 0, source: '', status: 'failed', ...(file.error ? { error: file.error } : {}) },
    error: null,
  };
}
