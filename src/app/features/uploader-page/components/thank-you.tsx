import { useEffect, useRef } from 'react';
import type { SubmissionProgress } from '../../../../contract/public-requests';
import { Button } from '../../../components/button';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { RefusalNotice, type Refusal } from './request-status-pages';

/** After Send: what arrived where, and a way to send more (a new submission, the same details) while the request takes files. */
export function ThankYou({
  progress,
  workspaceName,
  refusal,
  onSendMore,
}: {
  progress: SubmissionProgress;
  workspaceName: string;
  refusal: Refusal | null;
  onSendMore: () => void;
}) {
  const intl = useIntl();
  const heading = useRef<HTMLHeadingElement>(null);
  useDocumentTitle(intl.formatMessage({ id: 'upload.thanks.pageTitle', defaultMessage: 'Files delivered' }));
  useEffect(() => heading.current?.focus(), []);
  const values = {
    count: progress.fileCount,
    size: formatBytes(progress.sizeBytes),
    workspace: (
      <bdi key="workspace" className="font-medium break-words text-zinc-900 dark:text-zinc-100">
        {workspaceName}
      </bdi>
    ),
  };
  return (
    <section aria-labelledby="thank-you-title" className="space-y-4 text-center">
      <CheckGlyph />
      <h2 id="thank-you-title" ref={heading} tabIndex={-1} className="text-2xl font-semibold tracking-tight text-zinc-900 focus:outline-none dark:text-zinc-50">
        {intl.formatMessage({ id: 'upload.thanks.heading', defaultMessage: 'Thank you!' })}
      </h2>
      <p role="status" className="text-zinc-700 dark:text-zinc-300">
        {progress.status === 'complete'
          ? intl.formatMessage(
              {
                id: 'upload.thanks.delivered',
                defaultMessage:
                  '{count, plural, one {Your file ({size}) was delivered to {workspace}.} other {Your # files ({size}) were delivered to {workspace}.}}',
              },
              values,
            )
          : intl.formatMessage(
              {
                id: 'upload.thanks.onTheWay',
                defaultMessage:
                  '{count, plural, one {Your file ({size}) is on its way to {workspace}.} other {Your # files ({size}) are on their way to {workspace}.}}',
              },
              values,
            )}
      </p>
      {refusal ? (
        <div className="text-start">
          <RefusalNotice refusal={refusal} canSend={false} />
        </div>
      ) : (
        <div className="pt-2">
          <Button variant="secondary" onClick={onSendMore} className="min-h-11 px-5">
            {intl.formatMessage({ id: 'upload.thanks.sendMore', defaultMessage: 'Send more files' })}
          </Button>
        </div>
      )}
    </section>
  );
}

function CheckGlyph() {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="mx-auto size-12 text-emerald-600 dark:text-emerald-400"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
    >
      <circle cx="12" cy="12" r="9.25" />
      <path d="m8 12.5 2.75 2.75L16 10" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
