import { useMutation } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { PublicUploadRequest, SubmissionProgress } from '../../../../contract/public-requests';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { FileUploader, noUploads, type UploaderState } from '../../../components/uploader/file-uploader';
import { UploadStatus } from '../../../components/uploader/upload-status';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import type { UploadSession } from '../../../lib/uploads/upload-session';
import { finishSubmission, type UploaderDetails } from '../api/public-request-api';
import { allowedTypesInWords, refusalMessage } from '../utils/request-rules';
import { deliveredOf, type DeliveredTally, type StoredSubmission, type SubmissionStore } from '../utils/submission-store';
import { RefusalNotice, refusalOfError, type Refusal } from './request-status-pages';

const folderPath = (path: string) => `${path}/`;

/** The words only a screen reader hears. */
const hidden = (chunks: ReactNode[]) => (
  <span key="hidden" className="sr-only">
    {chunks}
  </span>
);

interface SubmissionStepProps {
  slug: string;
  request: PublicUploadRequest;
  session: UploadSession;
  store: SubmissionStore;
  /** The store's submission, as the page last rendered it. */
  submission: StoredSubmission | null;
  details: UploaderDetails;
  /** Delivered in an earlier visit to this same submission: they count against its limits, but are not in the uploader's list. */
  earlier: DeliveredTally;
  refusal: Refusal | null;
  /** Moved here from the details: the heading takes focus, so a screen reader hears where it is. */
  focusHeading: boolean;
  onChangeDetails: () => void;
  onRefused: (refusal: Refusal) => void;
  onSent: (progress: SubmissionProgress) => void;
}

/**
 * Step 2: drop files and folders (the shared uploader: tus, resumable, tokens renewed), watch them
 * arrive, and send once every file is up. A file that arrived belongs to the workspace and cannot be
 * taken back; one still uploading can be cancelled. The request's limits and types are checked here
 * as files are added; the server checks again, and says so if it refuses.
 */
