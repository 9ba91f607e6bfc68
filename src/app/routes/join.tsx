import { createFileRoute } from '@tanstack/react-router';
import { SignedOutShell } from '../components/layout/signed-out-shell';
import { JoinPage } from '../features/members/components/join-page';
import { useIntl } from '../lib/intl';
import { useDocumentTitle } from '../lib/use-document-title';

interface JoinSearch {
  /** The invitation's token from the mailed link. */
  token?: string;
}

/** An invitation's link: open whether or not someone is signed in (the page says what to do). */
export const Route = createFileRoute('/join')({
  validateSearch: (search: Record<string, unknown>): JoinSearch => ({
    token: typeof search.token === 'string' && /^[A-Za-z0-9]{1,100}$/.test(search.token) ? search.token : undefined,
  }),
  component: JoinRoute,
});

function JoinRoute() {
  const intl = useIntl();
  useDocumentTitle(intl.formatMessage({ id: 'pages.join.title', defaultMessage: 'Join a workspace' }));
  return (
    <SignedOutShell>
      <JoinPage token={Route.useSearch().token} />
    </SignedOutShell>
  );
}
