import type { PublicUploadRequest } from '../../../../contract/public-requests';
import { isApiRequestError } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { LinkNotFoundPage, LoadFailedPage, StatusPage, SuspendedLinkPage } from '../../recipient';

/** Why a request takes no new files: its state when the page opened, or a `409 conflict`'s `details.reason` later. */
export type Refusal = 'paused' | 'closed' | 'deadline';

export function refusalOfRequest(request: Pick<PublicUploadRequest, 'state' | 'closedReason'>): Refusal | null {
  if (request.state === 'paused') return 'paused';
  if (request.state === 'closed') return request.closedReason === 'deadline' ? 'deadline' : 'closed';
  return null;
}

/** The refusal in a `409 conflict` from a call that added files, if that is what the error is. */
export function refusalOfError(error: unknown): Refusal | null {
  if (!isApiRequestError(error) || error.status !== 409) return null;
  const reason = error.details.reason;
  return reason === 'paused' || reason === 'closed' || reason === 'deadline' ? reason : null;
}

/** What the page shows when the request can't be shown: the recipient pages' own pages for an unknown or suspended link. */
export function RequestErrorPage({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (isApiRequestError(error)) {
    if (error.status === 404) return <LinkNotFoundPage />;
    if (error.status === 410) return <SuspendedLinkPage what="upload page" />;
  }
  return <LoadFailedPage what="upload page" error={error} onRetry={onRetry} />;
}

const strong = 'font-medium break-words text-zinc-900 dark:text-zinc-100';

/** The whole page of a request that takes no files now: paused (maybe later), closed, or past its deadline (never again). */
export function RequestRefusedPage({ request, refusal }: { request: Pick<PublicUploadRequest, 'title' | 'workspaceName' | 'deadline'>; refusal: Refusal }) {
  const title = <span className={strong}>“{request.title}”</span>;
  const workspace = <span className={strong}>{request.workspaceName}</span>;
  if (refusal === 'paused') {
    return (
      <StatusPage title="This request is paused">
        <p>
          {workspace} isn't accepting files for {title} right now.
        </p>
        <p className="mt-2">Try again later with the same link.</p>
      </StatusPage>
    );
  }
  if (refusal === 'deadline') {
    return (
      <StatusPage title="The deadline for this request has passed">
        <p>
          {title} accepted files
          {request.deadline ? (
            <>
              {' '}
              until <time dateTime={request.deadline}>{formatDateTime(request.deadline)}</time>
            </>
          ) : null}
          , so it is no longer accepting files.
        </p>
        <p className="mt-2">If you still need to send something, ask {workspace} for a new link.</p>
      </StatusPage>
    );
  }
  return (
    <StatusPage title="This request is no longer accepting files">
      <p>
        {workspace} has closed {title}, so it takes no more files.
      </p>
      <p className="mt-2">If you still need to send something, ask them for a new link.</p>
    </StatusPage>
  );
}

const notices: Record<Refusal, { title: string; body: string }> = {
  paused: { title: 'This request is paused', body: 'It isn’t accepting new files right now; try again later to add more.' },
  closed: { title: 'This request is no longer accepting files', body: 'It was closed, so no new files can be added.' },
  deadline: { title: 'The deadline for this request has passed', body: 'No new files can be added.' },
};

/** The same news while files are on the page: what is uploading finishes, and what arrived can still be sent. */
export function RefusalNotice({ refusal, canSend }: { refusal: Refusal; canSend: boolean }) {
  const notice = notices[refusal];
  return (
    <div
      role="alert"
      className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100"
    >
      <p className="font-semibold">{notice.title}</p>
      <p className="mt-1">
        {notice.body} {canSend ? 'Files already uploading will finish, and you can still send what you added.' : null}
      </p>
    </div>
  );
}
