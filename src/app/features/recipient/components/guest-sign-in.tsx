import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import { Button } from '../../../components/button';
import { inputClass } from '../../../components/text-field';
import { isApiRequestError } from '../../../lib/api-error';
import { useIntl } from '../../../lib/intl';
import { collectionKeys, requestGuestSignIn } from '../api/public-collection-api';
import { StatusPage, tooManyAttemptsMessage } from './status-pages';

// Only what a person mistypes; the server has the final word.
const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

/** How long a mailed sign-in link works (the server's GUEST_SIGN_IN_TTL_MS). */
const LINK_MINUTES = 15;

const enterEmail = (intl: IntlShape) => intl.formatMessage({ id: 'guest.emailMissing', defaultMessage: 'Enter your email address, such as name@example.com.' });

function sendMessage(error: unknown, intl: IntlShape): string {
  if (isApiRequestError(error)) {
    if (error.status === 429) return tooManyAttemptsMessage(error, intl);
    if (error.status === 400) return enterEmail(intl);
  }
  return error instanceof Error ? error.message : intl.formatMessage({ id: 'status.somethingWrong', defaultMessage: 'Something went wrong. Try again.' });
}

/**
 * A page of a private collection for someone not signed in: what it is, and the form that mails an
 * invited guest a sign-in link. What follows is the same whether or not the address is invited
 * ("check your inbox"), so the page tells nobody who the guests are.
 */
export function GuestSignInPage({ slug, title, children }: { slug: string; title: string; children: ReactNode }) {
  const intl = useIntl();
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (sentTo !== null) {
    return (
      <StatusPage
        title={intl.formatMessage({ id: 'guest.checkInbox', defaultMessage: 'Check your inbox' })}
        action={
          <Button variant="secondary" onClick={() => setSentTo(null)} className="min-h-11 px-5">
            {intl.formatMessage({ id: 'guest.useDifferentAddress', defaultMessage: 'Use a different address' })}
          </Button>
        }
      >
        <div role="status">
          <p>
            {intl.formatMessage(
              {
                id: 'guest.linkOnItsWay',
                defaultMessage:
                  'If {email} is on the guest list, a sign-in link is on its way. It works once, for {minutes, plural, one {# minute} other {# minutes}}.',
              },
              {
                email: (
                  <bdi key="email" className="font-medium wrap-anywhere text-zinc-900 dark:text-zinc-100">
                    {sentTo}
                  </bdi>
                ),
                minutes: LINK_MINUTES,
              },
            )}
          </p>
          <p className="mt-2">
            {intl.formatMessage({
              id: 'guest.nothingArrived',
              defaultMessage: 'Nothing there after a few minutes? Check your spam folder, or ask whoever shared the collection to invite this address.',
            })}
          </p>
        </div>
      </StatusPage>
    );
  }
  return (
    <StatusPage title={title}>
      {children}
      <GuestSignInForm slug={slug} onSent={setSentTo} />
    </StatusPage>
  );
}

function GuestSignInForm({ slug, onSent }: { slug: string; onSent: (email: string) => void }) {
  const intl = useIntl();
  const id = useId();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const send = useMutation({
    mutationKey: collectionKeys.mutation(slug, 'guest-sign-in'),
    mutationFn: (address: string) => requestGuestSignIn(slug, address),
    onSuccess: (_, address) => onSent(address),
  });
  const error = problem ?? (send.error ? sendMessage(send.error, intl) : null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (!looksLikeEmail(address)) {
      setProblem(enterEmail(intl));
      return;
    }
    setProblem(null);
    send.mutate(address);
  }

  return (
    <form noValidate onSubmit={submit} className="mx-auto mt-6 max-w-sm space-y-4 text-start">
      <div>
        <label htmlFor={`${id}-email`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          {intl.formatMessage({ id: 'guest.emailLabel', defaultMessage: 'Email address' })}
        </label>
        <input
          id={`${id}-email`}
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          maxLength={320}
          value={email}
          onChange={(event) => setEmail(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`${inputClass} mt-1 min-h-11 text-base`}
        />
        {error ? (
          <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-700 dark:text-red-400">
            {error}
          </p>
        ) : null}
      </div>
      <Button type="submit" disabled={send.isPending} className="min-h-11 w-full text-base">
        {send.isPending
          ? intl.formatMessage({ id: 'guest.sending', defaultMessage: 'Sending…' })
          : intl.formatMessage({ id: 'guest.sendLink', defaultMessage: 'Send me a sign-in link' })}
      </Button>
    </form>
  );
}
