import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { useIntl } from '../../../lib/intl';
import { CollectionPage } from './collection-page';
import { RecipientShell } from './recipient-shell';

/**
 * A collection's page as its visitors see it, at whatever address serves it (`/c/<slug>`, or
 * `/<slug>` on a workspace's own domain). A new slug is a new visit: fresh unlock state and queries.
 */
export function SharedCollectionScreen({ slug, pagePath, folder, guest }: { slug: string; pagePath: string; folder?: string; guest?: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  // The one-time sign-in token leaves the address once used, so a reload or a shared URL never carries it.
  const dropGuestToken = useCallback(
    () => void navigate({ to: '.', search: (prev: Record<string, unknown>) => ({ ...prev, guest: undefined }), replace: true }),
    [navigate],
  );
  return (
    <RecipientShell
      wide
      footer={intl.formatMessage({
        id: 'collection.footer',
        defaultMessage: 'Files are shared with Parcel. Downloads resume in your browser if the connection drops.',
      })}
    >
      <CollectionPage key={slug} slug={slug} pagePath={pagePath} folderId={folder} guestToken={guest} onGuestTokenUsed={dropGuestToken} />
    </RecipientShell>
  );
}
