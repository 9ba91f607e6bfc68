import { useMutation } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { inputClass } from '../../../components/text-field';
import type { IntlShape } from 'react-intl';
import { isApiRequestError } from '../../../lib/api-error';
import { useIntl } from '../../../lib/intl';
import { useDocumentTitle } from '../../../lib/use-document-title';
import type { UnlockResponse } from '../../../../contract/public';
import { tooManyAttemptsMessage } from './status-pages';

const enterPassword = (intl: IntlShape) => intl.formatMessage({ id: 'password.missing', defaultMessage: 'Enter the password.' });

function unlockMessage(error: unknown, intl: IntlShape): string {
  if (isApiRequestError(error)) {
    if (error.code === 'wrong_password') return intl.formatMessage({ id: 'password.wrong', defaultMessage: "That password isn't right. Check it and try again." });
    if (error.status === 429) return tooManyAttemptsMessage(error, intl);
    if (error.status === 400) return enterPassword(intl);
  }
  return error instanceof Error ? error.message : intl.formatMessage({ id: 'status.somethingWrong', defaultMessage: 'Something went wrong. Try again.' });
}

interface PasswordFormProps {
  /** "This transfer is protected". */
  heading: string;
  /** What the password is and who gave it. */
  lead: string;
  unlock: (password: string) => Promise<UnlockResponse>;
  onUnlocked: (unlock: UnlockResponse) => void;
  /** Lets a page watch this request with its others (a collection's page handles every refusal in one place). */
  mutationKey?: readonly unknown[];
}

/** Asks for a shared link's password; hands the unlock token and its expiry up. */
export function PasswordForm({ heading, lead, unlock: unlockWith, onUnlocked, mutationKey }: PasswordFormProps) {
  const intl = useIntl();
  useDocumentTitle(intl.formatMessage({ id: 'password.pageTitle', defaultMessage: 'Password required' }));
  const id = useId();
  const [password, setPassword] = useState('');
  const [missing, setMissing] = useState(false);
  const unlock = useMutation({
    mutationKey,
    mutationFn: unlockWith,
    onSuccess: (result) => onUnlocked(result),
  });

  const error = missing ? enterPassword(intl) : unlock.error ? unlockMessage(unlock.error, intl) : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (password === '') {
      setMissing(true);
      return;
    }
    setMissing(false);
    unlock.mutate(password);
  }

  return (
    <section aria-labelledby={`${id}-title`} className="mx-auto max-w-md py-4 sm:py-12">
      <h1 id={`${id}-title`} className="text-2xl font-semibold tracking-tight text-zinc-900 dark:text-zinc-50">
        {heading}
      </h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">{lead}</p>
      <form noValidate onSubmit={submit} className="mt-6 space-y-4">
        <div>
          <label htmlFor={`${id}-password`} className="block text-sm font-medium text-zinc-800 dark:text-zinc-200">
            {intl.formatMessage({ id: 'password.label', defaultMessage: 'Password' })}
          </label>
          <input
            id={`${id}-password`}
            type="password"
            name="password"
            autoComplete="off"
            autoFocus
            maxLength={200}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
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
        <Button type="submit" disabled={unlock.isPending} className="min-h-11 w-full text-base sm:w-auto sm:px-6">
          {unlock.isPending
            ? intl.formatMessage({ id: 'password.checking', defaultMessage: 'Checking…' })
            : intl.formatMessage({ id: 'password.unlock', defaultMessage: 'Unlock' })}
        </Button>
      </form>
    </section>
  );
}
