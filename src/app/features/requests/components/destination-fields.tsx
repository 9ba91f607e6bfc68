import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Ref } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { SelectField } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import { collectionsQueryOptions, foldersQueryOptions } from '../../collections';

interface DestinationFieldsProps {
  collectionId: string;
  /** '' for the collection's top level. */
  folderId: string;
  onCollectionChange: (collectionId: string) => void;
  onFolderChange: (folderId: string) => void;
  collectionError: string | undefined;
  folderError: string | undefined;
  collectionRef: Ref<HTMLSelectElement>;
  folderRef: Ref<HTMLSelectElement>;
}

/** "Shoot/Day 1" → "Shoot / Day 1": the whole path, so two folders of one name are told apart. */
const folderLabel = (path: string) => path.split('/').join(' / ');

/** Where submissions go: one of the workspace's collections, and a folder of it (or its top level). */
export function DestinationFields({
  collectionId,
  folderId,
  onCollectionChange,
  onFolderChange,
  collectionError,
  folderError,
  collectionRef,
  folderRef,
}: DestinationFieldsProps) {
  const intl = useIntl();
  const collectionLabel = intl.formatMessage({ id: 'requests.destination.collection', defaultMessage: 'Collection' });
  const collections = useQuery(collectionsQueryOptions());
  const folders = useQuery({ ...foldersQueryOptions(collectionId), enabled: collectionId !== '' });

  if (collections.isError) {
    return (
      <div className="space-y-2">
        <p className="text-sm font-medium text-zinc-800 dark:text-zinc-200">{collectionLabel}</p>
        <FormError error={collections.error} />
        <Button variant="secondary" onClick={() => void collections.refetch()}>
          {intl.formatMessage({ id: 'requests.destination.retry', defaultMessage: 'Try again' })}
        </Button>
      </div>
    );
  }

  if (collections.data?.length === 0) {
    return (
      <div className="rounded-md border border-dashed border-zinc-300 p-4 text-sm dark:border-zinc-700">
        <p className="font-medium">{collectionLabel}</p>
        <p className="mt-1 text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage(
            {
              id: 'requests.destination.noCollections',
              defaultMessage: 'Files sent through a request land in one of your collections, and there are none yet. <link>Create a collection first</link>.',
            },
            {
              link: (chunks) => (
                <Link key="link" to="/collections" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-400">
                  {chunks}
                </Link>
              ),
            },
          )}
        </p>
        {collectionError ? <p className="mt-1 text-sm text-red-700 dark:text-red-400">{collectionError}</p> : null}
      </div>
    );
  }

  return (
    <div className="grid gap-5 sm:grid-cols-2">
      <SelectField
        ref={collectionRef}
        label={collectionLabel}
        value={collectionId}
        error={collectionError}
        disabled={collections.isPending}
        onChange={(event) => onCollectionChange(event.target.value)}
      >
        {collections.isPending ? (
          <option value={collectionId}>{intl.formatMessage({ id: 'requests.destination.loadingCollections', defaultMessage: 'Loading collections…' })}</option>
        ) : (
          <>
            <option value="" disabled>
              {intl.formatMessage({ id: 'requests.destination.chooseCollection', defaultMessage: 'Choose a collection' })}
            </option>
            {collections.data.map((collection) => (
              <option key={collection.id} value={collection.id}>
                {collection.title}
              </option>
            ))}
          </>
        )}
      </SelectField>
      <SelectField
        ref={folderRef}
        label={intl.formatMessage({ id: 'requests.destination.folder', defaultMessage: 'Folder' })}
        value={folderId}
        error={
          folderError ??
          (folders.isError
            ? intl.formatMessage({ id: 'requests.destination.foldersUnreadable', defaultMessage: 'The folders could not be read: submissions go to the top level.' })
            : undefined)
        }
        hint={intl.formatMessage({
          id: 'requests.destination.folderHint',
          defaultMessage: 'Each submission gets its own folder in here, named after the uploader and the date.',
        })}
        disabled={collectionId === '' || folders.isPending}
        onChange={(event) => onFolderChange(event.target.value)}
      >
        {collectionId !== '' && folders.isPending ? (
          <option value={folderId}>{intl.formatMessage({ id: 'requests.destination.loadingFolders', defaultMessage: 'Loading folders…' })}</option>
        ) : (
          <>
            <option value="">{intl.formatMessage({ id: 'requests.destination.topLevel', defaultMessage: 'Top level of the collection' })}</option>
            {(folders.data ?? []).map((folder) => (
              <option key={folder.id} value={folder.id}>
                {folderLabel(folder.path)}
              </option>
            ))}
          </>
        )}
      </SelectField>
    </div>
  );
}
