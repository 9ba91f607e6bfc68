import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import { defineMessages, type MessageDescriptor } from 'react-intl';
import type { Submission } from '../../../../contract/requests';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { RelativeTime } from '../../../components/relative-time';
import { Section } from '../../../components/section';
import { formatBytes, formatDate } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useDiscardSubmission, usePublishSubmission } from '../api/decide-submission';
import { useSubmissions } from '../api/get-submissions';

/** More files than this fold away behind "Show all". */
const FILES_SHOWN = 5;

const stateWords = defineMessages({
  uploading: { id: 'requests.submission.fileState.uploading', defaultMessage: 'uploading' },
  importing: { id: 'requests.submission.fileState.importing', defaultMessage: 'importing' },
  failed: { id: 'requests.submission.fileState.failed', defaultMessage: 'failed' },
});

/** A file's state beside its size, when it is not complete. */
const fileStates: Record<Submission['files'][number]['state'], MessageDescriptor | null> = {
  complete: null,
  uploading: stateWords.uploading,
  importing: stateWords.importing,
  failed: stateWords.failed,
};

function SubmissionFiles({ submission }: { submission: Submission }) {
  const intl = useIntl();
  const listId = useId();
  const [expanded, setExpanded] = useState(false);
  const { files } = submission;
  if (files.length === 0)
    return <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'requests.submission.noFiles', defaultMessage: 'No files yet.' })}</p>;
  const shown = expanded ? files : files.slice(0, FILES_SHOWN);
  // The list holds up to 500 files of a submission; the folder has them all.
  const unlisted = submission.fileCount - files.length;
  return (
    <div className="mt-3">
      <ul
        id={listId}
        aria-label={intl.formatMessage({ id: 'requests.submission.filesFrom', defaultMessage: 'Files from {name}' }, { name: submission.uploader.name })}
        className="divide-y divide-zinc-100 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {shown.map((file) => {
          const state = fileStates[file.state];
          return (
            <li key={file.id} className="flex items-baseline justify-between gap-3 px-3 py-1.5 text-sm">
              <span className="min-w-0 break-all">{file.name}</span>
              <span className="shrink-0 text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
                {state
                  ? intl.formatMessage(
                      { id: 'requests.submission.fileStateAndSize', defaultMessage: '{state} · {size}' },
                      { state: intl.formatMessage(state), size: formatBytes(file.sizeBytes) },
                    )
                  : formatBytes(file.sizeBytes)}
              </span>
            </li>
          );
        })}
      </ul>
      {files.length > FILES_SHOWN ? (
        <Button variant="ghost" aria-expanded={expanded} aria-controls={listId} className="mt-1 px-2 py-1 text-xs" onClick={() => setExpanded((e) => !e)}>
          {expanded
            ? intl.formatMessage({ id: 'requests.submission.showFewer', defaultMessage: 'Show fewer files' })
            : intl.formatMessage({ id: 'requests.submission.showAll', defaultMessage: 'Show all {count, plural, one {# file} other {# files}}' }, { count: files.length })}
        </Button>
      ) : null}
      {unlisted > 0 ? (
        <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage(
            { id: 'requests.submission.unlisted', defaultMessage: 'And {count, plural, one {# more file} other {# more files}} in its folder.' },
            { count: unlisted },
          )}
        </p>
      ) : null}
    </div>
  );
}

function FolderLink({ submission }: { submission: Submission }) {
  const intl = useIntl();
  if (submission.collectionId === null)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'requests.submission.collectionDeleted', defaultMessage: 'Its collection was deleted.' })}
      </p>
    );
  if (submission.folderId === null)
    return (
      <p className="text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'requests.submission.folderDeleted', defaultMessage: 'Its folder was deleted.' })}
      </p>
    );
  return (
    <Link
      to="/collections/$collectionId"
      params={{ collectionId: submission.collectionId }}
      search={{ folder: submission.folderId }}
      aria-label={intl.formatMessage(
        { id: 'requests.submission.openFolderOf', defaultMessage: 'Open folder of {name}’s submission' },
        { name: submission.uploader.name },
      )}
      className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-400"
    >
      {intl.formatMessage({ id: 'requests.submission.openFolder', defaultMessage: 'Open folder' })}
    </Link>
  );
}

/**
 * A submission its uploader left without pressing Send: nobody but the owner sees its files, and
 * nothing publishes it by itself. The owner publishes it as it is, or discards it; otherwise it is
 * discarded on its `discardAt`.
 */
