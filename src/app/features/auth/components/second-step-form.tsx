import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { isApiRequestError } from '../../../lib/api-error';
import { useIntl } from '../../../lib/intl';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useSecondStep } from '../api/second-step';

const fields = ['code'] as const;

/**
 * After a right password, for a person with two-step verification on: a code from their app (or one
 * of their recovery codes), and whether to trust this browser for 30 days. `onStartOver` goes back
 * to the password, which an expired sign-in needs.
 */
export function SecondStepForm({ onSignedIn, onStartOver }: { onSignedIn: () => void; onStartOver: () => void }) {
  const intl = useIntl();
  const secondStep = useSecondStep();
  const [recovery, setRecovery] = useState(false);
  const [trust, setTrust] = useState(false);
  const trustId = useId();
  const form = useValidatedForm(fields, { code: '' }, (v) => {
    const code = v.code.replace(/\s+/g, '');
    if (recovery) return { code: code === '' ? intl.formatMessage({ id: 'auth.secondStep.recoveryCodeMissing', defaultMessage: 'Enter one of your recovery codes' }) : undefined };
    return {
      code: /^\d{6}$/.test(code) ? undefined : intl.formatMessage({ id: 'auth.secondStep.codeInvalid', defaultMessage: 'Enter the 6-digit code from your authenticator app' }),
    };
  });
  const onSubmit = form.handleSubmit(({ code }) => secondStep.mutate({ code: code.trim(), trustBrowser: trust }, { onSuccess: onSignedIn, onError: form.showServerErrors }));
  const expired = isApiRequestError(secondStep.error) && secondStep.error.details.reason === 'sign_in_expired';
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{intl.formatMessage({ id: 'auth.secondStep.heading', defaultMessage: 'Two-step verification' })}</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {recovery
          ? intl.formatMessage({
              id: 'auth.secondStep.recoveryLead',
              defaultMessage: 'Enter one of the recovery codes you saved when you turned on two-step verification. Each works once.',
            })
          : intl.formatMessage({ id: 'auth.secondStep.appLead', defaultMessage: 'Open your authenticator app and enter the code it shows for Parcel.' })}
      </p>
      <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
        <FormError error={secondStep.error} />
        {recovery ? (
          <TextField
            key="recovery"
            label={intl.formatMessage({ id: 'auth.secondStep.recoveryCodeLabel', defaultMessage: 'Recovery code' })}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            {...form.field('code')}
          />
        ) : (
          <TextField
            key="app"
            label={intl.formatMessage({ id: 'auth.secondStep.appCodeLabel', defaultMessage: 'Code from the app' })}
            autoComplete="one-time-code"
            inputMode="numeric"
            autoFocus
            {...form.field('code')}
          />
        )}
        <div className="flex gap-2.5">
          <input id={trustId} type="checkbox" className="mt-0.5 size-4 shrink-0 accent-indigo-600" checked={trust} onChange={(e) => setTrust(e.target.checked)} />
          <label htmlFor={trustId} className="text-sm text-zinc-800 dark:text-zinc-200">
            {intl.formatMessage({ id: 'auth.secondStep.trustBrowser', defaultMessage: 'Trust this browser for {days, plural, one {# day} other {# days}}' }, { days: 30 })}
          </label>
        </div>
        {expired ? (
          <Button className="w-full" onClick={onStartOver}>
            {intl.formatMessage({ id: 'auth.secondStep.signInAgain', defaultMessage: 'Sign in again' })}
          </Button>
        ) : (
          <Button type="submit" className="w-full" disabled={secondStep.isPending}>
            {secondStep.isPending
              ? intl.formatMessage({ id: 'auth.secondStep.checking', defaultMessage: 'Checking…' })
              : intl.formatMessage({ id: 'auth.secondStep.verify', defaultMessage: 'Verify' })}
          </Button>
        )}
      </form>
      <div className="mt-4 flex flex-wrap justify-between gap-2 text-sm">
        <button type="button" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300" onClick={() => setRecovery((r) => !r)}>
          {recovery
            ? intl.formatMessage({ id: 'auth.secondStep.useApp', defaultMessage: 'Use the authenticator app' })
            : intl.formatMessage({ id: 'auth.secondStep.useRecoveryCode', defaultMessage: 'Use a recovery code' })}
        </button>
        <button type="button" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300" onClick={onStartOver}>
          {intl.formatMessage({ id: 'auth.secondStep.startOver', defaultMessage: 'Start over' })}
        </button>
      </div>
    </>
  );
}
