import type { IntlShape } from 'react-intl';
import type { PublicUploadRequest } from '../../../../contract/public-requests';
import { isApiRequestError } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
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

const SPACE = ' ';

/** A refusal's heading: the page's title, and the notice's. */
function refusalTitle(refusal: Refusal, intl: IntlShape): string {
  return intl.formatMessage(
    {
      id: 'upload.refusal.title',
      defaultMessage:
        '{refusal, select, paused {This request is paused} closed {This request is no longer accepting files} other {The deadline for this request has passed}}',
    },
    { refusal },
  );
}

/** The whole page of a request that takes no files now: paused (maybe later), closed, or past its deadline (never again). */
export function RequestRefusedPage({ request, refusal }: { request: Pick<PublicUploadRequest, 'title' | 'workspaceName' | 'deadline'>; refusal: Refusal }) {
  const intl = useIntl();
  const title = (
    <bdi key="title" className={strong}>
      {request.title}
    </bdi>
  );
  const workspace = (
    <bdi key="workspace" className={strong}>
      {request.workspaceName}
    </bdi>
  );
  if (refusal === 'paused') {
    return (
      <StatusPage title={refusalTitle(refusal, intl)}>
        <p>
          {intl.formatMessage(
            { id: 'upload.refusal.pausedHelp', defaultMessage: "{workspace} isn't accepting files for “{title}” right now." },
            { workspace, title },
          )}
        </p>
        <p className="mt-2">{intl.formatMessage({ id: 'upload.refusal.pausedRetry', defaultMessage: 'Try again later with the same link.' })}</p>
      </StatusPage>
    );
  }
  if (refusal === 'deadline') {
    return (
      <StatusPage title={refusalTitle(refusal, intl)}>
        <p>
          {request.deadline
            ? intl.formatMessage(
                { id: 'upload.refusal.deadlineHelpUntil', defaultMessage: '“{title}” accepted files until {deadline}, so it is no longer accepting files.' },
                {
                  title,
                  deadline: (
                    <time key="deadline" dateTime={request.deadline}>
                      {formatDateTime(request.deadline)}
                    </time>
                  ),
                },
              )
            : intl.formatMessage({ id: 'upload.refusal.deadlineHelp', defaultMessage: '“{title}” accepted files, so it is no longer accepting files.' }, { title })}
        </p>
        <p className="mt-2">
          {intl.formatMessage({ id: 'upload.refusal.askWorkspace', defaultMessage: 'If you still need to send something, ask {workspace} for a new link.' }, { workspace })}
        </p>
      </StatusPage>
    );
  }
  return (
    <StatusPage title={refusalTitle(refusal, intl)}>
      <p>{intl.formatMessage({ id: 'upload.refusal.closedHelp', defaultMessage: '{workspace} has closed “{title}”, so it takes no more files.' }, { workspace, title })}</p>
      <p className="mt-2">{intl.formatMessage({ id: 'upload.refusal.askThem', defaultMessage: 'If you still need to send something, ask them for a new link.' })}</p>
    </StatusPage>
  );
}

/** The same news while files are on the page: what is uploading finishes, and what arrived can still be sent. */
export function RefusalNotice({ refusal, canSend }: { refusal: Refusal; canSend: boolean }) {
  const intl = useIntl();
  return (
    <div
      role="alert"
      className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100"
    >
      <p className="font-semibold">{refusalTitle(refusal, intl)}</p>
      <p className="mt-1">
        {intl.formatMessage(
          {
            id: 'upload.refusal.notice',
            defaultMessage:
              '{refusal, select, paused {It isn’t accepting new files right now; try again later to add more.} closed {It was closed, so no new files can be added.} other {No new files can be added.}}',
          },
          { refusal },
        )}
        {canSend ? (
          <>
            {SPACE}
            {intl.formatMessage({ id: 'upload.refusal.canStillSend', defaultMessage: 'Files already uploading will finish, and you can still send what you added.' })}
          </>
        ) : null}
      </p>
    </div>
  );
}
