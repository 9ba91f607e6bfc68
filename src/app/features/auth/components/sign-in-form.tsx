import { Link, useNavigate } from '@tanstack/react-router';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useState } from 'react';
import { passkeysSupported, usePasskeyAutofill, usePasskeySignIn } from '../api/passkey-sign-in';
import { asksSecondStep } from '../api/second-step';
import { useSignIn } from '../api/sign-in';
import { refusalMessages } from '../api/single-sign-on';
import { SecondStepForm } from './second-step-form';
import { SingleSignOnButtons } from './single-sign-on-buttons';
import type { SingleSignOnRefusal } from '../../../../contract/single-sign-on-refusals';
import { signInFields, validateSignIn } from '../validation';

/**
 * `redirectTo` must already be a safe in-app path (see lib/safe-redirect). `singleSignOn` is how a
 * sign-in through an identity provider came back: refused (and why), or waiting for the second step.
 */
export function SignInForm({
  redirectTo,
  redirectParam,
  singleSignOn,
}: {
  redirectTo: string;
  redirectParam?: string;
  singleSignOn?: { refusal?: SingleSignOnRefusal; secondStep?: boolean };
}) {
  const intl = useIntl();
  const navigate = useNavigate();
  const signIn = useSignIn();
  const passkey = usePasskeySignIn();
  const autofillError = usePasskeyAutofill(() => navigate({ href: redirectTo }));
  const form = useValidatedForm(signInFields, { email: '', password: '' }, validateSignIn);
  const [secondStep, setSecondStep] = useState(singleSignOn?.secondStep === true);

  const onSubmit = form.handleSubmit((values) => {
    signIn.mutate(
      { email: values.email.trim(), password: values.password },
      {
        onSuccess: () => navigate({ href: redirectTo }),
        onError: (error) => (asksSecondStep(error) ? setSecondStep(true) : form.showServerErrors(error)),
      },
    );
  });

  if (secondStep) {
    return (
      <SecondStepForm
        onSignedIn={() => navigate({ href: redirectTo })}
        onStartOver={() => {
          signIn.reset();
          setSecondStep(false);
        }}
      />
    );
  }

  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{intl.formatMessage({ id: 'auth.signIn.heading', defaultMessage: 'Sign in' })}</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'auth.signIn.welcome', defaultMessage: 'Welcome back to Parcel.' })}</p>
      {singleSignOn?.refusal ? (
        <p role="alert" className="mt-4 rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100">
          {intl.formatMessage(refusalMessages[singleSignOn.refusal])}
        </p>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
        <FormError error={signIn.error ?? autofillError} />
        {/* `webauthn`: the browser may offer this site's passkeys among the field's suggestions (usePasskeyAutofill). */}
        <TextField
          label={intl.formatMessage({ id: 'auth.signIn.emailLabel', defaultMessage: 'Email' })}
          type="email"
          autoComplete="username webauthn"
          inputMode="email"
          {...form.field('email')}
        />
        <TextField
          label={intl.formatMessage({ id: 'auth.signIn.passwordLabel', defaultMessage: 'Password' })}
          type="password"
          autoComplete="current-password"
          {...form.field('password')}
        />
        <Button type="submit" className="w-full" disabled={signIn.isPending}>
          {signIn.isPending
            ? intl.formatMessage({ id: 'auth.signIn.signingIn', defaultMessage: 'Signing in…' })
            : intl.formatMessage({ id: 'auth.signIn.submit', defaultMessage: 'Sign in' })}
        </Button>
      </form>
      <div className="mt-4">
        <SingleSignOnButtons />
      </div>
      {passkeysSupported() ? (
        <div className="mt-2 space-y-2">
          <FormError error={passkey.error} />
          <Button variant="secondary" className="w-full" disabled={passkey.isPending} onClick={() => passkey.mutate(undefined, { onSuccess: () => navigate({ href: redirectTo }) })}>
            {passkey.isPending
              ? intl.formatMessage({ id: 'auth.signIn.waitingForPasskey', defaultMessage: 'Waiting for your passkey…' })
              : intl.formatMessage({ id: 'auth.signIn.withPasskey', defaultMessage: 'Sign in with a passkey' })}
          </Button>
        </div>
      ) : null}
      <p className="mt-4 text-center text-sm">
        <Link to="/forgot-password" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
          {intl.formatMessage({ id: 'auth.signIn.forgotPassword', defaultMessage: 'Forgot your password?' })}
        </Link>
      </p>
      <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage(
          { id: 'auth.signIn.noAccount', defaultMessage: 'No account yet? <link>Create a workspace</link>' },
          {
            link: (chunks) => (
              <Link
                key="signup"
                to="/signup"
                search={redirectParam ? { redirect: redirectParam } : {}}
                className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
              >
                {chunks}
              </Link>
            ),
          },
        )}
      </p>
    </>
  );
}
