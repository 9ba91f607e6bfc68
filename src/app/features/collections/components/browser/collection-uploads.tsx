import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type Ref } from 'react';
import type { Folder, ListedCollectionFile } from '../../../../../contract/collections';
import { Button } from '../../../../components/button';
import { FormError } from '../../../../components/form-error';
import { FileUploader, noUploads, type FileUploaderHandle, type UploaderState } from '../../../../components/uploader/file-uploader';
import { UploadStatus } from '../../../../components/uploader/upload-status';
import { formatBytes } from '../../../../lib/format';
import { UploadSession } from '../../../../lib/uploads/upload-session';
import { useDeleteFiles } from '../../api/delete-files';
import { collectionKeys } from '../../api/query-keys';
import { collectionRegistrar, collectionUploadsStorageKey, destinationOf, folderIdOf } from '../../utils/collection-uploads';

/** Finished files come in bursts (a dropped folder): the list is read again at most this often. */
const REFRESH_AFTER_UPLOAD_MS = 800;

interface CollectionUploadsProps {
  collectionId: string;
  /** The folder being viewed: files added now go there. */
  folderId: string | null;
  folders: Folder[];
  files: ListedCollectionFile[];
  ref?: Ref<FileUploaderHandle>;
}

/**
 * Uploads into the collection, with the same uploader as transfers: per-file and total progress,
 * pause, resume, retry, tokens renewed. Shown while it holds files (or has some to resume); files
 * come from the page's drop zone and Upload buttons, or its own "Add more". Uploads interrupted by
 * closing the tab are listed, and continue when the same files are added again in the same folder.
 */
export function CollectionUploads({ collectionId, folderId, folders, files, ref }: CollectionUploadsProps) {
  const queryClient = useQueryClient();
  const headingId = useId();
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
  const [uploader, setUploader] = useState<UploaderState>(noUploads);
  const [registrationError, setRegistrationError] = useState<unknown>(null);
  const deleteFiles = useDeleteFiles(collectionId);

  const refreshTimer = useRef<number | null>(null);
  useEffect(
    () => () => {
      if (refreshTimer.current !== null) window.clearTimeout(refreshTimer.current);
    },
    [],
  );
  const refreshSoon = () => {
    if (refreshTimer.current !== null) return;
    refreshTimer.current = window.setTimeout(() => {
      refreshTimer.current = null;
      for (const queryKey of [collectionKeys.files(collectionId), collectionKeys.detail(collectionId), collectionKeys.list]) {
        void queryClient.invalidateQueries({ queryKey });
      }
    }, REFRESH_AFTER_UPLOAD_MS);
  };

  // What an earlier visit left unfinished, as the server still has it: finished or deleted since, it is forgotten.
  const stateOnServer = new Map(files.map((f) => [f.id, f.state]));
  const earlier = session.filesNotIn(uploader.keys);
  const resumable = earlier.filter((f) => stateOnServer.get(f.fileId) === 'uploading');
  const settled = earlier.filter((f) => stateOnServer.get(f.fileId) !== 'uploading');
  useEffect(() => {
    for (const file of settled) session.forgetFile(file.key);
  });
  const folderPaths = new Map(folders.map((f) => [f.id, f.path]));
  const placeOf = (file: (typeof resumable)[number]) => {
    const folder = folderIdOf(file.destination);
    return [folder === null ? null : (folderPaths.get(folder) ?? null), file.path].filter(Boolean).join('/');
  };

  const discardEarlier = () => {
    const ids = resumable.map((f) => f.fileId);
    for (const file of resumable) session.forgetFile(file.key);
    deleteFiles.mutate(ids);
  };

  const hidden = uploader.fileCount === 0 && resumable.length === 0 && !registrationError;
  return (
    <section aria-labelledby={headingId} hidden={hidden} className="mb-6 space-y-3">
      <h2 id={headingId} className="text-base font-semibold">
        Uploads
      </h2>
      {resumable.length > 0 ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100">
          <p className="font-semibold">Unfinished uploads from an earlier visit</p>
          <p className="mt-1">Add these files again, in the same folder (your browser needs you to pick them), and they continue where they stopped:</p>
          <ul className="mt-2 list-inside list-disc">
            {resumable.map((file) => (
              <li key={file.key} className="break-words">
                {placeOf(file) ? `${placeOf(file)}/` : ''}
                {file.name} ({formatBytes(file.size)})
              </li>
            ))}
          </ul>
          <Button variant="secondary" className="mt-3" onClick={discardEarlier}>
            Discard them
          </Button>
        </div>
      ) : null}
      <FileUploader
        ref={ref}
        session={session}
        label="Files uploading to this collection"
        height={300}
        note="Files and whole folders go into the folder you are viewing."
        destination={destinationOf(folderId)}
        keepsUploadedFiles
        onChange={(state) => {
          setUploader(state);
          if (state.fileCount === 0) setRegistrationError(null);
        }}
        onRegistrationError={setRegistrationError}
        onFileUploaded={refreshSoon}
      />
      <UploadStatus state={uploader} />
      <FormError error={registrationError} />
    </section>
  );
}
