import { createFileRoute } from '@tanstack/react-router';
import { NotFoundPage } from '../components/route-states';
import { SharedCollectionScreen } from '../features/recipient/components/shared-collection-screen';
import { validateCollectionPageSearch } from '../features/recipient/utils/collection-search';
import { isCustomDomain } from '../lib/custom-domain';

/**
 * `/<slug>`: a collection's page on a workspace's own domain (the server serves it there only for a
 * collection with its custom link on). Anywhere else a one-segment path is simply not a page.
 */
export const Route = createFileRoute('/$slug')({
  validateSearch: validateCollectionPageSearch,
  component: CustomDomainCollectionRoute,
});

function CustomDomainCollectionRoute() {
  const { slug } = Route.useParams();
  const { folder, guest } = Route.useSearch();
  if (!isCustomDomain()) return <NotFoundPage />;
  return <SharedCollectionScreen slug={slug} pagePath={`/${encodeURIComponent(slug)}`} folder={folder} guest={guest} />;
}
