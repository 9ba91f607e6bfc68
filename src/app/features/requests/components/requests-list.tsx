import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { defineMessages } from 'react-intl';
import type { UploadRequest } from '../../../../contract/requests';
import { EmptyState } from '../../../components/empty-state';
import { RelativeTime } from '../../../components/relative-time';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { MadeBy } from '../../transfers';
import { useCollectionTitles } from '../api/destination';
import { useUploadRequests } from '../api/get-requests';
import { DestinationLink } from './destination-link';
import { NewRequestButton } from './new-request-button';
import { RequestStatusBadges } from './request-status-badges';

const columns = defineMessages({
  request: { id: 'requests.list.column.request', defaultMessage: 'Request' },
  collection: { id: 'requests.list.column.collection', defaultMessage: 'Collection' },
  submissions: { id: 'requests.list.column.submissions', defaultMessage: 'Submissions' },
  files: { id: 'requests.list.column.files', defaultMessage: 'Files' },
  lastActivity: { id: 'requests.list.column.lastActivity', defaultMessage: 'Last activity' },
});

/** The list's columns from `md` up, shared by its header row and every row. */
const grid = 'md:grid-cols-[minmax(0,2.2fr)_minmax(0,1.5fr)_minmax(0,0.9fr)_minmax(0,1.1fr)_minmax(0,1fr)]';

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-zinc-500 md:sr-only dark:text-zinc-400">{term}</dt>
      <dd className="truncate text-sm">{children}</dd>
    </div>
  );
}

/** One request: a card on a phone, a row of columns from `md` up. The title's link covers the card; the collection's link sits above it. */
function RequestRow({ request, collectionTitle }: { request: UploadRequest; collectionTitle: string | undefined }) {
  const intl = useIntl();
  return (
    <li
      className={`relative rounded-lg border border-zinc-200 bg-white p-4 focus-within:ring-2 focus-within:ring-indigo-500 hover:border-zinc-300 md:grid ${grid} md:items-center md:gap-4 md:rounded-none md:border-0 md:border-b md:px-4 md:py-3 md:last:border-b-0 dark:border-zinc-800 dark:bg-zinc-900 dark:hover:border-zinc-700`}
    >
      <div className="min-w-0">
        <h3 className="truncate font-medium">
          <Link to="/requests/$requestId" params={{ requestId: request.id }} className="after:absolute after:inset-0 after:content-[''] focus:outline-none">
            {request.title}
          </Link>
        </h3>
        <div className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1">
          <RequestStatusBadges request={request} />
          <MadeBy by={request.createdBy} verb="made" />
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 md:col-span-4 md:mt-0 md:grid-cols-subgrid">
        <Fact term={intl.formatMessage(columns.collection)}>
          <span className="relative z-10">
            <DestinationLink collectionId={request.collectionId} title={collectionTitle} />
          </span>
        </Fact>
        <Fact term={intl.formatMessage(columns.submissions)}>
          {intl.formatMessage(
            { id: 'requests.list.submissionCount', defaultMessage: '{count, plural, one {# submission} other {# submissions}}' },
            { count: request.submissionCount },
          )}
        </Fact>
        <Fact term={intl.formatMessage(columns.files)}>
          {intl.formatMessage(
            { id: 'requests.list.filesAndSize', defaultMessage: '{count, plural, one {# file} other {# files}} · {size}' },
            { count: request.fileCount, size: formatBytes(request.sizeBytes) },
          )}
        </Fact>
        <Fact term={intl.formatMessage(columns.lastActivity)}>
          <RelativeTime iso={request.lastSubmissionAt ?? request.updatedAt} />
        </Fact>
      </dl>
    </li>
  );
}

/** Every upload request, newest first; readable on the free plan too (a paid plan that ended keeps them). */
export function RequestsList() {
  const intl = useIntl();
  const { data: requests } = useUploadRequests();
  const titles = useCollectionTitles();

  if (requests.length === 0) {
    return (
      <EmptyState title={intl.formatMessage({ id: 'requests.list.emptyTitle', defaultMessage: 'No upload requests yet' })}>
        <p>
          {intl.formatMessage({
            id: 'requests.list.emptyText',
            defaultMessage:
              'An upload request is a link you send to anyone (a client returning documents, a photographer delivering a shoot) so they can drop files straight into one of your collections, without an account. You choose the folder, a deadline, limits and file types, and see every submission here.',
          })}
        </p>
        <div className="mt-6">
          <NewRequestButton label={intl.formatMessage({ id: 'requests.list.createFirst', defaultMessage: 'Create your first request' })} />
        </div>
      </EmptyState>
    );
  }

  return (
    <section aria-labelledby="requests-count">
      <h2 id="requests-count" className="mb-3 text-sm font-medium text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'requests.list.count', defaultMessage: '{count, plural, one {# request} other {# requests}}' }, { count: requests.length })}
      </h2>
      <div className="md:overflow-hidden md:rounded-lg md:border md:border-zinc-200 md:bg-white md:dark:border-zinc-800 md:dark:bg-zinc-900">
        <div
          aria-hidden="true"
          className={`hidden bg-zinc-50 px-4 py-2 text-xs font-medium tracking-wide text-zinc-600 uppercase md:grid ${grid} md:gap-4 md:border-b md:border-zinc-200 dark:bg-zinc-900/60 dark:text-zinc-400 md:dark:border-zinc-800`}
        >
          {Object.entries(columns).map(([key, column]) => (
            <span key={key}>{intl.formatMessage(column)}</span>
          ))}
        </div>
        <ul className="space-y-3 md:space-y-0">
          {requests.map((request) => (
            <RequestRow key={request.id} request={request} collectionTitle={request.collectionId ? titles?.get(request.collectionId) : undefined} />
          ))}
        </ul>
      </div>
    </section>
  );
}
