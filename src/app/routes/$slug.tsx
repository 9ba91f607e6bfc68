import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { NotFoundPage } from '../components/route-states';
import { CollectionPage } from '../features/recipient/components/collection-page';
import { RecipientShell } from '../features/recipient/components/recipient-shell';
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
  return isCustomDomain() ? <CustomDomainCollection /> : <NotFoundPage />;
}

function CustomDomainCollection() {
  const { slug } = Route.useParams();
  const { folder, guest } = Route.useSearch();
  const navigate = Route.useNavigate();
  const dropGuestToken = useCallback(() => void navigate({ search: (prev) => ({ ...prev, guest: undefined }), replace: true }), [navigate]);
  return (
    <RecipientShell wide footer="Files are shared with Parcel. Downloads resume in your browser if the connection drops.">
      <CollectionPage key={slug} slug={slug} pagePath={`/${encodeURIComponent(slug)}`} folderId={folder} guestToken={guest} onGuestTokenUsed={dropGuestToken} />
    </RecipientShell>
  );
}
