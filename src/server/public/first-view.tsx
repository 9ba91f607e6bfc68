import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import type { PublicPageData } from '../../contract/public-page.js';
import { publicTransferQueryOptions } from '../../app/features/recipient/api/public-api.js';
import { RecipientScreen } from '../../app/features/recipient/components/recipient-screen.js';

/**
 * A plain transfer's page as its first view, rendered with React from the page's data by the same
 * components the browser renders (RecipientScreen), so it paints as soon as the HTML and CSS have
 * arrived; the app replaces it with its own, identical render once its scripts have run. React
 * escapes every text it renders. Null for anything else: an end-to-end encrypted transfer is
 * opened in the browser with the key in the fragment, which the server never sees.
 */
export function renderFirstView(data: PublicPageData): string | null {
  if (data.page !== 'transfer' || data.transfer.e2ee) return null;
  const queryClient = new QueryClient();
  queryClient.setQueryData(publicTransferQueryOptions(data.slug, null).queryKey, data.transfer);
  return renderToString(
    <QueryClientProvider client={queryClient}>
      <RecipientScreen slug={data.slug} recipientToken={undefined} encrypted={false} />
    </QueryClientProvider>,
  );
}
