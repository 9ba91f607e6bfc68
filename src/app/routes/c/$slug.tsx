import { createFileRoute } from '@tanstack/react-router';
import { SharedCollectionScreen } from '../../features/recipient/components/shared-collection-screen';
import { validateCollectionPageSearch } from '../../features/recipient/utils/collection-search';

/** A collection's secret link. Public by design: no sign-in, no workspace credential, nothing of the dashboard. */
export const Route = createFileRoute('/c/$slug')({
  validateSearch: validateCollectionPageSearch,
  component: CollectionRoute,
});

function CollectionRoute() {
  const { slug } = Route.useParams();
  const { folder, guest } = Route.useSearch();
  return <SharedCollectionScreen slug={slug} pagePath={`/c/${encodeURIComponent(slug)}`} folder={folder} guest={guest} />;
}
