import { createFileRoute } from '@tanstack/react-router';
import { RecipientScreen } from '../../features/recipient/components/recipient-screen';

interface RecipientSearch {
  /** A recipient's personal token, sent only as the session's recipientToken. */
  r?: string;
}

export const Route = createFileRoute('/t/$slug')({
  // A malformed `r` is dropped rather than failing the page: the link still works, unattributed.
  validateSearch: (search: Record<string, unknown>): RecipientSearch => ({
    r: typeof search.r === 'string' && search.r.length > 0 && search.r.length <= 200 ? search.r : undefined,
  }),
  component: RecipientRoute,
});

function RecipientRoute() {
  const { slug } = Route.useParams();
  const { r } = Route.useSearch();
  const encrypted = typeof window !== 'undefined' && window.location.hash.startsWith('#v1.');
  return <RecipientScreen slug={slug} recipientToken={r} encrypted={encrypted} />;
}
