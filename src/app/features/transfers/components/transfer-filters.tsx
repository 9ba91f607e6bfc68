import { useEffect, useId, useState } from 'react';
import { defineMessages, type MessageDescriptor } from 'react-intl';
import { inputClass } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import type { TransferListFilters, TransferListSort, TransferListStatus } from '../api/get-transfers';

const labels = defineMessages({
  statusAll: { id: 'transfers.filters.status.all', defaultMessage: 'All' },
  statusDraft: { id: 'transfers.filters.status.draft', defaultMessage: 'Drafts' },
  statusActive: { id: 'transfers.filters.status.active', defaultMessage: 'Active' },
  statusExpired: { id: 'transfers.filters.status.expired', defaultMessage: 'Expired' },
  statusRemoved: { id: 'transfers.filters.status.removed', defaultMessage: 'Revoked' },
  sortNewest: { id: 'transfers.filters.sort.newest', defaultMessage: 'Newest first' },
  sortSize: { id: 'transfers.filters.sort.size', defaultMessage: 'Largest first' },
  sortExpiry: { id: 'transfers.filters.sort.expiry', defaultMessage: 'Expiring soonest' },
  senderEveryone: { id: 'transfers.filters.sender.everyone', defaultMessage: 'Everyone' },
  senderMe: { id: 'transfers.filters.sender.me', defaultMessage: 'Me' },
});

export const statusFilters: { value: TransferListStatus | ''; label: MessageDescriptor }[] = [
  { value: '', label: labels.statusAll },
  { value: 'draft', label: labels.statusDraft },
  { value: 'active', label: labels.statusActive },
  { value: 'expired', label: labels.statusExpired },
  { value: 'removed', label: labels.statusRemoved },
];

export const sortOrders: { value: TransferListSort | ''; label: MessageDescriptor }[] = [
  { value: '', label: labels.sortNewest },
  { value: 'size', label: labels.sortSize },
  { value: 'expiry', label: labels.sortExpiry },
];

export const senderFilters: { value: 'me' | ''; label: MessageDescriptor }[] = [
  { value: '', label: labels.senderEveryone },
  { value: 'me', label: labels.senderMe },
];

const searchDelayMs = 300;

interface TransferFiltersProps {
  filters: TransferListFilters;
  onStatusChange: (status: TransferListStatus | '') => void;
  onSortChange: (sort: TransferListSort | '') => void;
  onSentByChange: (sentBy: 'me' | '') => void;
  onSearch: (q: string) => void;
}

/** One labelled choice of the filters row. */
function FilterSelect<V extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: V;
  options: { value: V; label: MessageDescriptor }[];
  onChange: (value: V) => void;
}) {
  const intl = useIntl();
  const id = useId();
  return (
    <div className="sm:w-48">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as V)} className={`${inputClass} mt-1`}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {intl.formatMessage(option.label)}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Status, order, sender (everyone's or mine), and search over titles and file names. The search waits until typing pauses, so each keystroke is not a request. */
export function TransferFilters({ filters, onStatusChange, onSortChange, onSentByChange, onSearch }: TransferFiltersProps) {
  const intl = useIntl();
  const searchId = useId();
  const [text, setText] = useState(filters.q);
  const [shownQ, setShownQ] = useState(filters.q);
  // The URL changed under us (back button, a link): show its search.
  if (filters.q !== shownQ) {
    setShownQ(filters.q);
    setText(filters.q);
  }

  useEffect(() => {
    const q = text.trim();
    if (q === filters.q) return;
    const timer = setTimeout(() => onSearch(q), searchDelayMs);
    return () => clearTimeout(timer);
  }, [text, filters.q, onSearch]);

  return (
    <form role="search" aria-label={intl.formatMessage({ id: 'transfers.filters.label', defaultMessage: 'Transfers' })} className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={(event) => {
      event.preventDefault();
      onSearch(text.trim());
    }}>
      <FilterSelect
        label={intl.formatMessage({ id: 'transfers.filters.statusLabel', defaultMessage: 'Status' })}
        value={filters.status}
        options={statusFilters}
        onChange={onStatusChange}
      />
      <FilterSelect label={intl.formatMessage({ id: 'transfers.filters.sortLabel', defaultMessage: 'Sort' })} value={filters.sort} options={sortOrders} onChange={onSortChange} />
      <FilterSelect
        label={intl.formatMessage({ id: 'transfers.filters.sentByLabel', defaultMessage: 'Sent by' })}
        value={filters.sentBy}
        options={senderFilters}
        onChange={onSentByChange}
      />
      <div className="min-w-0 flex-1">
        <label htmlFor={searchId} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {intl.formatMessage({ id: 'transfers.filters.search', defaultMessage: 'Search titles and file names' })}
        </label>
        <input
          id={searchId}
          type="search"
          value={text}
          maxLength={200}
          autoComplete="off"
          onChange={(event) => setText(event.target.value)}
          className={`${inputClass} mt-1`}
        />
      </div>
    </form>
  );
}
