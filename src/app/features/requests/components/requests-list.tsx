import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { UploadRequest } from '../../../../contract/requests';
import { EmptyState } from '../../../components/empty-state';
import { RelativeTime } from '../../../components/relative-time';
import { formatBytes, plural } from '../../../lib/format';
import { useCollectionTitles } from '../api/destination';
import { useUploadRequests } from '../api/get-requests';
import { DestinationLink } from './destination-link';
import { NewRequestButton } from './new-request-button';
import { RequestStatusBadges } from './request-status-badges';

const columns = ['Request', 'Collection', 'Submissions', 'Files', 'Last activity'];

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
        <div className="mt-1">
          <RequestStatusBadges request={request} />
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-2 gap-x-4 gap-y-2 md:col-span-4 md:mt-0 md:grid-cols-subgrid">
        <Fact term="Collection">
          <span className="relative z-10">
            <DestinationLink collectionId={request.collectionId} title={collectionTitle} />
          </span>
        </Fact>
        <Fact term="Submissions">{plural(request.submissionCount, 'submission', 'submissions')}</Fact>
        <Fact term="Files">{`${plural(request.fileCount, 'file', 'files')} · ${formatBytes(request.sizeBytes)}`}</Fact>
        <Fact term="Last activity">
          <RelativeTime iso={request.lastSubmissionAt ?? request.updatedAt} />
        </Fact>
      </dl>
    </li>
  );
}

/** Every upload request, newest first; readable on the free plan too (a paid plan that ended keeps them). */
export function RequestsList() {
  const { data: requests } = useUploadRequests();
  const titles = useCollectionTitles();

  if (requests.length === 0) {
    return (
      <EmptyState title="No upload requests yet">
        <p>
          An upload request is a link you send to anyone (a client returning documents, a photographer delivering a shoot) so they can drop files straight into
          one of your collections, without an account. You choose the folder, a deadline, limits and file types, and see every submission here.
        </p>
        <div className="mt-6">
          <NewRequestButton label="Create your first request" />
        </div>
      </EmptyState>
    );
  }

  return (
    <section aria-labelledby="requests-count">
      <h2 id="requests-count" className="mb-3 text-sm font-medium text-zinc-600 dark:text-zinc-400">
        {plural(requests.length, 'request', 'requests')}
      </h2>
      <div className="md:overflow-hidden md:rounded-lg md:border md:border-zinc-200 md:bg-white md:dark:border-zinc-800 md:dark:bg-zinc-900">
        <div
          aria-hidden="true"
          className={`hidden bg-zinc-50 px-4 py-2 text-xs font-medium tracking-wide text-zinc-600 uppercase md:grid ${grid} md:gap-4 md:border-b md:border-zinc-200 dark:bg-zinc-900/60 dark:text-zinc-400 md:dark:border-zinc-800`}
        >
          {columns.map((column) => (
            <span key={column}>{column}</span>
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
