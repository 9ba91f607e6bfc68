import { Link, useNavigate } from '@tanstack/react-router';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useState } from 'react';
import { passkeysSupported, usePasskeySignIn } from '../api/passkey-sign-in';
import { asksSecondStep } from '../api/second-step';
import { useSignIn } from '../api/sign-in';
import { SecondStepForm } from './second-step-form';
import { signInFields, validateSignIn } from '../validation';

/** `redirectTo` must already be a safe in-app path (see lib/safe-redirect). */
export function SignInForm({ redirectTo, redirectParam }: { redirectTo: string; redirectParam?: string }) {
  const navigate = useNavigate();
  const signIn = useSignIn();
  const passkey = usePasskeySignIn();
  const form = useValidatedForm(signInFields, { email: '', password: '' }, validateSignIn);
  const [secondStep, setSecondStep] = useState(false);

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
      <h1 className="text-2xl font-semibold tracking-tight">Sign in</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Welcome back to Parcel.</p>
      <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
        <FormError error={signIn.error} />
        <TextField label="Email" type="email" autoComplete="email" inputMode="email" {...form.field('email')} />
        <TextField label="Password" type="password" autoComplete="current-password" {...form.field('password')} />
        <Button type="submit" className="w-full" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </Button>
      </form>
      {passkeysSupported() ? (
        <div className="mt-4 space-y-2">
          <FormError error={passkey.error} />
          <Button variant="secondary" className="w-full" disabled={passkey.isPending} onClick={() => passkey.mutate(undefined, { onSuccess: () => navigate({ href: redirectTo }) })}>
            {passkey.isPending ? 'Waiting for your passkey…' : 'Sign in with a passkey'}
          </Button>
        </div>
      ) : null}
      <p className="mt-4 text-center text-sm">
        <Link to="/forgot-password" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
          Forgot your password?
        </Link>
      </p>
      <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
        No account yet?{' '}
        <Link
          to="/signup"
          search={redirectParam ? { redirect: redirectParam } : {}}
          className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300"
        >
          Create a workspace
        </Link>
      </p>
    </>
  );
}