function UnsentDecision({ requestId, submission }: { requestId: string; submission: Submission }) {
  const intl = useIntl();
  const publish = usePublishSubmission(requestId, submission.id);
  const discard = useDiscardSubmission(requestId, submission.id);
  const who = submission.uploader.name;
  return (
    <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40">
      <p className="text-amber-950 dark:text-amber-100">
        {submission.discardAt
          ? intl.formatMessage(
              {
                id: 'requests.submission.unsentUntil',
                defaultMessage:
                  '{name} added these files but has not pressed Send. Only you see them: they are not in the collection’s public page, zips or links. Unless you publish them, they are deleted on {date}.',
              },
              { name: <bdi key="name">{who}</bdi>, date: formatDate(submission.discardAt) },
            )
          : intl.formatMessage(
              {
                id: 'requests.submission.unsent',
                defaultMessage: '{name} added these files but has not pressed Send. Only you see them: they are not in the collection’s public page, zips or links.',
              },
              { name: <bdi key="name">{who}</bdi> },
            )}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <ConfirmedAction
          label={intl.formatMessage({ id: 'requests.submission.publish', defaultMessage: 'Publish' })}
          accessibleName={intl.formatMessage({ id: 'requests.submission.publishName', defaultMessage: 'Publish the files of {name}' }, { name: who })}
          variant="secondary"
          size="small"
          title={intl.formatMessage({ id: 'requests.submission.publishTitle', defaultMessage: 'Publish the files of {name}?' }, { name: who })}
          pendingLabel={intl.formatMessage({ id: 'requests.submission.publishing', defaultMessage: 'Publishing…' })}
          action={publish}
          onDone={() => undefined}
        >
          {intl.formatMessage({
            id: 'requests.submission.publishText',
            defaultMessage: 'They are added to the collection as they are, and everyone who can see the collection sees them.',
          })}
        </ConfirmedAction>
        <ConfirmedAction
          label={intl.formatMessage({ id: 'requests.submission.discard', defaultMessage: 'Discard' })}
          accessibleName={intl.formatMessage({ id: 'requests.submission.discardName', defaultMessage: 'Discard the files of {name}' }, { name: who })}
          size="small"
          title={intl.formatMessage({ id: 'requests.submission.discardTitle', defaultMessage: 'Discard the files of {name}?' }, { name: who })}
          pendingLabel={intl.formatMessage({ id: 'requests.submission.discarding', defaultMessage: 'Discarding…' })}
          action={discard}
          onDone={() => undefined}
        >
          {intl.formatMessage({
            id: 'requests.submission.discardText',
            defaultMessage: 'The files and their folder are deleted for good; the uploader’s page can no longer send them.',
          })}
        </ConfirmedAction>
      </div>
    </div>
  );
}

function SubmissionBadge({ submission }: { submission: Submission }) {
  const intl = useIntl();
  if (!submission.sent) return <Badge tone="warning">{intl.formatMessage({ id: 'requests.submission.notSent', defaultMessage: 'Not sent yet' })}</Badge>;
  return submission.status === 'complete' ? (
    <Badge tone="success">{intl.formatMessage({ id: 'requests.submission.complete', defaultMessage: 'Complete' })}</Badge>
  ) : (
    <Badge tone="accent">{intl.formatMessage({ id: 'requests.submission.uploading', defaultMessage: 'Uploading' })}</Badge>
  );
}

/**
 * One submission. The uploader's name, email, message and file names are untrusted text: React
 * renders them as text, never as HTML, and the message keeps its line breaks with CSS.
 */
function SubmissionItem({ requestId, submission }: { requestId: string; submission: Submission }) {
  const intl = useIntl();
  const { uploader } = submission;
  return (
    <li className="py-4 first:pt-0 last:pb-0">
      <div className="flex flex-wrap items-start justify-between gap-x-4 gap-y-1">
        <div className="min-w-0">
          <h3 className="font-medium break-words">{uploader.name}</h3>
          {uploader.email ? (
            <a href={`mailto:${uploader.email}`} className="text-sm break-all text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-400">
              {uploader.email}
            </a>
          ) : (
            <p className="text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'requests.submission.noEmail', defaultMessage: 'No email address given' })}</p>
          )}
        </div>
        <SubmissionBadge submission={submission} />
      </div>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage(
          { id: 'requests.submission.summary', defaultMessage: '{count, plural, one {# file} other {# files}} · {size} · {when}' },
          { count: submission.fileCount, size: formatBytes(submission.sizeBytes), when: <RelativeTime key="when" iso={submission.createdAt} /> },
        )}
      </p>
      {submission.message ? (
        <blockquote className="mt-3 border-s-2 border-zinc-300 ps-3 text-sm break-words whitespace-pre-wrap text-zinc-800 dark:border-zinc-700 dark:text-zinc-200">
          {submission.message}
        </blockquote>
      ) : null}
      <SubmissionFiles submission={submission} />
      {submission.sent ? null : <UnsentDecision requestId={requestId} submission={submission} />}
      <div className="mt-3">
        <FolderLink submission={submission} />
      </div>
    </li>
  );
}

/** Every submission, newest first: who sent what, and a way to their folder in the collection. */
export function SubmissionList({ requestId }: { requestId: string }) {
  const intl = useIntl();
  const { data: submissions } = useSubmissions(requestId);
  return (
    <Section
      title={intl.formatMessage({ id: 'requests.submissions.title', defaultMessage: 'Submissions' })}
      description={
        submissions.length > 0
          ? intl.formatMessage(
              { id: 'requests.submissions.count', defaultMessage: '{count, plural, one {# submission} other {# submissions}}' },
              { count: submissions.length },
            )
          : undefined
      }
    >
      {submissions.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({
            id: 'requests.submissions.empty',
            defaultMessage:
              'Nothing has been sent yet. Share the upload link: each submission shows here as it arrives, with who sent it, their message and their files.',
          })}
        </p>
      ) : (
        <ul className="divide-y divide-zinc-200 dark:divide-zinc-800">
          {submissions.map((submission) => (
            <SubmissionItem key={submission.id} requestId={requestId} submission={submission} />
          ))}
        </ul>
      )}
    </Section>
  );
}
