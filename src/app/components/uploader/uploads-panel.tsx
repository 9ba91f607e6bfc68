import { useEffect, useId, useRef, useState, type Ref } from 'react';
import type { Folder } from '../../../contract/collections';
import { formatBytes } from '../../lib/format';
import { useIntl } from '../../lib/intl';
import { destinationOf, folderIdOf, type RememberedFile, type UploadSession } from '../../lib/uploads/upload-session';
import { Button } from '../button';
import { FormError } from '../form-error';
import { FileUploader, noUploads, type FileUploaderHandle, type UploaderState } from './file-uploader';
import { UploadStatus } from './upload-status';

export type EarlierUpload = RememberedFile & { key: string };

interface UploadsPanelProps {
  session: UploadSession;
  /** The accessible name of the uploader. */
  label: string;
  note: string;
  /** The folder being viewed: files added now go there, keeping a dropped folder's tree. */
  folderId: string | null;
  /** The owner's folders, to say where an earlier visit's file was going. */
  folders: readonly Pick<Folder, 'id' | 'path'>[];
  /** The owner's files as the server lists them: what an earlier visit left is offered only while it is still `uploading`. */
  serverFiles: readonly { id: string; state: string }[];
  /** Deletes what an earlier visit left unfinished on the server. */
  onDiscard: (fileIds: string[]) => void;
  /** Files finished: the owner's lists are read again (at most every REFRESH_AFTER_UPLOAD_MS, and at once when the panel goes). */
  onUploaded: () => void;
  onStateChange?: (state: UploaderState) => void;
  ref?: Ref<FileUploaderHandle>;
}

/** Finished files come in bursts (a dropped folder): the owner's lists are read again at most this often. */
const REFRESH_AFTER_UPLOAD_MS = 800;

/**
 * Uploads into an owner that keeps its files (a collection, the vault), with the same uploader as transfers: per-file
 * and total progress, pause, resume, retry, tokens renewed. Shown while it holds files (or has some to resume); files
 * come from the page's drop zone and Upload buttons, or its own "Add more". Uploads interrupted by closing the tab are
 * listed, and continue when the same files are added again in the same folder.
 */
export function UploadsPanel({ session, label, note, folderId, folders, serverFiles, onDiscard, onUploaded, onStateChange, ref }: UploadsPanelProps) {
  const intl = useIntl();
  const headingId = useId();
  const [uploader, setUploader] = useState<UploaderState>(noUploads);
  const [registrationError, setRegistrationError] = useState<unknown>(null);

  const refresh = useRef(onUploaded);
  refresh.current = onUploaded;
  const refreshTimer = useRef<number | null>(null);
  useEffect(
    () => () => {
      // Left (or locked) with a refresh pending: the lists are read now, so a finished file does not stay shown as uploading.
      if (refreshTimer.current === null) return;
      window.clearTimeout(refreshTimer.current);
      refresh.current();
    },
    [],
  );
  const refreshSoon = () => {
    if (refreshTimer.current !== null) return;
    refreshTimer.current = window.setTimeout(() => {
      refreshTimer.current = null;
      refresh.current();
    }, REFRESH_AFTER_UPLOAD_MS);
  };
  const serverStates = new Map(serverFiles.map((f) => [f.id, f.state]));
  const folderPaths = new Map(folders.map((f) => [f.id, f.path]));

  // What an earlier visit left unfinished, as the server still has it: finished or deleted since, it is forgotten.
  const earlier = session.filesNotIn(uploader.keys);
  const resumable = earlier.filter((f) => serverStates.get(f.fileId) === 'uploading');
  const settled = earlier.filter((f) => serverStates.get(f.fileId) !== 'uploading');
  useEffect(() => {
    for (const file of settled) session.forgetFile(file.key);
  });

  const placeOf = (file: EarlierUpload) => {
    const folder = folderIdOf(file.destination);
    return [folder === null ? null : folderPaths.get(folder), file.path, file.name].filter(Boolean).join('/');
  };

  const discardEarlier = () => {
    const ids = resumable.map((f) => f.fileId);
    for (const file of resumable) session.forgetFile(file.key);
    onDiscard(ids);
  };

  const hidden = uploader.fileCount === 0 && resumable.length === 0 && !registrationError;
  return (
    <section aria-labelledby={headingId} hidden={hidden} className="mb-6 space-y-3">
      <h2 id={headingId} className="text-base font-semibold">
        {intl.formatMessage({ id: 'common.uploadsPanel.heading', defaultMessage: 'Uploads' })}
      </h2>
      {resumable.length > 0 ? (
        <div className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100">
          <p className="font-semibold">{intl.formatMessage({ id: 'common.uploadsPanel.earlierHeading', defaultMessage: 'Unfinished uploads from an earlier visit' })}</p>
          <p className="mt-1">
            {intl.formatMessage({
              id: 'common.uploadsPanel.earlierHelp',
              defaultMessage: 'Add these files again, in the same folder (your browser needs you to pick them), and they continue where they stopped:',
            })}
          </p>
          <ul className="mt-2 list-inside list-disc">
            {resumable.map((file) => (
              <li key={file.key} className="break-words">
                {intl.formatMessage(
                  { id: 'common.uploadsPanel.earlierFile', defaultMessage: '{place} ({size})' },
                  { place: <bdi key="place">{placeOf(file)}</bdi>, size: formatBytes(file.size) },
                )}
              </li>
            ))}
          </ul>
          <Button variant="secondary" className="mt-3" onClick={discardEarlier}>
            {intl.formatMessage({ id: 'common.uploadsPanel.discard', defaultMessage: 'Discard them' })}
          </Button>
        </div>
      ) : null}
      <FileUploader
        ref={ref}
        session={session}
        label={label}
        height={300}
        note={note}
        destination={destinationOf(folderId)}
        keepsUploadedFiles
        onChange={(state) => {
          setUploader(state);
          onStateChange?.(state);
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
