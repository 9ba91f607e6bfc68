import { RecipientPage } from './recipient-page';
import { RecipientShell } from './recipient-shell';

/** An end-to-end encrypted link carries its key in the fragment; its downloads are decrypted here and do not resume. */
const encryptedFooter = 'Files are sent with Parcel, end-to-end encrypted: they are decrypted in your browser, and only this link opens them.';

/**
 * A transfer's link as its recipient sees it (`/t/<slug>`), frame and all: rendered by the route in
 * the browser, and by the server for the first view of a plain transfer (src/server/public/first-view.tsx).
 */
export function RecipientScreen({ slug, recipientToken, encrypted }: { slug: string; recipientToken: string | undefined; encrypted: boolean }) {
  return (
    <RecipientShell {...(encrypted ? { footer: encryptedFooter } : {})}>
      {/* A new slug is a new visit: fresh unlock state and download session. */}
      <RecipientPage key={slug} slug={slug} recipientToken={recipientToken} />
    </RecipientShell>
  );
}
