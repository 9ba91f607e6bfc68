import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { isApiRequestError } from '../../../lib/api-error';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useSecondStep } from '../api/second-step';

const fields = ['code'] as const;

/**
 * After a right password, for a person with two-step verification on: a code from their app (or one
 * of their recovery codes), and whether to trust this browser for 30 days. `onStartOver` goes back
 * to the password, which an expired sign-in needs.
 */
export function SecondStepForm({ onSignedIn, onStartOver }: { onSignedIn: () => void; onStartOver: () => void }) {
  const secondStep = useSecondStep();
  const [recovery, setRecovery] = useState(false);
  const [trust, setTrust] = useState(false);
  const trustId = useId();
  const form = useValidatedForm(fields, { code: '' }, (v) => {
    const code = v.code.replace(/\s+/g, '');
    if (recovery) return { code: code === '' ? 'Enter one of your recovery codes' : undefined };
    return { code: /^\d{6}$/.test(code) ? undefined : 'Enter the 6-digit code from your authenticator app' };
  });
  const onSubmit = form.handleSubmit(({ code }) => secondStep.mutate({ code: code.trim(), trustBrowser: trust }, { onSuccess: onSignedIn, onError: form.showServerErrors }));
  const expired = isApiRequestError(secondStep.error) && secondStep.error.details.reason === 'sign_in_expired';
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">Two-step verification</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {recovery ? 'Enter one of the recovery codes you saved when you turned on two-step verification. Each works once.' : 'Open your authenticator app and enter the code it shows for Parcel.'}
      </p>
      <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
        <FormError error={secondStep.error} />
        {recovery ? (
          <TextField key="recovery" label="Recovery code" autoComplete="off" autoCapitalize="none" spellCheck={false} autoFocus {...form.field('code')} />
        ) : (
          <TextField key="app" label="Code from the app" autoComplete="one-time-code" inputMode="numeric" autoFocus {...form.field('code')} />
        )}
        <div className="flex gap-2.5">
          <input id={trustId} type="checkbox" className="mt-0.5 size-4 shrink-0 accent-indigo-600" checked={trust} onChange={(e) => setTrust(e.target.checked)} />
          <label htmlFor={trustId} className="text-sm text-zinc-800 dark:text-zinc-200">
            Trust this browser for 30 days
          </label>
        </div>
        {expired ? (
          <Button className="w-full" onClick={onStartOver}>
            Sign in again
          </Button>
        ) : (
          <Button type="submit" className="w-full" disabled={secondStep.isPending}>
            {secondStep.isPending ? 'Checking…' : 'Verify'}
          </Button>
        )}
      </form>
      <div className="mt-4 flex flex-wrap justify-between gap-2 text-sm">
        <button type="button" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300" onClick={() => setRecovery((r) => !r)}>
          {recovery ? 'Use the authenticator app' : 'Use a recovery code'}
        </button>
        <button type="button" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300" onClick={onStartOver}>
          Start over
        </button>
      </div>
    </>
  );
}
