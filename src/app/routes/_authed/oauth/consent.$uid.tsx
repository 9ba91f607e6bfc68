import { createFileRoute } from '@tanstack/react-router';
import { resourceErrorComponent } from '../../../components/route-states';
import { useSession } from '../../../features/auth/api/get-session';
import { consentQueryOptions } from '../../../features/oauth/api/oauth-api';
import { ConsentPage } from '../../../features/oauth/components/consent-page';

/** Where the authorization server sends the owner to approve an AI assistant (an OAuth client); signed-in owners only. */
export const Route = createFileRoute('/_authed/oauth/consent/$uid')({
  loader: ({ context, params }) => context.queryClient.ensureQueryData(consentQueryOptions(params.uid)),
  component: ConsentRoute,
  errorComponent: resourceErrorComponent({
    title: 'This request has expired',
    description: 'The app’s request to connect is no longer open (they last ten minutes) or was already answered. Start again from the app.',
    back: { to: '/settings', label: 'Settings' },
  }),
});

function ConsentRoute() {
  const { uid } = Route.useParams();
  const session = useSession();
  return <ConsentPage uid={uid} workspaceName={session.workspace.name} />;
}