export function SubmissionStep({
  slug,
  request,
  session,
  store,
  submission,
  details,
  earlier,
  refusal,
  focusHeading,
  onChangeDetails,
  onRefused,
  onSent,
}: SubmissionStepProps) {
  const intl = useIntl();
  const headingId = useId();
  const hintId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [uploader, setUploader] = useState<UploaderState>(noUploads);
  const [problem, setProblem] = useState<unknown>(null);
  // The files an earlier visit left unfinished: they continue when added again, or are skipped (cancelled).
  const [earlierKeys] = useState(() => new Set(session.filesNotIn([]).map((f) => f.key)));
  const [skipping, setSkipping] = useState<{ running: boolean; error: unknown }>({ running: false, error: null });
  const finish = useMutation({
    mutationFn: (sending: StoredSubmission) => finishSubmission(slug, sending),
    onSuccess: onSent,
  });

  useEffect(() => {
    if (focusHeading) heading.current?.focus();
  }, [focusHeading]);

  const types = allowedTypesInWords(request.allowedTypes, intl);
  const missing = session.filesNotIn(uploader.keys).filter((f) => earlierKeys.has(f.key));
  const delivered = deliveredOf(submission);
  const pending = uploader.fileCount - uploader.uploadedCount - uploader.refusedCount;
  const allArrived = submission !== null && Object.values(submission.files).every((f) => f.delivered);
  const ready = submission !== null && delivered.count > 0 && allArrived && pending === 0 && missing.length === 0;
  const notReady =
    missing.length > 0
      ? intl.formatMessage({ id: 'upload.files.addEarlierAgain', defaultMessage: 'Add the files from your earlier visit again, or skip them.' })
      : delivered.count === 0 && pending === 0
        ? intl.formatMessage({ id: 'upload.files.addOne', defaultMessage: 'Add at least one file to send.' })
        : !ready
          ? intl.formatMessage({ id: 'upload.files.waitForUploads', defaultMessage: 'You can send once every file has finished uploading.' })
          : null;
  // What Send will deliver: what arrived, what is still on its way, and what an earlier visit left to add again (not what the server refused).
  const toSend = delivered.count + pending + missing.length;
  const canChangeDetails = submission === null && uploader.fileCount === 0;
  // Files delivered that the list no longer shows (an earlier visit's): said apart, so the count adds up.
  const notListed = delivered.count - uploader.uploadedCount;

  const sender = (
    <bdi key="name" className="font-medium text-zinc-900 dark:text-zinc-100">
      {details.name.trim()}
    </bdi>
  );
  const senderEmail = (
    <bdi key="email" className="wrap-anywhere">
      {details.email.trim()}
    </bdi>
  );

  function skipEarlier() {
    setSkipping({ running: true, error: null });
    Promise.all(missing.map((file) => session.removeFile(file.key))).then(
      () => setSkipping({ running: false, error: null }),
      (error: unknown) => setSkipping({ running: false, error }),
    );
  }

  return (
    <section aria-labelledby={headingId} className="space-y-4">
      <div>
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'upload.step', defaultMessage: 'Step {step, number} of {steps, number}' }, { step: 2, steps: 2 })}
        </p>
        <h2 id={headingId} ref={heading} tabIndex={-1} className="text-lg font-semibold text-zinc-900 focus:outline-none dark:text-zinc-50">
          {intl.formatMessage({ id: 'upload.files.heading', defaultMessage: 'Your files' })}
        </h2>
      </div>

      <div className="flex flex-col items-start gap-x-4 gap-y-2 rounded-md bg-zinc-50 p-3 text-sm text-zinc-700 sm:flex-row sm:justify-between dark:bg-zinc-800/60 dark:text-zinc-300">
        <div className="w-full min-w-0 sm:flex-1">
          <p className="break-words">
            {details.email.trim()
              ? intl.formatMessage({ id: 'upload.files.sendingAsWithEmail', defaultMessage: 'Sending as {name} ({email})' }, { name: sender, email: senderEmail })
              : intl.formatMessage({ id: 'upload.files.sendingAs', defaultMessage: 'Sending as {name}' }, { name: sender })}
          </p>
          {details.message.trim() ? (
            <p className="mt-1 line-clamp-3 whitespace-pre-line break-words text-zinc-600 dark:text-zinc-400">{details.message.trim()}</p>
          ) : null}
        </div>
        {canChangeDetails ? (
          <Button variant="secondary" onClick={onChangeDetails} className="min-h-11 sm:min-h-9">
            {intl.formatMessage({ id: 'upload.files.changeDetails', defaultMessage: 'Change<hidden> your details</hidden>' }, { hidden })}
          </Button>
        ) : null}
      </div>

      {refusal ? <RefusalNotice refusal={refusal} canSend={submission !== null} /> : null}

      {missing.length > 0 ? (
        <div
          role="region"
          aria-labelledby={`${headingId}-resume`}
          className="rounded-md border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950/60 dark:text-amber-100"
        >
          <h3 id={`${headingId}-resume`} className="font-semibold">
            {intl.formatMessage({ id: 'upload.files.earlierHeading', defaultMessage: 'Finish your earlier upload' })}
          </h3>
          <p className="mt-1">
            {intl.formatMessage({
              id: 'upload.files.earlierHelp',
              defaultMessage: 'Add these files again (your browser needs you to pick them) and they continue where they stopped:',
            })}
          </p>
          <ul className="mt-2 list-inside list-disc">
            {missing.map((file) => (
              <li key={file.key} className="break-all">
                {intl.formatMessage(
                  { id: 'upload.files.earlierFile', defaultMessage: '{name} ({size})' },
                  {
                    name: (
                      <bdi key="name">
                        {file.path ? folderPath(file.path) : null}
                        {file.name}
                      </bdi>
                    ),
                    size: formatBytes(file.size),
                  },
                )}
              </li>
            ))}
          </ul>
          <Button variant="secondary" className="mt-3 min-h-11" disabled={skipping.running} onClick={skipEarlier}>
            {skipping.running
              ? intl.formatMessage({ id: 'upload.files.skipping', defaultMessage: 'Skipping…' })
              : intl.formatMessage(
                  { id: 'upload.files.skip', defaultMessage: '{count, plural, one {Skip this file} other {Skip these files}}' },
                  { count: missing.length },
                )}
          </Button>
          <FormError error={skipping.error} className="mt-3" />
        </div>
      ) : null}

      <FileUploader
        session={session}
        label={intl.formatMessage({ id: 'upload.files.label', defaultMessage: 'Files to send' })}
        height={380}
        note={
          types
            ? intl.formatMessage({ id: 'upload.files.noteTypes', defaultMessage: 'Files and whole folders: {types}. Uploading starts at once.' }, { types })
            : intl.formatMessage({ id: 'upload.files.note', defaultMessage: 'Files and whole folders. Uploading starts at once.' })
        }
        maxFiles={request.maxFiles === null ? undefined : Math.max(0, request.maxFiles - earlier.count)}
        maxTotalBytes={request.maxBytes === null ? undefined : Math.max(1, request.maxBytes - earlier.bytes)}
        allowedTypes={request.allowedTypes}
        allowedTypesLabel={types ?? undefined}
        keepsUploadedFiles
        clearWhenDone={false}
        onChange={(state) => {
          setUploader(state);
          if (state.fileCount === 0) setProblem(null);
        }}
        onRegistrationError={(error) => {
          const refused = refusalOfError(error);
          if (refused) onRefused(refused);
          else setProblem(refusalMessage(error, request, intl));
        }}
        onFileUploaded={(key) => {
          const fileId = session.fileIdOf(key);
          if (fileId) store.markDelivered(fileId);
        }}
      />
      <UploadStatus state={uploader} />
      {notListed > 0 ? (
        <p className="text-sm text-zinc-700 dark:text-zinc-300">
          {uploader.fileCount === 0
            ? intl.formatMessage(
                { id: 'upload.files.alreadyUploadedSize', defaultMessage: 'Already uploaded: {count, plural, one {# file} other {# files}} ({size}).' },
                { count: notListed, size: formatBytes(delivered.bytes) },
              )
            : intl.formatMessage({ id: 'upload.files.alreadyUploaded', defaultMessage: 'Already uploaded: {count, plural, one {# file} other {# files}}.' }, { count: notListed })}
        </p>
      ) : null}
      <FormError error={problem} />

      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {intl.formatMessage({
          id: 'upload.files.deliveredOnSend',
          defaultMessage: 'Your files are delivered only when you press Send. Until then nobody else sees them, and files never sent are deleted after a week.',
        })}
      </p>
      <div className="flex flex-col gap-3 border-t border-zinc-200 pt-5 sm:flex-row sm:items-center dark:border-zinc-800">
        <Button
          className="min-h-12 w-full px-6 text-base sm:w-auto"
          disabled={!ready || finish.isPending}
          aria-describedby={notReady ? hintId : undefined}
          onClick={() => {
            if (ready && submission) finish.mutate(submission);
          }}
        >
          {finish.isPending
            ? intl.formatMessage({ id: 'upload.files.sending', defaultMessage: 'Sending…' })
            : toSend > 0
              ? intl.formatMessage({ id: 'upload.files.sendCount', defaultMessage: '{count, plural, one {Send # file} other {Send # files}}' }, { count: toSend })
              : intl.formatMessage({ id: 'upload.files.send', defaultMessage: 'Send' })}
        </Button>
        {notReady ? (
          <p id={hintId} className="text-sm text-zinc-600 dark:text-zinc-400">
            {notReady}
          </p>
        ) : null}
      </div>
      <FormError error={finish.error} />
    </section>
  );
}
