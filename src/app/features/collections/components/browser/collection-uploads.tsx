import { useQueryClient } from '@tanstack/react-query';
import { useState, type Ref } from 'react';
import type { Folder, ListedCollectionFile } from '../../../../../contract/collections';
import type { FileUploaderHandle } from '../../../../components/uploader/file-uploader';
import { UploadsPanel } from '../../../../components/uploader/uploads-panel';
import { useIntl } from '../../../../lib/intl';
import { UploadSession } from '../../../../lib/uploads/upload-session';
import { useDeleteFiles } from '../../api/delete-files';
import { collectionKeys } from '../../api/query-keys';
import { collectionRegistrar, collectionUploadsStorageKey } from '../../utils/collection-uploads';

interface CollectionUploadsProps {
  collectionId: string;
  /** The folder being viewed: files added now go there. */
  folderId: string | null;
  folders: Folder[];
  files: ListedCollectionFile[];
  ref?: Ref<FileUploaderHandle>;
}

/** Uploads into the collection (the shared panel), registered into the folder being viewed; the lists are read again as files arrive. */
export function CollectionUploads({ collectionId, folderId, folders, files, ref }: CollectionUploadsProps) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const [session] = useState(() => {
    // Registering files makes their folders and counts them (and their size) in the collection at once.
    const refreshTree = () =>
      Promise.all(
        [collectionKeys.files(collectionId), collectionKeys.folders(collectionId), collectionKeys.detail(collectionId), collectionKeys.list].map((queryKey) =>
          queryClient.invalidateQueries({ queryKey }),
        ),
      );
    const created = new UploadSession({
      storageKey: collectionUploadsStorageKey(collectionId),
      ownerId: collectionId,
      registrar: collectionRegistrar(collectionId, () => void refreshTree()),
    });
    const remembered = created.remembered();
    if (remembered?.ownerId === collectionId) created.resume(remembered);
    return created;
  });
  const deleteFiles = useDeleteFiles(collectionId);

  return (
    <UploadsPanel
      ref={ref}
      session={session}
      label={intl.formatMessage({ id: 'collections.uploads.label', defaultMessage: 'Files uploading to this collection' })}
      note={intl.formatMessage({ id: 'collections.uploads.note', defaultMessage: 'Files and whole folders go into the folder you are viewing.' })}
      folderId={folderId}
      folders={folders}
      serverFiles={files}
      onDiscard={(ids) => deleteFiles.mutate(ids)}
      onUploaded={() => {
        for (const queryKey of [collectionKeys.files(collectionId), collectionKeys.detail(collectionId), collectionKeys.list]) {
          void queryClient.invalidateQueries({ queryKey });
        }
      }}
    />
  );
}
