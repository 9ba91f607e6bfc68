import { useIntl } from '../../../lib/intl';
import { useDrafts, type TransferListFilters } from '../api/get-transfers';
import { TransferRows } from './transfer-list';

/** Unsent drafts, apart from the sent transfers: each can be opened (to send it) or discarded. */
export function DraftList({ filters }: { filters: Pick<TransferListFilters, 'q' | 'sort' | 'sentBy'> }) {
  const intl = useIntl();
  const { data } = useDrafts(filters);
  if (data.transfers.length === 0) return null;
  return (
    <section aria-labelledby="draft-list-heading" className="mb-8">
      <h2 id="draft-list-heading" className="mb-1 text-base font-semibold">
        {intl.formatMessage({ id: 'transfers.drafts.heading', defaultMessage: 'Not sent yet' })}
      </h2>
      <p className="mb-3 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'transfers.drafts.lead', defaultMessage: 'Drafts nobody can download yet. Unsent drafts are deleted 24 hours after they were started.' })}
      </p>
      <TransferRows transfers={data.transfers} />
    </section>
  );
}
