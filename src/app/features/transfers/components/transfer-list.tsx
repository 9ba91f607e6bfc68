import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { Button, buttonClass } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import type { TransferSummary } from '../../../../contract/transfers';
import { useTransfers, type TransferListFilters } from '../api/get-transfers';
import { TransferRow, transferGrid } from './transfer-row';

/** Rows under a column header (the header is for sighted users; each row's facts carry their own labels). */
export function TransferRows({ transfers }: { transfers: TransferSummary[] }) {
  const intl = useIntl();
  const columns = [
    { key: 'transfer', label: intl.formatMessage({ id: 'transfers.list.column.transfer', defaultMessage: 'Transfer' }) },
    { key: 'files', label: intl.formatMessage({ id: 'transfers.list.column.files', defaultMessage: 'Files' }) },
    { key: 'recipients', label: intl.formatMessage({ id: 'transfers.list.column.recipients', defaultMessage: 'Recipients' }) },
    { key: 'downloads', label: intl.formatMessage({ id: 'transfers.list.column.downloads', defaultMessage: 'Downloads' }) },
    { key: 'expiry', label: intl.formatMessage({ id: 'transfers.list.column.expiry', defaultMessage: 'Expiry' }) },
    { key: 'actions', label: intl.formatMessage({ id: 'transfers.list.column.actions', defaultMessage: 'Actions' }) },
  ];
  return (
    <div className="md:overflow-hidden md:rounded-lg md:border md:border-zinc-200 md:dark:border-zinc-800">
      <div
        aria-hidden="true"
        className={`hidden bg-zinc-50 px-4 py-2 text-xs font-medium tracking-wide text-zinc-600 uppercase md:grid ${transferGrid} md:gap-4 md:border-b md:border-zinc-200 dark:bg-zinc-900/60 dark:text-zinc-400 md:dark:border-zinc-800`}
      >
        {columns.map((column) => (
          <span key={column.key} className={column.key === 'actions' ? 'sr-only' : ''}>
            {column.label}
          </span>
        ))}
      </div>
      <ul className="space-y-3 md:space-y-0">
        {transfers.map((transfer) => (
          <TransferRow key={transfer.id} transfer={transfer} />
        ))}
      </ul>
    </div>
  );
}

/**
 * Pages load as the end of the list scrolls into view; the "Load more" button does the same for
 * keyboards, assistive technology and browsers without IntersectionObserver.
 */
export function TransferList({ filters, everything = false }: { filters: TransferListFilters; everything?: boolean }) {
  const intl = useIntl();
  const { data, error, hasNextPage, isFetchingNextPage, fetchNextPage } = useTransfers(filters);
  const transfers = data.pages.flatMap((page) => page.transfers);
  const sentinelRef = useRef<HTMLDivElement>(null);
  const canLoadMore = hasNextPage && !isFetchingNextPage && !error;

  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || !canLoadMore || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) void fetchNextPage();
      },
      { rootMargin: '400px 0px' },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, [canLoadMore, fetchNextPage]);

  if (transfers.length === 0) {
    const filtered = !everything || filters.q !== '';
    return filtered ? (
      <EmptyState title={intl.formatMessage({ id: 'transfers.list.noMatchTitle', defaultMessage: 'No transfers match' })}>
        {intl.formatMessage({ id: 'transfers.list.noMatchBody', defaultMessage: 'Try another status, or search for a different title.' })}
      </EmptyState>
    ) : (
      <EmptyState
        title={
          everything
            ? intl.formatMessage({ id: 'transfers.list.nothingSent', defaultMessage: 'Nothing sent yet' })
            : intl.formatMessage({ id: 'transfers.list.noTransfers', defaultMessage: 'No transfers yet' })
        }
      >
        <p>{intl.formatMessage({ id: 'transfers.list.emptyBody', defaultMessage: 'Send files to anyone by link or email.' })}</p>
        <Link to="/transfers/new" className={buttonClass('primary', 'mt-4')}>
          {intl.formatMessage({ id: 'transfers.list.sendFirst', defaultMessage: 'Send your first transfer' })}
        </Link>
      </EmptyState>
    );
  }

  return (
    <section aria-labelledby="transfer-list-heading">
      <h2 id="transfer-list-heading" className={everything ? 'mb-3 text-base font-semibold' : 'sr-only'}>
        {everything
          ? intl.formatMessage({ id: 'transfers.list.sentHeading', defaultMessage: 'Sent' })
          : intl.formatMessage({ id: 'transfers.list.yourTransfers', defaultMessage: 'Your transfers' })}
      </h2>
      <TransferRows transfers={transfers} />
      <div ref={sentinelRef} />
      <FormError error={error} className="mt-4" />
      <div className="mt-6 flex justify-center">
        {hasNextPage ? (
          <Button variant="secondary" onClick={() => void fetchNextPage()} disabled={isFetchingNextPage}>
            {isFetchingNextPage
              ? intl.formatMessage({ id: 'transfers.list.loadingMore', defaultMessage: 'Loading more…' })
              : intl.formatMessage({ id: 'transfers.list.loadMore', defaultMessage: 'Load more' })}
          </Button>
        ) : (
          <p className="text-sm text-zinc-500 dark:text-zinc-400">{intl.formatMessage({ id: 'transfers.list.end', defaultMessage: 'That’s all your transfers.' })}</p>
        )}
      </div>
    </section>
  );
}
