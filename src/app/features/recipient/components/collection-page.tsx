import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { SkeletonCard } from '../../../components/skeleton';
import { isApiRequestError } from '../../../lib/api-error';
import { useIntl } from '../../../lib/intl';
import { collectionKeys, endGuestSession, publicCollectionQueryOptions, startGuestSession, unlockCollection } from '../api/public-collection-api';
import { useCollectionRefusal } from '../api/use-collection-refusal';
import { forgetUnlock, rememberedUnlock, rememberUnlock } from '../utils/unlock-store';
import { CollectionBrowser } from './collection-browser';
import { CollectionErrorPage, GuestLinkExpiredPage } from './collection-status-pages';
import { PasswordForm } from './password-form';

const isPasswordRequired = (error: unknown) => isApiRequestError(error) && error.status === 401 && error.code !== 'wrong_password';

export interface CollectionPageProps {
  slug: string;
  /** Where the page is: `/c/<slug>`, or `/<slug>` on a workspace's own domain. A password's unlock is kept for this path. */
  pagePath: string;
  /** The folder being viewed (the `folder` search parameter); undefined at the top level. */
  folderId: string | undefined;
  /** The `guest` parameter of a mailed sign-in link, until it has been traded for the guest cookie. */
  guestToken: string | undefined;
  /** Takes the sign-in token out of the address once used, so it is neither bookmarked nor shared. */
  onGuestTokenUsed: () => void;
}

/**
 * The page of a collection's secret link, for anyone it was shared with: visitors of a public link,
 * holders of its password, and invited guests. Every refusal from any request of the page lands
 * here (useCollectionRefusal) and replaces the browser with the page that says what to do.
 */
export function CollectionPage({ slug, pagePath, folderId, guestToken, onGuestTokenUsed }: CollectionPageProps) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  // The unlock lasts for the browser session: a reload or another tab of this link keeps it.
  const [unlockToken, setUnlockToken] = useState<string | null>(() => rememberedUnlock(slug));
  const signIn = useGuestSignInLink(slug, guestToken, onGuestTokenUsed);
  // Nothing of the collection is asked for until a sign-in link in the address has been traded (or turned out unusable).
  const collection = useQuery({ ...publicCollectionQueryOptions(slug, unlockToken), enabled: !signIn.pending && !signIn.error });
  const { refusal, clear } = useCollectionRefusal(slug);
  const [signedOut, setSignedOut] = useState(false);

  const signOut = useMutation({
    mutationKey: collectionKeys.mutation(slug, 'guest-sign-out'),
    mutationFn: () => endGuestSession(slug),
    onSuccess: () => {
      setSignedOut(true);
      clear();
      void queryClient.resetQueries({ queryKey: collectionKeys.all(slug) });
    },
  });

  useEffect(() => {
    // The unlock ran out (it lasts an hour) or the password changed while the page was open: ask again.
    if (isPasswordRequired(refusal) && unlockToken !== null) {
      forgetUnlock(slug, pagePath);
      setUnlockToken(null);
      clear();
    }
  }, [refusal, unlockToken, slug, pagePath, clear]);

  const loadingLabel = intl.formatMessage({ id: 'collection.loading', defaultMessage: 'Loading collection' });
  if (signIn.pending) return <SkeletonCard label={intl.formatMessage({ id: 'collection.signingIn', defaultMessage: 'Signing you in' })} />;
  if (signIn.error) {
    if (isApiRequestError(signIn.error) && signIn.error.status === 410 && signIn.error.details.reason === 'expired')
      return <GuestLinkExpiredPage slug={slug} />;
    return <CollectionErrorPage slug={slug} error={signIn.error} onRetry={signIn.retry} />;
  }

  const error = refusal ?? collection.error;
  if (error) {
    if (isPasswordRequired(error)) {
      if (unlockToken !== null) return <SkeletonCard label={loadingLabel} />;
      return (
        <PasswordForm
          heading={intl.formatMessage({ id: 'collection.protected', defaultMessage: 'This collection is protected' })}
          lead={intl.formatMessage({ id: 'collection.protectedLead', defaultMessage: 'Enter the password you were given to see its files.' })}
          unlock={(password) => unlockCollection(slug, password)}
          mutationKey={collectionKeys.mutation(slug, 'unlock')}
          onUnlocked={({ unlockToken: token, expiresAt }) => {
            rememberUnlock(slug, token, expiresAt, pagePath);
            clear();
            setUnlockToken(token);
          }}
        />
      );
    }
    return (
      <>
        {signedOut ? (
          <p role="status" className="mb-2 text-center text-sm text-zinc-700 dark:text-zinc-300">
            {intl.formatMessage({ id: 'collection.signedOut', defaultMessage: 'You signed out.' })}
          </p>
        ) : null}
        <CollectionErrorPage
          slug={slug}
          error={error}
          onRetry={() => {
            clear();
            void collection.refetch();
          }}
        />
      </>
    );
  }
  if (!collection.data) return <SkeletonCard label={loadingLabel} />;

  return (
    <CollectionBrowser
      slug={slug}
      collection={collection.data}
      unlockToken={unlockToken}
      folderId={folderId}
      onSignOut={() => signOut.mutate()}
      signingOut={signOut.isPending}
    />
  );
}

/**
 * Trades a mailed sign-in link's token for the guest cookie, once (effects run twice in
 * development), before anything else of the collection is asked for; then takes the token out of
 * the address. A link that no longer works is taken out too: it never will again.
 */
function useGuestSignInLink(slug: string, token: string | undefined, onUsed: () => void) {
  const queryClient = useQueryClient();
  const tried = useRef<string | null>(null);
  const exchange = useMutation({
    mutationKey: collectionKeys.mutation(slug, 'guest-session'),
    mutationFn: (value: string) => startGuestSession(slug, value),
    onSuccess: () => queryClient.resetQueries({ queryKey: collectionKeys.all(slug) }),
  });
  const { mutate } = exchange;

  useEffect(() => {
    if (!token || tried.current === token) return;
    tried.current = token;
    mutate(token, {
      onSettled: (_, error) => {
        if (!error || (isApiRequestError(error) && error.status >= 400 && error.status < 500)) onUsed();
      },
    });
  }, [token, mutate, onUsed]);

  return {
    pending: exchange.isPending || (token !== undefined && exchange.isIdle),
    error: exchange.error,
    retry: () => {
      if (token) mutate(token);
    },
  };
}
