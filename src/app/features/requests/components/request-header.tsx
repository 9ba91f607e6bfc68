import { Link } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { UploadRequest } from '../../../../contract/requests';
import { Glyph } from '../../../components/glyphs';
import { formatRelativeTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { MadeBy } from '../../transfers';
import { deadlinePassed, requestState } from '../utils/request-status';
import { RequestActions } from './request-actions';
import { RequestStatusBadges } from './request-status-badges';

const noticeClass = {
  warning: 'border-amber-300 bg-amber-50 text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-200',
  neutral: 'border-zinc-300 bg-zinc-50 text-zinc-800 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-200',
};

/** Why the page takes no files now, and what would change that; nothing while it is open. */
function StateNotice({ request, paid }: { request: UploadRequest; paid: boolean }) {
  const intl = useIntl();
  const state = requestState(request);
  if (state === 'open') return null;
  let text: string;
  let tone: keyof typeof noticeClass = 'warning';
  if (state === 'closed') {
    tone = 'neutral';
    text =
      request.collectionId === null
        ? intl.formatMessage({
            id: 'requests.header.closedCollectionDeleted',
            defaultMessage: 'Closed: its collection was deleted. The upload page no longer accepts files, and the request cannot be changed.',
          })
        : intl.formatMessage({
            id: 'requests.header.closed',
            defaultMessage: 'Closed: the upload page no longer accepts files, and the request cannot be changed. The files already sent stay in the collection.',
          });
  } else if (state === 'paused') {
    text = deadlinePassed(request)
      ? intl.formatMessage({
          id: 'requests.header.pausedPastDeadline',
          defaultMessage:
            'Paused: the upload page says so and takes no new files until you resume it. Uploads already under way may finish. Its deadline has passed too: move it before resuming.',
        })
      : intl.formatMessage({
          id: 'requests.header.paused',
          defaultMessage: 'Paused: the upload page says so and takes no new files until you resume it. Uploads already under way may finish.',
        });
  } else if (state === 'deadline') {
    tone = 'neutral';
    const when = formatRelativeTime(request.deadline!);
    text = paid
      ? intl.formatMessage(
          {
            id: 'requests.header.deadlinePassedEditable',
            defaultMessage: 'The deadline passed {when}: the upload page no longer accepts files. Edit the deadline to take files again.',
          },
          { when },
        )
      : intl.formatMessage(
          { id: 'requests.header.deadlinePassed', defaultMessage: 'The deadline passed {when}: the upload page no longer accepts files.' },
          { when },
        );
  } else {
    text = intl.formatMessage({ id: 'requests.header.onHold', defaultMessage: 'The upload page takes no files while this workspace is on the free plan.' });
  }
  return <p className={`mt-4 rounded-md border px-3 py-2 text-sm ${noticeClass[tone]}`}>{text}</p>;
}

/** The request's title and state, why it takes no files (when it does not) and what can be done to it. */
export function RequestHeader({ request, paid, announce }: { request: UploadRequest; paid: boolean; announce: (message: string) => void }) {
  const intl = useIntl();
  useDocumentTitle(request.title);
  const heading = useRef<HTMLHeadingElement>(null);
  const [closedHere, setClosedHere] = useState(false);
  // Closing takes the actions away, the focused button with them: focus goes to the heading (after the dialog's own attempt to hand it back).
  useEffect(() => {
    if (closedHere) heading.current?.focus();
  }, [closedHere]);
  return (
    <div className="mb-8">
      <p className="mb-2 text-sm">
        <Link to="/requests" className="text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-white">
          <Glyph sign="previous" /> {intl.formatMessage({ id: 'requests.header.back', defaultMessage: 'Requests' })}
        </Link>
      </p>
      <div className="flex flex-wrap items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 ref={heading} tabIndex={-1} className="text-2xl font-semibold tracking-tight break-words focus:outline-none">
            {request.title}
          </h1>
          <div className="mt-2 flex flex-wrap items-center gap-x-2 gap-y-1">
            <RequestStatusBadges request={request} />
            <MadeBy by={request.createdBy} verb="made" />
          </div>
        </div>
        {request.status === 'closed' ? null : paid ? (
          <RequestActions
            request={request}
            announce={announce}
            onClosed={() => {
              setClosedHere(true);
              announce(intl.formatMessage({ id: 'requests.header.closedAnnouncement', defaultMessage: 'Request closed.' }));
            }}
          />
        ) : (
          <p className="max-w-xs text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'requests.header.freePlan', defaultMessage: 'On the free plan, requests can be read but not changed.' })}
          </p>
        )}
      </div>
      <StateNotice request={request} paid={paid} />
    </div>
  );
}
