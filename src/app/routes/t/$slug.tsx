import { createFileRoute } from '@tanstack/react-router';
import { RecipientPage } from '../../features/recipient/components/recipient-page';
import { RecipientShell } from '../../features/recipient/components/recipient-shell';
import { useIntl } from '../../lib/intl';

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
  const intl = useIntl();
  const { slug } = Route.useParams();
  const { r } = Route.useSearch();
  const encrypted = typeof window !== 'undefined' && window.location.hash.startsWith('#v1.');
  // An end-to-end encrypted link carries its key in the fragment; its downloads are decrypted here and do not resume.
  const encryptedFooter = intl.formatMessage({
    id: 'pages.transferLink.encryptedFooter',
    defaultMessage: 'Files are sent with Parcel, end-to-end encrypted: they are decrypted in your browser, and only this link opens them.',
  });
  return (
    <RecipientShell {...(encrypted ? { footer: encryptedFooter } : {})}>
      {/* A new slug is a new visit: fresh unlock state and download session. */}
      <RecipientPage key={slug} slug={slug} recipientToken={r} />
    </RecipientShell>
  );
}
