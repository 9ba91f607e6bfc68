import type { ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import { Button } from '../../../components/button';
import { isApiRequestError } from '../../../lib/api-error';
import { currentIntl, useIntl } from '../../../lib/intl';
import { useDocumentTitle } from '../../../lib/use-document-title';

/** What a 429 asks of the visitor, with the wait from its Retry-After. */
export function tooManyAttemptsMessage(error: { retryAfterSeconds?: number | undefined }, intl: IntlShape = currentIntl()): string {
  return error.retryAfterSeconds !== undefined
    ? intl.formatMessage(
        { id: 'status.tooManyAttemptsWait', defaultMessage: 'Too many attempts, try again in {seconds, plural, one {# second} other {# seconds}}.' },
        { seconds: Math.max(1, Math.ceil(error.retryAfterSeconds)) },
      )
    : intl.formatMessage({ id: 'status.tooManyAttempts', defaultMessage: 'Too many attempts, try again in a moment.' });
}

/** What a failed download session tells the visitor. */
export function sessionErrorMessage(error: unknown, intl: IntlShape = currentIntl()): string {
  if (isApiRequestError(error) && error.status === 429) return tooManyAttemptsMessage(error, intl);
  return error instanceof Error ? error.message : intl.formatMessage({ id: 'status.downloadsNotPrepared', defaultMessage: 'The downloads could not be prepared.' });
}

/** What a shared link leads to, as its pages name it. */
export type LinkThing = 'transfer' | 'collection' | 'upload page';

/** Session errors that mean the whole transfer can't be downloaded any more. */
export const isGone = (error: unknown) => isApiRequestError(error) && (error.status === 404 || error.status === 410);

/** A whole-page message of a shared link (unavailable, not found, signed out…): its heading, what to do, and maybe one action. */
export function StatusPage({ title, children, action }: { title: string; children: ReactNode; action?: ReactNode }) {
  useDocumentTitle(title);
  return (
    <section aria-labelledby="status-title" className="mx-auto max-w-lg py-8 text-center sm:py-16">
      <h1 id="status-title" className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
        {title}
      </h1>
      <div className="mt-3 text-zinc-700 dark:text-zinc-300">{children}</div>
      {action ? <div className="mt-8 flex justify-center">{action}</div> : null}
    </section>
  );
}

/** "Try again": reloads what could not be shown. */
function RetryButton({ onRetry }: { onRetry: () => void }) {
  const intl = useIntl();
  return (
    <Button onClick={onRetry} className="min-h-11 px-5">
      {intl.formatMessage({ id: 'status.tryAgain', defaultMessage: 'Try again' })}
    </Button>
  );
}

/**
 * The pages every shared link shows when its first read fails for no reason of its own: too many
 * requests from this address (with the wait), or anything else (with the error), each with "Try again".
 */
export function LoadFailedPage({ what, error, onRetry }: { what: LinkThing; error: unknown; onRetry: () => void }) {
  const intl = useIntl();
  if (isApiRequestError(error) && error.status === 429) {
    return (
      <StatusPage title={intl.formatMessage({ id: 'status.tooManyAttemptsTitle', defaultMessage: 'Too many attempts' })} action={<RetryButton onRetry={onRetry} />}>
        <p>{tooManyAttemptsMessage(error, intl)}</p>
      </StatusPage>
    );
  }
  const title = intl.formatMessage(
    {
      id: 'status.loadFailed',
      defaultMessage: "{what, select, transfer {This transfer couldn't be loaded} collection {This collection couldn't be loaded} other {This upload page couldn't be loaded}}",
    },
    { what },
  );
  return (
    <StatusPage title={title} action={<RetryButton onRetry={onRetry} />}>
      <p role="alert">{error instanceof Error ? error.message : intl.formatMessage({ id: 'status.somethingWrong', defaultMessage: 'Something went wrong. Try again.' })}</p>
    </StatusPage>
  );
}

/**
 * A shared link that leads nowhere: the same page for a mistyped link, one that never existed and
 * one whose thing is gone or not yet shared (a draft), for transfers and upload requests alike, so
 * nothing helps guessing links.
 */
export function LinkNotFoundPage() {
  const intl = useIntl();
  return (
    <StatusPage title={intl.formatMessage({ id: 'status.linkNotFound', defaultMessage: "This link doesn't work" })}>
      <p>{intl.formatMessage({ id: 'status.linkNotFoundHelp', defaultMessage: 'Check that you copied the whole link, or ask the sender for a new one.' })}</p>
    </StatusPage>
  );
}

/** A link of a workspace the operator has suspended (`410 link_unavailable`, `suspended`): `what` names the link's thing. */
export function SuspendedLinkPage({ what }: { what: LinkThing }) {
  const intl = useIntl();
  const title = intl.formatMessage(
    {
      id: 'status.suspended',
      defaultMessage:
        '{what, select, transfer {This transfer is not available right now} collection {This collection is not available right now} other {This upload link is not available right now}}',
    },
    { what },
  );
  return (
    <StatusPage title={title}>
      <p>{intl.formatMessage({ id: 'status.suspendedHelp', defaultMessage: 'The service that hosts it has paused the sender’s account. Ask the sender about it.' })}</p>
    </StatusPage>
  );
}

/** Why a transfer's link no longer opens, in the reader's words. */
function unavailablePage(reason: string, intl: IntlShape): { title: string; body: string } {
  switch (reason) {
    case 'expired':
      return {
        title: intl.formatMessage({ id: 'status.expired', defaultMessage: 'This transfer has expired' }),
        body: intl.formatMessage({ id: 'status.expiredHelp', defaultMessage: 'Its files are no longer available. Ask the sender to send them again.' }),
      };
    case 'revoked':
      return {
        title: intl.formatMessage({ id: 'status.revoked', defaultMessage: 'The sender removed this transfer' }),
        body: intl.formatMessage({ id: 'status.revokedHelp', defaultMessage: 'Its files are no longer available. Ask the sender if you still need them.' }),
      };
    case 'limit_reached':
      return {
        title: intl.formatMessage({ id: 'status.limitReached', defaultMessage: 'This transfer has reached its download limit' }),
        body: intl.formatMessage({
          id: 'status.limitReachedHelp',
          defaultMessage: 'It has been downloaded as many times as the sender allowed. Ask the sender to send it again.',
        }),
      };
    case 'infected':
      return {
        title: intl.formatMessage({ id: 'status.infected', defaultMessage: 'This transfer was blocked because a file contained malware' }),
        body: intl.formatMessage({
          id: 'status.infectedHelp',
          defaultMessage:
            'A virus scan found malware in one of its files, so to keep you safe nothing in it can be downloaded, and its files were deleted. The sender has been told.',
        }),
      };
    default:
      return {
        title: intl.formatMessage({ id: 'status.unavailable', defaultMessage: 'This transfer is no longer available' }),
        body: intl.formatMessage({ id: 'status.unavailableHelp', defaultMessage: 'Ask the sender to send it again.' }),
      };
  }
}

/**
 * What the page shows when the transfer can't be shown. A 404 says nothing more than "this link
 * doesn't work": the same page for a mistyped slug and a draft, so nothing helps guessing links.
 */
export function TransferErrorPage({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const intl = useIntl();
  if (isApiRequestError(error)) {
    if (error.status === 404) return <LinkNotFoundPage />;
    if (error.status === 409 && error.code === 'files_arriving') {
      // The page asks again by itself (publicTransferQueryOptions) and shows the files once they are in.
      return (
        <StatusPage title={intl.formatMessage({ id: 'status.arriving', defaultMessage: 'The files are still arriving' })}>
          <p role="status">
            {intl.formatMessage({
              id: 'status.arrivingHelp',
              defaultMessage:
                'The sender has sent this transfer, and its files are still being copied in. Nothing can be downloaded yet: this page shows them as soon as they are all here.',
            })}
          </p>
        </StatusPage>
      );
    }
    if (error.status === 410) {
      const reason = typeof error.details.reason === 'string' ? error.details.reason : '';
      if (reason === 'suspended') return <SuspendedLinkPage what="transfer" />;
      const page = unavailablePage(reason, intl);
      return (
        <StatusPage title={page.title}>
          <p>{page.body}</p>
        </StatusPage>
      );
    }
  }
  return <LoadFailedPage what="transfer" error={error} onRetry={onRetry} />;
}
