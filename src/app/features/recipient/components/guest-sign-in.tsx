import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { inputClass } from '../../../components/text-field';
import { isApiRequestError } from '../../../lib/api-error';
import { collectionKeys, requestGuestSignIn } from '../api/public-collection-api';
import { StatusPage, tooManyAttemptsMessage } from './status-pages';

// Only what a person mistypes; the server has the final word.
const looksLikeEmail = (value: string) => /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value);

function sendMessage(error: unknown): string {
  if (isApiRequestError(error)) {
    if (error.status === 429) return tooManyAttemptsMessage(error);
    if (error.status === 400) return 'Enter your email address, such as name@example.com.';
  }
  return error instanceof Error ? error.message : 'Something went wrong. Try again.';
}

/**
 * A page of a private collection for someone not signed in: what it is, and the form that mails an
 * invited guest a sign-in link. What follows is the same whether or not the address is invited
 * ("check your inbox"), so the page tells nobody who the guests are.
 */
export function GuestSignInPage({ slug, title, children }: { slug: string; title: string; children: ReactNode }) {
  const [sentTo, setSentTo] = useState<string | null>(null);
  if (sentTo !== null) {
    return (
      <StatusPage
        title="Check your inbox"
        action={
          <Button variant="secondary" onClick={() => setSentTo(null)} className="min-h-11 px-5">
            Use a different address
          </Button>
        }
      >
        <div role="status">
          <p>
            If <span className="font-medium wrap-anywhere text-zinc-900 dark:text-zinc-100">{sentTo}</span> is on the guest list, a sign-in link is on its way.
            It works once, for 15 minutes.
          </p>
          <p className="mt-2">Nothing there after a few minutes? Check your spam folder, or ask whoever shared the collection to invite this address.</p>
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
  const id = useId();
  const [email, setEmail] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const send = useMutation({
    mutationKey: collectionKeys.mutation(slug, 'guest-sign-in'),
    mutationFn: (address: string) => requestGuestSignIn(slug, address),
    onSuccess: (_, address) => onSent(address),
  });
  const error = problem ?? (send.error ? sendMessage(send.error) : null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const address = email.trim();
    if (!looksLikeEmail(address)) {
      setProblem('Enter your email address, such as name@example.com.');
      return;
    }
    setProblem(null);
    send.mutate(address);
  }

  return (
    <form noValidate onSubmit={submit} className="mx-auto mt-6 max-w-sm space-y-4 text-left">
      <div>
        <label htmlFor={`${id}-email`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
          Email address
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
        {send.isPending ? 'Sending…' : 'Send me a sign-in link'}
      </Button>
    </form>
  );
}
