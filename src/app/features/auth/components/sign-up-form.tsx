import { Link, useNavigate } from '@tanstack/react-router';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useSignUp } from '../api/sign-up';
import { minPasswordLength, signUpFields, validateSignUp } from '../validation';

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

/** Sign-up is closed, or by invitation and this visit has none (or a used or expired one). */
export function SignUpClosed({ mode, invalidInvite }: { mode: 'invite' | 'closed'; invalidInvite: boolean }) {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{mode === 'invite' ? 'Sign-up is by invitation' : 'Sign-up is closed'}</h1>
      <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
        {mode === 'closed'
          ? 'This Parcel server does not take new accounts. Ask its operator if you need one.'
          : invalidInvite
            ? 'This invitation link has expired or was used already. Ask the operator of this server for a new one.'
            : 'New accounts on this Parcel server need an invitation from its operator. Use the link in the invitation mail.'}
      </p>
      <p className="mt-6 text-sm text-zinc-600 dark:text-zinc-400">
        Already have an account?{' '}
        <Link to="/signin" className={linkClass}>
          Sign in
        </Link>
      </p>
    </>
  );
}

export function SignUpForm({ firstWorkspace, referralCode, invite, redirectTo }: SignUpFormProps) {
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
      <h1 className="text-2xl font-semibold tracking-tight">{firstWorkspace ? 'Create your workspace' : 'Create an account'}</h1>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {firstWorkspace
          ? 'This Parcel server has no workspace yet. Yours will be the first, and you will be its owner.'
          : 'Create a workspace for sending and collecting files.'}
      </p>
      {referralCode ? (
        <p className="mt-3 rounded-md bg-indigo-50 px-3 py-2 text-sm text-indigo-800 dark:bg-indigo-950 dark:text-indigo-200">
          Invitation code <code className="font-semibold">{referralCode}</code> will be applied.
        </p>
      ) : null}
      <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
        <FormError error={signUp.error} />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          inputMode="email"
          readOnly={invite !== undefined}
          hint={invite ? 'The address your invitation was sent to.' : undefined}
          {...form.field('email')}
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          hint={`At least ${minPasswordLength} characters.`}
          {...form.field('password')}
        />
        <TextField label="Workspace name" autoComplete="organization" hint="Your team or company; you can change it later." {...form.field('workspaceName')} />
        <Button type="submit" className="w-full" disabled={signUp.isPending}>
          {signUp.isPending ? 'Creating…' : firstWorkspace ? 'Create workspace' : 'Create account'}
        </Button>
      </form>
      {firstWorkspace ? null : (
        <p className="mt-6 text-center text-sm text-zinc-600 dark:text-zinc-400">
          Already have an account?{' '}
          <Link to="/signin" className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
            Sign in
          </Link>
        </p>
      )}
    </>
  );
}
