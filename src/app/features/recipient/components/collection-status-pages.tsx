import { isApiRequestError } from '../../../lib/api-error';
import { useIntl } from '../../../lib/intl';
import { GuestSignInPage } from './guest-sign-in';
import { LoadFailedPage, StatusPage } from './status-pages';

/** How long a mailed sign-in link works. */
const SIGN_IN_LINK_MINUTES = 15;

/**
 * What a collection's page shows when the collection can't be shown. Each says only what the
 * visitor can do next: a guests-only collection looks the same to a stranger, a removed guest and
 * someone who mistyped nothing, and an unknown link the same as a deleted collection.
 */
export function CollectionErrorPage({ slug, error, onRetry }: { slug: string; error: unknown; onRetry: () => void }) {
  const intl = useIntl();
  if (isApiRequestError(error)) {
    if (error.status === 403 && error.code === 'guests_only') return <GuestsOnlyPage slug={slug} />;
    if (error.status === 404) {
      return (
        <StatusPage title={intl.formatMessage({ id: 'status.linkNotFound', defaultMessage: "This link doesn't work" })}>
          <p>
            {intl.formatMessage({
              id: 'collection.notFoundHelp',
              defaultMessage: 'The collection may have been removed, or the link copied only in part. Ask whoever shared it for a new link.',
            })}
          </p>
        </StatusPage>
      );
    }
    if (error.status === 410 && error.details.reason === 'deleted') {
      return (
        <StatusPage title={intl.formatMessage({ id: 'collection.deleted', defaultMessage: 'This collection was deleted' })}>
          <p>
            {intl.formatMessage({
              id: 'collection.deletedHelp',
              defaultMessage: 'Whoever shared it has deleted it, with its files. Ask them if you still need something from it.',
            })}
          </p>
        </StatusPage>
      );
    }
    if (error.status === 410) {
      return (
        <StatusPage title={intl.formatMessage({ id: 'collection.suspended', defaultMessage: 'This collection is not available right now' })}>
          <p>
            {intl.formatMessage({
              id: 'collection.suspendedHelp',
              defaultMessage: 'The service that hosts it has paused the account that shares it. Ask whoever shared it with you about it.',
            })}
          </p>
        </StatusPage>
      );
    }
  }
  return <LoadFailedPage what="collection" error={error} onRetry={onRetry} />;
}

/** A private collection to anyone without a guest session: strangers, signed-out guests and removed guests alike. */
export function GuestsOnlyPage({ slug }: { slug: string }) {
  const intl = useIntl();
  return (
    <GuestSignInPage slug={slug} title={intl.formatMessage({ id: 'collection.guestsOnly', defaultMessage: 'This collection is shared with invited guests' })}>
      <p>
        {intl.formatMessage({
          id: 'collection.guestsOnlyHelp',
          defaultMessage: "If you were invited, enter your email address and we'll send you a link to sign in.",
        })}
      </p>
    </GuestSignInPage>
  );
}

/** A sign-in link opened after its 15 minutes, or a second time. */
export function GuestLinkExpiredPage({ slug }: { slug: string }) {
  const intl = useIntl();
  return (
    <GuestSignInPage slug={slug} title={intl.formatMessage({ id: 'collection.signInLinkExpired', defaultMessage: 'This sign-in link has expired' })}>
      <p>
        {intl.formatMessage(
          {
            id: 'collection.signInLinkExpiredHelp',
            defaultMessage: 'Sign-in links work once, for {minutes, plural, one {# minute} other {# minutes}}. Enter your email address to get a new one.',
          },
          { minutes: SIGN_IN_LINK_MINUTES },
        )}
      </p>
    </GuestSignInPage>
  );
}
