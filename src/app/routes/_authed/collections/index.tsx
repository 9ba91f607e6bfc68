import { createFileRoute, type ErrorComponentProps } from '@tanstack/react-router';
import { defineMessages } from 'react-intl';
import { PageHeader } from '../../../components/page-header';
import { RouteErrorPage } from '../../../components/route-states';
import { useSession } from '../../../features/auth/api/get-session';
import { collectionsQueryOptions } from '../../../features/collections/api/get-collections';
import { CollectionsGrid } from '../../../features/collections/components/grid/collections-grid';
import { NewCollectionButton } from '../../../features/collections/components/grid/new-collection-button';
import { isUpgradeRequired, UpgradeNotice } from '../../../features/collections/components/upgrade-notice';
import { useIntl } from '../../../lib/intl';

const messages = defineMessages({
  title: { id: 'pages.collections.title', defaultMessage: 'Collections' },
  description: {
    id: 'pages.collections.description',
    defaultMessage: 'Folders of files that stay online, shared by link, with a password or only with the guests you invite.',
  },
});

export const Route = createFileRoute('/_authed/collections/')({
  loader: ({ context }) => context.queryClient.ensureQueryData(collectionsQueryOptions()),
  // A free workspace's 402 is not a failure to show: it gets what collections are and how to have them.
  errorComponent: CollectionsErrorPage,
  component: CollectionsPage,
});

function CollectionsPage() {
  const intl = useIntl();
  return (
    <>
      <PageHeader title={intl.formatMessage(messages.title)} description={intl.formatMessage(messages.description)} actions={<NewCollectionButton />} />
      <CollectionsGrid />
    </>
  );
}

function CollectionsErrorPage(props: ErrorComponentProps) {
  if (!isUpgradeRequired(props.error)) return <RouteErrorPage {...props} />;
  return <CollectionsUpgradePage />;
}

function CollectionsUpgradePage() {
  const intl = useIntl();
  const session = useSession();
  return (
    <>
      <PageHeader title={intl.formatMessage(messages.title)} description={intl.formatMessage(messages.description)} />
      <UpgradeNotice isOperator={session.user.isOperator} />
    </>
  );
}
