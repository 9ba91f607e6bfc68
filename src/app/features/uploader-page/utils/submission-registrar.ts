import { isApiRequestError } from '../../../lib/api-error';
import type { FileToUpload, UploadRegistrar } from '../../../lib/uploads/upload-session';
import { addSubmissionFiles, cancelSubmissionFile, startSubmission, type UploaderDetails } from '../api/public-request-api';
import type { SubmissionStore } from './submission-store';

export interface SubmissionApi {
  start: typeof startSubmission;
  add: typeof addSubmissionFiles;
  cancel: typeof cancelSubmissionFile;
}

/**
 * The submission a later batch was meant for is no more: the server dropped it when its last file
 * was cancelled (404), it was sent (`409 finished`, from another tab or by the server after a week
 * unsent), or this browser's token for it is not the one (401). A new submission takes the files.
 */
function submissionGone(error: unknown): boolean {
  if (!isApiRequestError(error)) return false;
  return error.status === 404 || error.status === 401 || (error.status === 409 && error.details.reason === 'finished');
}

/** A cancel that came too late: the file finished first, and it is the workspace's now. */
const alreadyDelivered = (error: unknown) => isApiRequestError(error) && error.status === 409 && error.details.reason === 'complete';

function toRegister({ name, size, mimeType, path }: FileToUpload) {
  return { name, size, ...(mimeType ? { mimeType } : {}), path: path ?? null };
}

/**
 * An upload request's files go into a submission that the first batch starts, with the uploader's
 * details (read when it starts); later batches are added to it with its token, and a file removed
 * before it finished is cancelled. The store keeps the submission's token and files for the page
 * (and for the next visit). A submission that is gone makes the next batch start a new one.
 */
export function submissionRegistrar(slug: string, store: SubmissionStore, details: () => UploaderDetails, api: Partial<SubmissionApi> = {}): UploadRegistrar {
  const { start, add, cancel } = { start: startSubmission, add: addSubmissionFiles, cancel: cancelSubmissionFile, ...api };
  return {
    async register(files, ownerId) {
      const batch = files.map(toRegister);
      const current = store.current;
      if (ownerId !== null && current?.id === ownerId) {
        try {
          const added = await add(slug, current, batch);
          store.addFiles(added.files.map((t, i) => ({ fileId: t.id, size: files[i]?.size ?? 0 })));
          return { ownerId, targets: added.files };
        } catch (error) {
          if (!submissionGone(error)) throw error;
          store.clear();
        }
      }
      const typed = details();
      const started = await start(slug, typed, batch);
      store.start(started.submission.id, started.submission.token, typed);
      store.addFiles(started.files.map((t, i) => ({ fileId: t.id, size: files[i]?.size ?? 0 })));
      return { ownerId: started.submission.id, targets: started.files };
    },
    async unregister(submissionId, fileId) {
      const current = store.current;
      // Not this browser's submission any more: there is nothing it could take back.
      if (current?.id !== submissionId) return;
      try {
        await cancel(slug, current, fileId);
      } catch (error) {
        if (alreadyDelivered(error)) {
          store.markDelivered(fileId);
          return;
        }
        if (!(isApiRequestError(error) && error.status === 404)) throw error;
      }
      store.removeFile(fileId);
      // Its last file cancelled before it was sent, the server dropped the submission: forget it now rather than learn it from a 404.
      if (store.current && Object.keys(store.current.files).length === 0) store.clear();
    },
  };
}
