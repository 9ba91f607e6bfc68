import { createFileRoute } from '@tanstack/react-router';
import { PageHeader } from '../../components/page-header';
import { useSession } from '../../features/auth/api/get-session';
import { apiKeysQueryOptions } from '../../features/keys/api/get-api-keys';
import { ApiKeyList } from '../../features/keys/components/api-key-list';
import { CreateApiKeySection } from '../../features/keys/components/create-api-key-section';
import { useIntl } from '../../lib/intl';

export const Route = createFileRoute('/_authed/keys')({
  loader: ({ context }) => context.queryClient.ensureQueryData(apiKeysQueryOptions()),
  component: KeysPage,
});

function KeysPage() {
  const intl = useIntl();
  const session = useSession();
  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.keys.title', defaultMessage: 'API keys' })}
        description={intl.formatMessage({
          id: 'pages.keys.description',
          defaultMessage: 'Keys let scripts and integrations call the Parcel API on behalf of this workspace. Give each key only the scopes it needs.',
        })}
      />
      <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_26rem]">
        <div className="lg:order-2">
          <CreateApiKeySection plan={session.workspace.plan} />
        </div>
        <div className="lg:order-1">
          <ApiKeyList />
        </div>
      </div>
    </>
  );
}
