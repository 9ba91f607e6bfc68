import { Link } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { Submission } from '../../../../contract/requests';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { RelativeTime } from '../../../components/relative-time';
import { Section } from '../../../components/section';
import { formatBytes, plural } from '../../../lib/format';
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
 * One submission. The uploader's name, email, message and file names are untrusted text: React
 * renders them as text, never as HTML, and the message keeps its line breaks with CSS.
 */
function SubmissionItem({ submission }: { submission: Submission }) {
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
        {submission.status === 'complete' ? <Badge tone="success">Complete</Badge> : <Badge tone="accent">Uploading</Badge>}
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
            <SubmissionItem key={submission.id} submission={submission} />
          ))}
        </ul>
      )}
    </Section>
  );
}
