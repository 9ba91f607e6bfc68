import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { UploadRequest } from '../../../../contract/requests';
import { RelativeTime } from '../../../components/relative-time';
import { Section } from '../../../components/section';
import { formatBytes, formatDateTime, formatInteger, plural } from '../../../lib/format';
import { useCollectionTitles, useFolder } from '../api/destination';
import { DestinationLink } from './destination-link';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-2">
      <dt className="shrink-0 text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 text-right break-words">{children}</dd>
    </div>
  );
}

function FolderFact({ request }: { request: UploadRequest }) {
  const folder = useFolder(request.collectionId, request.folderId);
  if (request.collectionId === null) return <>None</>;
  if (request.folderId === null) return <>Top level</>;
  return (
    <Link
      to="/collections/$collectionId"
      params={{ collectionId: request.collectionId }}
      search={{ folder: request.folderId }}
      className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-400"
    >
      {folder ? folder.path.split('/').join(' / ') : 'Open the folder'}
    </Link>
  );
}

/** Where the files go, the limits an uploader meets, and what came in so far. */
export function RequestSettings({ request }: { request: UploadRequest }) {
  const titles = useCollectionTitles();
  return (
    <Section title="Settings">
      <dl className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
        <Fact term="Collection">
          <DestinationLink collectionId={request.collectionId} title={request.collectionId ? titles?.get(request.collectionId) : undefined} />
        </Fact>
        <Fact term="Folder">
          <FolderFact request={request} />
        </Fact>
        <Fact term="Deadline">
          {request.deadline ? (
            <>
              {formatDateTime(request.deadline)}
              <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                <RelativeTime iso={request.deadline} />
              </span>
            </>
          ) : (
            'None'
          )}
        </Fact>
        <Fact term="Files per submission">{request.maxFiles === null ? 'No limit' : `At most ${formatInteger(request.maxFiles)}`}</Fact>
        <Fact term="Data per submission">{request.maxBytes === null ? 'No limit' : `At most ${formatBytes(request.maxBytes)}`}</Fact>
        <Fact term="File types">
          {request.allowedTypes.length === 0 ? (
            'Any'
          ) : (
            <span className="inline-flex flex-wrap justify-end gap-1">
              {request.allowedTypes.map((type) => (
                <code key={type} className="rounded bg-zinc-100 px-1.5 py-0.5 text-xs dark:bg-zinc-800">
                  {type}
                </code>
              ))}
            </span>
          )}
        </Fact>
        <Fact term="Email address">{request.requireEmail ? 'Required' : 'Optional'}</Fact>
        <Fact term="Received">
          {plural(request.submissionCount, 'submission', 'submissions')}
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">{`${plural(request.fileCount, 'file', 'files')} · ${formatBytes(request.sizeBytes)}`}</span>
        </Fact>
        <Fact term="Created">
          <RelativeTime iso={request.createdAt} />
        </Fact>
      </dl>
      <div className="mt-4 border-t border-zinc-200 pt-4 dark:border-zinc-800">
        <h3 className="text-sm font-medium">Message to uploaders</h3>
        {request.message ? (
          <p className="mt-1 text-sm break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{request.message}</p>
        ) : (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">None: the page shows only the title.</p>
        )}
      </div>
    </Section>
  );
}
