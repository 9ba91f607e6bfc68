import { createFileRoute } from '@tanstack/react-router';
import { useCallback } from 'react';
import { CollectionPage } from '../../features/recipient/components/collection-page';
import { RecipientShell } from '../../features/recipient/components/recipient-shell';
import { validateCollectionPageSearch } from '../../features/recipient/utils/collection-search';

/** A collection's secret link. Public by design: no sign-in, no workspace credential, nothing of the dashboard. */
export const Route = createFileRoute('/c/$slug')({
  validateSearch: validateCollectionPageSearch,
  component: CollectionRoute,
});

function CollectionRoute() {
  const { slug } = Route.useParams();
  const { folder, guest } = Route.useSearch();
  const navigate = Route.useNavigate();
  const dropGuestToken = useCallback(() => void navigate({ search: (prev) => ({ ...prev, guest: undefined }), replace: true }), [navigate]);
  return (
    <RecipientShell wide footer="Files are shared with Parcel. Downloads resume in your browser if the connection drops.">
      {/* A new slug is a new visit: fresh unlock state and queries. */}
      <CollectionPage
        key={slug}
        slug={slug}
        pagePath={`/c/${encodeURIComponent(slug)}`}
        folderId={folder}
        guestToken={guest}
        onGuestTokenUsed={dropGuestToken}
      />
    </RecipientShell>
  );
}
