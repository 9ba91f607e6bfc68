import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { UploadRequest } from '../../../../contract/requests';
import { RelativeTime } from '../../../components/relative-time';
import { Section } from '../../../components/section';
import { formatBytes, formatDateTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useCollectionTitles, useFolder } from '../api/destination';
import { DestinationLink } from './destination-link';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-4 py-2">
      <dt className="shrink-0 text-zinc-600 dark:text-zinc-400">{term}</dt>
      <dd className="min-w-0 text-end break-words">{children}</dd>
    </div>
  );
}

function FolderFact({ request }: { request: UploadRequest }) {
  const intl = useIntl();
  const folder = useFolder(request.collectionId, request.folderId);
  if (request.collectionId === null) return <>{intl.formatMessage({ id: 'requests.settings.noFolder', defaultMessage: 'None' })}</>;
  if (request.folderId === null) return <>{intl.formatMessage({ id: 'requests.settings.topLevel', defaultMessage: 'Top level' })}</>;
  return (
    <Link
      to="/collections/$collectionId"
      params={{ collectionId: request.collectionId }}
      search={{ folder: request.folderId }}
      className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-400"
    >
      {folder ? folder.path.split('/').join(' / ') : intl.formatMessage({ id: 'requests.settings.openFolder', defaultMessage: 'Open the folder' })}
    </Link>
  );
}

/** Where the files go, the limits an uploader meets, and what came in so far. */
export function RequestSettings({ request }: { request: UploadRequest }) {
  const intl = useIntl();
  const titles = useCollectionTitles();
  return (
    <Section title={intl.formatMessage({ id: 'requests.settings.title', defaultMessage: 'Settings' })}>
      <dl className="divide-y divide-zinc-200 text-sm dark:divide-zinc-800">
        <Fact term={intl.formatMessage({ id: 'requests.settings.collection', defaultMessage: 'Collection' })}>
          <DestinationLink collectionId={request.collectionId} title={request.collectionId ? titles?.get(request.collectionId) : undefined} />
        </Fact>
        <Fact term={intl.formatMessage({ id: 'requests.settings.folder', defaultMessage: 'Folder' })}>
          <FolderFact request={request} />
        </Fact>
        <Fact term={intl.formatMessage({ id: 'requests.settings.deadline', defaultMessage: 'Deadline' })}>
          {request.deadline ? (
            <>
              {formatDateTime(request.deadline)}
              <span className="block text-xs text-zinc-600 dark:text-zinc-400">
                <RelativeTime iso={request.deadline} />
              </span>
            </>
          ) : (
            intl.formatMessage({ id: 'requests.settings.noDeadline', defaultMessage: 'None' })
          )}
        </Fact>
        <Fact term={intl.formatMessage({ id: 'requests.settings.maxFiles', defaultMessage: 'Files per submission' })}>
          {request.maxFiles === null
            ? intl.formatMessage({ id: 'requests.settings.noFileLimit', defaultMessage: 'No limit' })
            : intl.formatMessage({ id: 'requests.settings.maxFilesValue', defaultMessage: 'At most {count, number}' }, { count: request.maxFiles })}
        </Fact>
        <Fact term={intl.formatMessage({ id: 'requests.settings.maxBytes', defaultMessage: 'Data per submission' })}>
          {request.maxBytes === null
            ? intl.formatMessage({ id: 'requests.settings.noSizeLimit', defaultMessage: 'No limit' })
            : intl.formatMessage({ id: 'requests.settings.maxBytesValue', defaultMessage: 'At most {size}' }, { size: formatBytes(request.maxBytes) })}
        </Fact>
        <Fact term={intl.formatMessage({ id: 'requests.settings.fileTypes', defaultMessage: 'File types' })}>
          {request.allowedTypes.length === 0 ? (
            intl.formatMessage({ id: 'requests.settings.anyType', defaultMessage: 'Any' })
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
        <Fact term={intl.formatMessage({ id: 'requests.settings.email', defaultMessage: 'Email address' })}>
          {request.requireEmail
            ? intl.formatMessage({ id: 'requests.settings.emailRequired', defaultMessage: 'Required' })
            : intl.formatMessage({ id: 'requests.settings.emailOptional', defaultMessage: 'Optional' })}
        </Fact>
        <Fact term={intl.formatMessage({ id: 'requests.settings.received', defaultMessage: 'Received' })}>
          {intl.formatMessage(
            { id: 'requests.settings.submissionCount', defaultMessage: '{count, plural, one {# submission} other {# submissions}}' },
            { count: request.submissionCount },
          )}
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage(
              { id: 'requests.settings.filesAndSize', defaultMessage: '{count, plural, one {# file} other {# files}} · {size}' },
              { count: request.fileCount, size: formatBytes(request.sizeBytes) },
            )}
          </span>
        </Fact>
        <Fact term={intl.formatMessage({ id: 'requests.settings.created', defaultMessage: 'Created' })}>
          <RelativeTime iso={request.createdAt} />
        </Fact>
      </dl>
      <div className="mt-4 border-t border-zinc-200 pt-4 dark:border-zinc-800">
        <h3 className="text-sm font-medium">{intl.formatMessage({ id: 'requests.settings.messageHeading', defaultMessage: 'Message to uploaders' })}</h3>
        {request.message ? (
          <p className="mt-1 text-sm break-words whitespace-pre-wrap text-zinc-700 dark:text-zinc-300">{request.message}</p>
        ) : (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'requests.settings.noMessage', defaultMessage: 'None: the page shows only the title.' })}
          </p>
        )}
      </div>
    </Section>
  );
}
