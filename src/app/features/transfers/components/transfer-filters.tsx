import { useEffect, useId, useState } from 'react';
import { inputClass } from '../../../components/text-field';
import type { TransferListFilters, TransferListSort, TransferListStatus } from '../api/get-transfers';

export const statusFilters: { value: TransferListStatus | ''; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'draft', label: 'Drafts' },
  { value: 'active', label: 'Active' },
  { value: 'expired', label: 'Expired' },
  { value: 'removed', label: 'Revoked' },
];

export const sortOrders: { value: TransferListSort | ''; label: string }[] = [
  { value: '', label: 'Newest first' },
  { value: 'size', label: 'Largest first' },
  { value: 'expiry', label: 'Expiring soonest' },
];

export const senderFilters: { value: 'me' | ''; label: string }[] = [
  { value: '', label: 'Everyone' },
  { value: 'me', label: 'Me' },
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
function FilterSelect<V extends string>({ label, value, options, onChange }: { label: string; value: V; options: { value: V; label: string }[]; onChange: (value: V) => void }) {
  const id = useId();
  return (
    <div className="sm:w-48">
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
        {label}
      </label>
      <select id={id} value={value} onChange={(event) => onChange(event.target.value as V)} className={`${inputClass} mt-1`}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Status, order, sender (everyone's or mine), and search over titles and file names. The search waits until typing pauses, so each keystroke is not a request. */
export function TransferFilters({ filters, onStatusChange, onSortChange, onSentByChange, onSearch }: TransferFiltersProps) {
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
    <form role="search" aria-label="Transfers" className="mb-6 flex flex-col gap-3 sm:flex-row sm:items-end" onSubmit={(event) => {
      event.preventDefault();
      onSearch(text.trim());
    }}>
      <FilterSelect label="Status" value={filters.status} options={statusFilters} onChange={onStatusChange} />
      <FilterSelect label="Sort" value={filters.sort} options={sortOrders} onChange={onSortChange} />
      <FilterSelect label="Sent by" value={filters.sentBy} options={senderFilters} onChange={onSentByChange} />
      <div className="min-w-0 flex-1">
        <label htmlFor={searchId} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Search titles and file names
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
