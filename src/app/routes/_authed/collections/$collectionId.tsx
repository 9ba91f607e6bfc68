import { OpenInItsWorkspace } from '../../../features/members/components/open-in-its-workspace';
import { createFileRoute, stripSearchParams, type ErrorComponentProps } from '@tanstack/react-router';
import { defineMessages } from 'react-intl';
import { PageHeader } from '../../../components/page-header';
import { resourceErrorComponent } from '../../../components/route-states';
import { useSession } from '../../../features/auth/api/get-session';
import { collectionQueryOptions } from '../../../features/collections/api/get-collection';
import { collectionFilesQueryOptions } from '../../../features/collections/api/get-collection-files';
import { foldersQueryOptions } from '../../../features/collections/api/get-folders';
import { CollectionBrowser } from '../../../features/collections/components/browser/collection-browser';
import { isUpgradeRequired, UpgradeNotice } from '../../../features/collections/components/upgrade-notice';
import { useIntl } from '../../../lib/intl';
import { validateCollectionBrowserSearch, defaultBrowserSearch } from '../../../features/collections/utils/browser-search';

export const Route = createFileRoute('/_authed/collections/$collectionId')({
  validateSearch: validateCollectionBrowserSearch,
  search: { middlewares: [stripSearchParams(defaultBrowserSearch)] },
  // The folder is not a dependency: every folder shows from the same three reads.
  loader: ({ context, params: { collectionId } }) =>
    Promise.all([
      context.queryClient.ensureQueryData(collectionQueryOptions(collectionId)),
      context.queryClient.ensureQueryData(foldersQueryOptions(collectionId)),
      context.queryClient.ensureQueryData(collectionFilesQueryOptions(collectionId)),
    ]),
  component: CollectionPage,
  errorComponent: CollectionErrorPage,
});

function CollectionPage() {
  const { collectionId } = Route.useParams();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <CollectionBrowser
      collectionId={collectionId}
      search={search}
      onSearchChange={(change, options) => void navigate({ search: (prev) => ({ ...prev, ...change }), replace: options?.replace })}
    />
  );
}

const missing = defineMessages({
  title: { id: 'pages.collection.notFound.title', defaultMessage: 'Collection not found' },
  description: { id: 'pages.collection.notFound.description', defaultMessage: 'There is no such collection in this workspace. It may have been deleted.' },
  back: { id: 'pages.collection.notFound.back', defaultMessage: 'All collections' },
});

const notFound = resourceErrorComponent({
  title: missing.title,
  description: missing.description,
  back: { to: '/collections', label: missing.back },
  elsewhere: <OpenInItsWorkspace param="collectionId" />,
});

/** A free workspace's 402 is not a failure: it gets what collections are and how to have them, as the grid does. */
function CollectionErrorPage(props: ErrorComponentProps) {
  if (!isUpgradeRequired(props.error)) return notFound(props);
  return <CollectionUpgradePage />;
}

function CollectionUpgradePage() {
  const intl = useIntl();
  const session = useSession();
  return (
    <>
      <PageHeader title={intl.formatMessage({ id: 'pages.collection.upgradeTitle', defaultMessage: 'Collections' })} />
      <UpgradeNotice isOperator={session.user.isOperator} />
    </>
  );
}
