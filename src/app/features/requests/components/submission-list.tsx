import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { Submission } from '../../../../contract/requests';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { RelativeTime } from '../../../components/relative-time';
import { Section } from '../../../components/section';
import { formatBytes, formatDate, plural } from '../../../lib/format';
import { useDiscardSubmission, usePublishSubmission } from '../api/decide-submission';
import { useSubmissions } from '../api/get-submissions';

/** More files than this fold away behind "Show all". */
const FILES_SHOWN = 5;

const fileStates: Record<Submission['files'][number]['state'], string | null> = {
  complete: null,
  uploading: 'uploading',
  importing: 'importing',
  failed: 'failed',
};

function SubmissionFiles({ submission }: { submission: Submission }) {
  const listId = useId();
  const [expanded, setExpanded] = useState(false);
  const { files } = submission;
  if (files.length === 0) return <p className="mt-3 text-sm text-zinc-600 dark:text-zinc-400">No files yet.</p>;
  const shown = expanded ? files : files.slice(0, FILES_SHOWN);
  // The list holds up to 500 files of a submission; the folder has them all.
  const unlisted = submission.fileCount - files.length;
  return (
    <div className="mt-3">
      <ul
        id={listId}
        aria-label={`Files from ${submission.uploader.name}`}
        className="divide-y divide-zinc-100 rounded-md border border-zinc-200 dark:divide-zinc-800 dark:border-zinc-800"
      >
        {shown.map((file) => (
          <li key={file.id} className="flex items-baseline justify-between gap-3 px-3 py-1.5 text-sm">
            <span className="min-w-0 break-all">{file.name}</span>
            <span className="shrink-0 text-xs text-zinc-600 tabular-nums dark:text-zinc-400">
              {fileStates[file.state] ? `${fileStates[file.state]} · ` : ''}
              {formatBytes(file.sizeBytes)}
            </span>
          </li>
        ))}
      </ul>
      {files.length > FILES_SHOWN ? (
        <Button variant="ghost" aria-expanded={expanded} aria-controls={listId} className="mt-1 px-2 py-1 text-xs" onClick={() => setExpanded((e) => !e)}>
          {expanded ? 'Show fewer files' : `Show all ${plural(files.length, 'file', 'files')}`}
        </Button>
      ) : null}
      {unlisted > 0 ? <p className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">And {plural(unlisted, 'more file', 'more files')} in its folder.</p> : null}
    </div>
  );
}

function FolderLink({ submission }: { submission: Submission }) {
  if (submission.collectionId === null) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Its collection was deleted.</p>;
  if (submission.folderId === null) return <p className="text-sm text-zinc-600 dark:text-zinc-400">Its folder was deleted.</p>;
  return (
    <Link
      to="/collections/$collectionId"
      params={{ collectionId: submission.collectionId }}
      search={{ folder: submission.folderId }}
      aria-label={`Open folder of ${submission.uploader.name}’s submission`}
      className="text-sm font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-400"
    >
      Open folder
    </Link>
  );
}

/**
 * A submission its uploader left without pressing Send: nobody but the owner sees its files, and
 * nothing publishes it by itself. The owner publishes it as it is, or discards it; otherwise it is
 * discarded on its `discardAt`.
 */
function UnsentDecision({ requestId, submission }: { requestId: string; submission: Submission }) {
  const publish = usePublishSubmission(requestId, submission.id);
  const discard = useDiscardSubmission(requestId, submission.id);
  const who = submission.uploader.name;
  return (
    <div className="mt-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:border-amber-800 dark:bg-amber-950/40">
      <p className="text-amber-950 dark:text-amber-100">
        {who} added these files but has not pressed Send. Only you see them: they are not in the collection’s public page, zips or links.
        {submission.discardAt ? ` Unless you publish them, they are deleted on ${formatDate(submission.discardAt)}.` : ''}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        <ConfirmedAction
          label="Publish"
          accessibleName={`Publish the files of ${who}`}
          variant="secondary"
          size="small"
          title={`Publish the files of ${who}?`}
          pendingLabel="Publishing…"
          action={publish}
          onDone={() => undefined}
        >
          They are added to the collection as they are, and everyone who can see the collection sees them.
        </ConfirmedAction>
        <ConfirmedAction
          label="Discard"
          accessibleName={`Discard the files of ${who}`}
          size="small"
          title={`Discard the files of ${who}?`}
          pendingLabel="Discarding…"
          action={discard}
          onDone={() => undefined}
        >
          The files and their folder are deleted for good; the uploader’s page can no longer send them.
        </ConfirmedAction>
      </div>
    </div>
  );
}

function SubmissionBadge({ submission }: { submission: Submission }) {
  if (!submission.sent) return <Badge tone="warning">Not sent yet</Badge>;
  return submission.status === 'complete' ? <Badge tone="success">Complete</Badge> : <Badge tone="accent">Uploading</Badge>;
}

/**
 * One submission. The uploader's name, email, message and file names are untrusted text: React
 * renders them as text, never as HTML, and the message keeps its line breaks with CSS.
 */
function SubmissionItem({ requestId, submission }: { requestId: string; submission: Submission }) {
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
            <p className="text-sm text-zinc-600 dark:text-zinc-400">No email address given</p>
          )}
        </div>
        <SubmissionBadge submission={submission} />
      </div>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {`${plural(submission.fileCount, 'file', 'files')} · ${formatBytes(submission.sizeBytes)} · `}
        <RelativeTime iso={submission.createdAt} />
      </p>
      {submission.message ? (
        <blockquote className="mt-3 border-l-2 border-zinc-300 pl-3 text-sm break-words whitespace-pre-wrap text-zinc-800 dark:border-zinc-700 dark:text-zinc-200">
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
  const { data: submissions } = useSubmissions(requestId);
  return (
    <Section title="Submissions" description={submissions.length > 0 ? plural(submissions.length, 'submission', 'submissions') : undefined}>
      {submissions.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          Nothing has been sent yet. Share the upload link: each submission shows here as it arrives, with who sent it, their message and their files.
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
