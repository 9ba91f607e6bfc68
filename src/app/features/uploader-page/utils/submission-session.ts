import { UploadSession } from '../../../lib/uploads/upload-session';
import type { UploaderDetails } from '../api/public-request-api';
import { submissionRegistrar, type SubmissionApi } from './submission-registrar';
import { submissionUploadsStorageKey, SubmissionStore } from './submission-store';

export interface OpenedSubmission {
  store: SubmissionStore;
  session: UploadSession;
}

/**
 * The upload session of a request's page: the shared UploadSession (tus, tokens and their renewal,
 * resuming), registering into a submission. What an earlier visit left is taken up when this
 * browser still has the submission's token: its id is the session's owner, and the files it had
 * not finished continue when they are added again.
 */
export function openSubmission(
  slug: string,
  details: () => UploaderDetails,
  options: { storage?: Storage; api?: Partial<SubmissionApi> } = {},
): OpenedSubmission {
  const store = new SubmissionStore(slug, options.storage ? { storage: options.storage } : {});
  const session = new UploadSession({
    storageKey: submissionUploadsStorageKey(slug),
    ownerId: store.current?.id ?? null,
    registrar: submissionRegistrar(slug, store, details, options.api),
    ...(options.storage ? { storage: options.storage } : {}),
  });
  const remembered = session.remembered();
  if (remembered && remembered.ownerId === store.current?.id) session.resume(remembered);
  // Uploads of a submission this browser can no longer name (no token): nothing to carry on with.
  else if (remembered) {
    session.forget();
    session.ownerId = store.current?.id ?? null;
  }
  return { store, session };
}
