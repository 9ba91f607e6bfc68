import { createFileRoute, Link, stripSearchParams } from '@tanstack/react-router';
import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { Suspense, useCallback } from 'react';
import { buttonClass } from '../../../components/button';
import { PageHeader } from '../../../components/page-header';
import { SkeletonList } from '../../../components/skeleton';
import {
  draftsQueryOptions,
  transfersInfiniteQueryOptions,
  type TransferListFilters,
  type TransferListSort,
  type TransferListStatus,
} from '../../../features/transfers/api/get-transfers';
import { DraftList } from '../../../features/transfers/components/draft-list';
import { QueryErrorBoundary } from '../../../components/query-error-boundary';
import { TransferFilters } from '../../../features/transfers/components/transfer-filters';
import { TransferList } from '../../../features/transfers/components/transfer-list';
import { defaultTransfersSearch, validateTransfersSearch } from '../../../features/transfers/utils/list-search';
import { useIntl } from '../../../lib/intl';

export const Route = createFileRoute('/_authed/transfers/')({
  validateSearch: validateTransfersSearch,
  search: { middlewares: [stripSearchParams(defaultTransfersSearch)] },
  loaderDeps: ({ search: { status, q, sort, sentBy } }) => ({ status, q, sort, sentBy }),
  // Prefetch, not ensure: a failed list is shown in place by the list (its message and a retry), under the page's header and filters.
  loader: ({ context, deps }) =>
    Promise.all([
      context.queryClient.prefetchInfiniteQuery(transfersInfiniteQueryOptions(listedFilters(deps))),
      deps.status === '' ? context.queryClient.prefetchQuery(draftsQueryOptions(deps)) : null,
    ]),
  component: TransfersPage,
});

/** "All" lists the drafts apart, above: the main list then holds what was sent. */
const listedFilters = (filters: TransferListFilters): TransferListFilters => (filters.status === '' ? { ...filters, status: 'sent' } : filters);

function TransfersPage() {
  const intl = useIntl();
  const filters = Route.useSearch();
  const navigate = Route.useNavigate();
  const onStatusChange = useCallback(
    (status: TransferListStatus | '') => void navigate({ search: (prev) => ({ ...prev, status }), replace: true }),
    [navigate],
  );
  const onSortChange = useCallback(
    (sort: TransferListSort | '') => void navigate({ search: (prev) => ({ ...prev, sort }), replace: true }),
    [navigate],
  );
  const onSearch = useCallback((q: string) => void navigate({ search: (prev) => ({ ...prev, q }), replace: true }), [navigate]);
  const onSentByChange = useCallback((sentBy: 'me' | '') => void navigate({ search: (prev) => ({ ...prev, sentBy }), replace: true }), [navigate]);

  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.transfers.title', defaultMessage: 'Transfers' })}
        description={intl.formatMessage({ id: 'pages.transfers.description', defaultMessage: 'Send files to anyone by link or email, with expiry and download limits.' })}
        actions={
          <Link to="/transfers/new" className={buttonClass('primary')}>
            {intl.formatMessage({ id: 'pages.transfers.new', defaultMessage: 'New transfer' })}
          </Link>
        }
      />
      <TransferFilters filters={filters} onStatusChange={onStatusChange} onSortChange={onSortChange} onSentByChange={onSentByChange} onSearch={onSearch} />
      <QueryErrorResetBoundary>
        {({ reset }) => (
          <QueryErrorBoundary onRetry={reset} resetKey={`${filters.status}\u0000${filters.q}\u0000${filters.sort}\u0000${filters.sentBy}`}>
            <Suspense fallback={<SkeletonList label={intl.formatMessage({ id: 'pages.transfers.loading', defaultMessage: 'Loading transfers' })} rows={5} />}>
              {filters.status === '' ? <DraftList filters={filters} /> : null}
              <TransferList filters={listedFilters(filters)} everything={filters.status === ''} />
            </Suspense>
          </QueryErrorBoundary>
        )}
      </QueryErrorResetBoundary>
    </>
  );
}
