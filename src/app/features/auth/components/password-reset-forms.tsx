import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { newPasswordError, newPasswordHint } from '../../../lib/account-validation';
import { useIntl } from '../../../lib/intl';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useCompletePasswordReset, useRequestPasswordReset } from '../api/password-reset';
import { asksSecondStep } from '../api/second-step';
import { SecondStepForm } from './second-step-form';

const linkClass = 'font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300';

/** The link to ask for a new reset link, inside a sentence. */
const newLinkLink = (chunks: ReactNode[]) => (
  <Link key="forgot" to="/forgot-password" className={linkClass}>
    {chunks}
  </Link>
);

function BackToSignIn() {
  const intl = useIntl();
  return (
    <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
      <Link to="/signin" className={linkClass}>
        {intl.formatMessage({ id: 'auth.passwordReset.backToSignIn', defaultMessage: 'Back to sign in' })}
      </Link>
    </p>
  );
}

/** Asks for the account's address and says a link is on its way, whether or not the address has an account. */
export function ForgotPasswordForm() {
  const intl = useIntl();
  const request = useRequestPasswordReset();
  const form = useValidatedForm(['email'] as const, { email: '' }, (v) => ({
    email: /^[^\s@]+@[^\s@]+$/.test(v.email.trim()) ? undefined : intl.formatMessage({ id: 'auth.passwordReset.emailInvalid', defaultMessage: 'Enter a valid email address' }),
  }));
  const onSubmit = form.handleSubmit((values) => request.mutate(values.email.trim(), { onError: form.showServerErrors }));
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{intl.formatMessage({ id: 'auth.forgotPassword.heading', defaultMessage: 'Reset your password' })}</h1>
      {request.isSuccess ? (
        <p role="status" className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
          {intl.formatMessage(
            {
              id: 'auth.forgotPassword.sent',
              defaultMessage: 'If an account uses {email}, a link to choose a new password is on its way. It works once, for {minutes, plural, one {# minute} other {# minutes}}.',
            },
            { email: <bdi key="email">{request.variables}</bdi>, minutes: 30 },
          )}
        </p>
      ) : (
        <>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'auth.forgotPassword.lead', defaultMessage: 'We will mail you a link to choose a new one.' })}
          </p>
          <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
            <FormError error={request.error} />
            <TextField
              label={intl.formatMessage({ id: 'auth.forgotPassword.emailLabel', defaultMessage: 'Email' })}
              type="email"
              autoComplete="email"
              inputMode="email"
              {...form.field('email')}
            />
            <Button type="submit" className="w-full" disabled={request.isPending}>
              {request.isPending
                ? intl.formatMessage({ id: 'auth.forgotPassword.sending', defaultMessage: 'Sending…' })
                : intl.formatMessage({ id: 'auth.forgotPassword.send', defaultMessage: 'Send the link' })}
            </Button>
          </form>
        </>
      )}
      <BackToSignIn />
    </>
  );
}

const resetFields = ['newPassword', 'repeat'] as const;

/** The mailed link's page: a new password, twice; then the sender is signed in. */
export function ResetPasswordForm({ token, redirectTo }: { token: string | undefined; redirectTo: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const complete = useCompletePasswordReset();
  const [secondStep, setSecondStep] = useState(false);
  const form = useValidatedForm(resetFields, { newPassword: '', repeat: '' }, (v) => ({
    newPassword: newPasswordError(v.newPassword),
    repeat: v.repeat !== v.newPassword ? intl.formatMessage({ id: 'auth.resetPassword.mismatch', defaultMessage: 'The two passwords are not the same' }) : undefined,
  }));
  const onSubmit = form.handleSubmit((values) => {
    if (!token) return;
    complete.mutate(
      { token, newPassword: values.newPassword },
      { onSuccess: () => navigate({ href: redirectTo, replace: true }), onError: (error) => (asksSecondStep(error) ? setSecondStep(true) : form.showServerErrors(error)) },
    );
  });
  // The new password is set; with two-step verification on, the code is still asked before signing in.
  if (secondStep) return <SecondStepForm onSignedIn={() => navigate({ href: redirectTo, replace: true })} onStartOver={() => navigate({ to: '/signin' })} />;
  if (!token) {
    return (
      <>
        <h1 className="text-2xl font-semibold tracking-tight">
          {intl.formatMessage({ id: 'auth.resetPassword.incompleteHeading', defaultMessage: 'This link is incomplete' })}
        </h1>
        <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
          {intl.formatMessage(
            { id: 'auth.resetPassword.incomplete', defaultMessage: 'Open the link from the mail exactly as it is, or <link>ask for a new one</link>.' },
            { link: newLinkLink },
          )}
        </p>
      </>
    );
  }
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{intl.formatMessage({ id: 'auth.resetPassword.heading', defaultMessage: 'Choose a new password' })}</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'auth.resetPassword.lead', defaultMessage: 'You will be signed in, and signed out everywhere else.' })}
      </p>
      <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
        <FormError error={complete.error} />
        <TextField
          label={intl.formatMessage({ id: 'auth.resetPassword.newPasswordLabel', defaultMessage: 'New password' })}
          type="password"
          autoComplete="new-password"
          hint={newPasswordHint(intl)}
          {...form.field('newPassword')}
        />
        <TextField
          label={intl.formatMessage({ id: 'auth.resetPassword.repeatLabel', defaultMessage: 'Repeat the new password' })}
          type="password"
          autoComplete="new-password"
          {...form.field('repeat')}
        />
        <Button type="submit" className="w-full" disabled={complete.isPending}>
          {complete.isPending
            ? intl.formatMessage({ id: 'auth.resetPassword.saving', defaultMessage: 'Saving…' })
            : intl.formatMessage({ id: 'auth.resetPassword.submit', defaultMessage: 'Set the new password' })}
        </Button>
      </form>
      {complete.isError ? (
        <p className="mt-4 text-center text-sm">
          <Link to="/forgot-password" className={linkClass}>
            {intl.formatMessage({ id: 'auth.resetPassword.askNewLink', defaultMessage: 'Ask for a new link' })}
          </Link>
        </p>
      ) : null}
    </>
  );
}
