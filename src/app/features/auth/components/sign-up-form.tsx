import { Link, useNavigate } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useSignUp } from '../api/sign-up';
import { newPasswordHint } from '../../../lib/account-validation';
import { signUpFields, validateSignUp } from '../validation';

interface SignUpFormProps {
  /** True while the instance has no workspace yet: this visitor creates the first one. */
  firstWorkspace: boolean;
  referralCode?: string;
  /** The operator's invitation: its address is the account's, and its token goes with the sign-up. */
  invite?: { token: string; email: string };
  /** A safe in-app path (see lib/safe-redirect). */
  redirectTo: string;
}

const linkClass = 'font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300';

/** The link to the sign-in page inside "Already have an account? Sign in". */
const signInLink = (chunks: ReactNode[]) => (
  <Link key="signin" to="/signin" className={linkClass}>
    {chunks}
  </Link>
);

/** Sign-up is closed, or by invitation and this visit has none (or a used or expired one). */
export function SignUpClosed({ mode, invalidInvite }: { mode: 'invite' | 'closed'; invalidInvite: boolean }) {
  const intl = useIntl();
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">
        {mode === 'invite'
          ? intl.formatMessage({ id: 'auth.signUpClosed.byInvitationHeading', defaultMessage: 'Sign-up is by invitation' })
          : intl.formatMessage({ id: 'auth.signUpClosed.closedHeading', defaultMessage: 'Sign-up is closed' })}
      </h1>
      <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
        {mode === 'closed'
          ? intl.formatMessage({ id: 'auth.signUpClosed.closed', defaultMessage: 'This Parcel server does not take new accounts. Ask its operator if you need one.' })
          : invalidInvite
            ? intl.formatMessage({
                id: 'auth.signUpClosed.invalidInvite',
                defaultMessage: 'This invitation link has expired or was used already. Ask the operator of this server for a new one.',
              })
            : intl.formatMessage({
                id: 'auth.signUpClosed.byInvitation',
                defaultMessage: 'New accounts on this Parcel server need an invitation from its operator. Use the link in the invitation mail.',
              })}
      </p>
      <p className="mt-6 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'auth.signUpClosed.haveAccount', defaultMessage: 'Already have an account? <link>Sign in</link>' }, { link: signInLink })}
      </p>
    </>
  );
}

export function SignUpForm({ firstWorkspace, referralCode, invite, redirectTo }: SignUpFormProps) {
  const intl = useIntl();
  const navigate = useNavigate();
  const signUp = useSignUp();
  const form = useValidatedForm(signUpFields, { email: invite?.email ?? '', password: '', workspaceName: '' }, validateSignUp);

  const onSubmit = form.handleSubmit((values) => {
    signUp.mutate(
      {
        email: values.email.trim(),
        password: values.password,
        workspaceName: values.workspaceName.trim(),
        ...(referralCode ? { ref: referralCode } : {}),
        ...(invite ? { invite: invite.token, email: invite.email } : {}),
      },
      {
        onSuccess: () => navigate({ href: redirectTo }),
        onError: form.showServerErrors,
      },
    );
  });

  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">
        {firstWorkspace
          ? intl.formatMessage({ id: 'auth.signUp.firstWorkspaceHeading', defaultMessage: 'Create your workspace' })
          : intl.formatMessage({ id: 'auth.signUp.heading', defaultMessage: 'Create an account' })}
      </h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {firstWorkspace
          ? intl.formatMessage({
              id: 'auth.signUp.firstWorkspaceLead',
              defaultMessage: 'This Parcel server has no workspace yet. Yours will be the first, and you will be its owner.',
            })
          : intl.formatMessage({ id: 'auth.signUp.lead', defaultMessage: 'Create a workspace for sending and collecting files.' })}
      </p>
      {referralCode ? (
        <p className="mt-3 rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
          {intl.formatMessage(
            { id: 'auth.signUp.referralCode', defaultMessage: 'Invitation code {code} will be applied.' },
            {
              code: (
                <code key="code" className="font-semibold">
                  {referralCode}
                </code>
              ),
            },
          )}
        </p>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
        <FormError error={signUp.error} />
        <TextField
          label={intl.formatMessage({ id: 'auth.signUp.emailLabel', defaultMessage: 'Email' })}
          type="email"
          autoComplete="email"
          inputMode="email"
          readOnly={invite !== undefined}
          hint={invite ? intl.formatMessage({ id: 'auth.signUp.inviteEmailHint', defaultMessage: 'The address your invitation was sent to.' }) : undefined}
          {...form.field('email')}
        />
        <TextField
          label={intl.formatMessage({ id: 'auth.signUp.passwordLabel', defaultMessage: 'Password' })}
          type="password"
          autoComplete="new-password"
          hint={newPasswordHint(intl)}
          {...form.field('password')}
        />
        <TextField
          label={intl.formatMessage({ id: 'auth.signUp.workspaceNameLabel', defaultMessage: 'Workspace name' })}
          autoComplete="organization"
          hint={intl.formatMessage({ id: 'auth.signUp.workspaceNameHint', defaultMessage: 'Your team or company; you can change it later.' })}
          {...form.field('workspaceName')}
        />
        <Button type="submit" className="w-full" disabled={signUp.isPending}>
          {signUp.isPending
            ? intl.formatMessage({ id: 'auth.signUp.creating', defaultMessage: 'Creating…' })
            : firstWorkspace
              ? intl.formatMessage({ id: 'auth.signUp.createWorkspace', defaultMessage: 'Create workspace' })
              : intl.formatMessage({ id: 'auth.signUp.createAccount', defaultMessage: 'Create account' })}
        </Button>
      </form>
      {firstWorkspace ? null : (
        <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'auth.signUp.haveAccount', defaultMessage: 'Already have an account? <link>Sign in</link>' }, { link: signInLink })}
        </p>
      )}
    </>
  );
}
