import { createFileRoute } from '@tanstack/react-router';
import { defineMessages } from 'react-intl';
import { resourceErrorComponent } from '../../../components/route-states';
import { useSession } from '../../../features/auth/api/get-session';
import { consentQueryOptions } from '../../../features/oauth/api/oauth-api';
import { ConsentPage } from '../../../features/oauth/components/consent-page';

const expired = defineMessages({
  title: { id: 'pages.oauthConsent.expired.title', defaultMessage: 'This request has expired' },
  description: {
    id: 'pages.oauthConsent.expired.description',
    defaultMessage: 'The app’s request to connect is no longer open (they last ten minutes) or was already answered. Start again from the app.',
  },
  back: { id: 'pages.oauthConsent.expired.back', defaultMessage: 'Settings' },
});

/** Where the authorization server sends the owner to approve an AI assistant (an OAuth client); signed-in owners only. */
export const Route = createFileRoute('/_authed/oauth/consent/$uid')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(consentQueryOptions(params.uid)),
  component: ConsentRoute,
  errorComponent: resourceErrorComponent({
    title: expired.title,
    description: expired.description,
    back: { to: '/settings', label: expired.back },
  }),
});

function ConsentRoute() {
  const { uid } = Route.useParams();
  const session = useSession();
  return <ConsentPage uid={uid} workspaceName={session.workspace.name} />;
}
