import type { ReactNode } from 'react';
import { Button } from '../../../components/button';
import { isApiRequestError } from '../../../lib/api-error';
import { useDocumentTitle } from '../../../lib/use-document-title';

function formatWait(seconds: number): string {
  const whole = Math.max(1, Math.ceil(seconds));
  return `${whole} ${whole === 1 ? 'second' : 'seconds'}`;
}

/** What a 429 asks of the visitor, with the wait from its Retry-After. */
export function tooManyAttemptsMessage(error: { retryAfterSeconds?: number | undefined }): string {
  return error.retryAfterSeconds !== undefined
    ? `Too many attempts, try again in ${formatWait(error.retryAfterSeconds)}.`
    : 'Too many attempts, try again in a moment.';
}

/** What a failed download session tells the visitor. */
export function sessionErrorMessage(error: unknown): string {
  if (isApiRequestError(error) && error.status === 429) return tooManyAttemptsMessage(error);
  return error instanceof Error ? error.message : 'The downloads could not be prepared.';
}

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
  return (
    <Button onClick={onRetry} className="min-h-11 px-5">
      Try again
    </Button>
  );
}

/**
 * The pages every shared link shows when its first read fails for no reason of its own: too many
 * requests from this address (with the wait), or anything else (with the error), each with "Try again".
 */
export function LoadFailedPage({ what, error, onRetry }: { what: string; error: unknown; onRetry: () => void }) {
  if (isApiRequestError(error) && error.status === 429) {
    return (
      <StatusPage title="Too many attempts" action={<RetryButton onRetry={onRetry} />}>
        <p>{tooManyAttemptsMessage(error)}</p>
      </StatusPage>
    );
  }
  return (
    <StatusPage title={`This ${what} couldn't be loaded`} action={<RetryButton onRetry={onRetry} />}>
      <p role="alert">{error instanceof Error ? error.message : 'Something went wrong. Try again.'}</p>
    </StatusPage>
  );
}

/**
 * A shared link that leads nowhere: the same page for a mistyped link, one that never existed and
 * one whose thing is gone or not yet shared (a draft), for transfers and upload requests alike, so
 * nothing helps guessing links.
 */
export function LinkNotFoundPage() {
  return (
    <StatusPage title="This link doesn't work">
      <p>Check that you copied the whole link, or ask the sender for a new one.</p>
    </StatusPage>
  );
}

/** A link of a workspace the operator has suspended (`410 link_unavailable`, `suspended`): `what` names the link's thing. */
export function SuspendedLinkPage({ what }: { what: string }) {
  return (
    <StatusPage title={`This ${what} is not available right now`}>
      <p>The service that hosts it has paused the sender’s account. Ask the sender about it.</p>
    </StatusPage>
  );
}

const unavailable: Record<string, { title: string; body: string }> = {
  expired: { title: 'This transfer has expired', body: 'Its files are no longer available. Ask the sender to send them again.' },
  revoked: { title: 'The sender removed this transfer', body: 'Its files are no longer available. Ask the sender if you still need them.' },
  limit_reached: {
    title: 'This transfer has reached its download limit',
    body: 'It has been downloaded as many times as the sender allowed. Ask the sender to send it again.',
  },
  infected: {
    title: 'This transfer was blocked because a file contained malware',
    body: 'A virus scan found malware in one of its files, so to keep you safe nothing in it can be downloaded, and its files were deleted. The sender has been told.',
  },
};

/**
 * What the page shows when the transfer can't be shown. A 404 says nothing more than "this link
 * doesn't work": the same page for a mistyped slug and a draft, so nothing helps guessing links.
 */
export function TransferErrorPage({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  if (isApiRequestError(error)) {
    if (error.status === 404) return <LinkNotFoundPage />;
    if (error.status === 409 && error.code === 'files_arriving') {
      // The page asks again by itself (publicTransferQueryOptions) and shows the files once they are in.
      return (
        <StatusPage title="The files are still arriving">
          <p role="status">
            The sender has sent this transfer, and its files are still being copied in. Nothing can be downloaded yet: this page shows
            them as soon as they are all here.
          </p>
        </StatusPage>
      );
    }
    if (error.status === 410) {
      const reason = typeof error.details.reason === 'string' ? error.details.reason : '';
      if (reason === 'suspended') return <SuspendedLinkPage what="transfer" />;
      const page = unavailable[reason] ?? { title: 'This transfer is no longer available', body: 'Ask the sender to send it again.' };
      return (
        <StatusPage title={page.title}>
          <p>{page.body}</p>
        </StatusPage>
      );
    }
  }
  return <LoadFailedPage what="transfer" error={error} onRetry={onRetry} />;
}
