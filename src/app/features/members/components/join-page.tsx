import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { Button } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { TextField } from '../../../components/text-field';
import { newPasswordError, newPasswordHint } from '../../../lib/account-validation';
import { isApiRequestError } from '../../../lib/api-error';
import { defaultAfterSignIn } from '../../../lib/safe-redirect';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { asksSecondStep, SecondStepForm, sessionQueryOptions, useSignOut } from '../../auth';
import { useIntl } from '../../../lib/intl';
import { useAcceptInvitation, useInvitationPreview, useJoinSignIn, useJoinSignUp } from '../api/join';

const linkClass = 'font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300';

/** An address or a name in bold inside a sentence, isolated so that it reads right in any direction. */
const strong = (key: string, text: string) => (
  <strong key={key}>
    <bdi>{text}</bdi>
  </strong>
);

/**
 * An invitation's page (`/join?token=…`). Nothing happens until the person says so: a new person
 * names themself and chooses a password; someone with an account gives its password (or, signed in
 * as the invited address already, presses Join).
 */
export function JoinPage({ token }: { token: string | undefined }) {
  const intl = useIntl();
  const preview = useInvitationPreview(token);
  const session = useQuery(sessionQueryOptions());
  if (!token)
    return (
      <Closed
        title={intl.formatMessage({ id: 'members.join.incompleteTitle', defaultMessage: 'This link is incomplete' })}
        text={intl.formatMessage({ id: 'members.join.incompleteText', defaultMessage: 'Open the link from the invitation mail exactly as it is.' })}
      />
    );
  if (preview.isPending || session.isPending)
    return <p className="text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'members.join.opening', defaultMessage: 'Opening the invitation…' })}</p>;
  if (preview.isError) {
    const gone = isApiRequestError(preview.error) && (preview.error.status === 410 || preview.error.status === 404);
    return gone ? (
      <Closed
        title={intl.formatMessage({ id: 'members.join.goneTitle', defaultMessage: 'This invitation no longer works' })}
        text={intl.formatMessage({
          id: 'members.join.goneText',
          defaultMessage: 'It has expired, was used already or was withdrawn. Ask whoever invited you for a new one.',
        })}
      />
    ) : (
      <FormError error={preview.error} />
    );
  }
  const invitation = preview.data;
  const signedIn = session.data ?? null;
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">
        {intl.formatMessage(
          { id: 'members.join.title', defaultMessage: 'Join {workspace}' },
          { workspace: <bdi key="workspace">{invitation.workspace.name}</bdi> },
        )}
      </h1>
      <p className="mt-2 text-sm text-zinc-700 dark:text-zinc-300">
        {invitation.invitedBy
          ? intl.formatMessage(
              {
                id: 'members.join.invitedBy',
                defaultMessage: '{inviter} invites {email} to work in {workspace} as {role, select, admin {an admin} other {a member}}.',
              },
              {
                inviter: invitation.invitedBy.name ?? invitation.invitedBy.email,
                email: strong('email', invitation.email),
                workspace: strong('workspace', invitation.workspace.name),
                role: invitation.role,
              },
            )
          : intl.formatMessage(
              {
                id: 'members.join.invited',
                defaultMessage: 'You are invited, {email} to work in {workspace} as {role, select, admin {an admin} other {a member}}.',
              },
              { email: strong('email', invitation.email), workspace: strong('workspace', invitation.workspace.name), role: invitation.role },
            )}
      </p>
      {signedIn ? (
        signedIn.user.email.toLowerCase() === invitation.email.toLowerCase() ? (
          <AcceptAsSignedIn token={token} workspaceName={invitation.workspace.name} />
        ) : (
          <WrongAccount invitedEmail={invitation.email} signedInEmail={signedIn.user.email} token={token} />
        )
      ) : invitation.hasAccount ? (
        <JoinSignInForm token={token} email={invitation.email} workspaceName={invitation.workspace.name} />
      ) : (
        <JoinSignUpForm token={token} email={invitation.email} workspaceName={invitation.workspace.name} />
      )}
    </>
  );
}

function Closed({ title, text }: { title: string; text: string }) {
  return (
    <>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">{text}</p>
    </>
  );
}

function AcceptAsSignedIn({ token, workspaceName }: { token: string; workspaceName: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const accept = useAcceptInvitation();
  return (
    <div className="mt-6 space-y-3">
      <FormError error={accept.error} />
      <Button className="w-full" disabled={accept.isPending} onClick={() => accept.mutate(token, { onSuccess: () => navigate({ href: defaultAfterSignIn, replace: true }) })}>
        {accept.isPending
          ? intl.formatMessage({ id: 'members.join.joining', defaultMessage: 'Joining…' })
          : intl.formatMessage({ id: 'members.join.joinButton', defaultMessage: 'Join {workspace}' }, { workspace: <bdi key="workspace">{workspaceName}</bdi> })}
      </Button>
    </div>
  );
}

function WrongAccount({ invitedEmail, signedInEmail, token }: { invitedEmail: string; signedInEmail: string; token: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const signOut = useSignOut({ onSignedOut: () => navigate({ to: '/signin', search: { redirect: `/join?token=${token}` } }) });
  return (
    <div className="mt-6 space-y-3 text-sm text-zinc-700 dark:text-zinc-300">
      <p>
        {intl.formatMessage(
          {
            id: 'members.join.wrongAccount',
            defaultMessage: 'You are signed in as {signedIn}. The invitation is for {invited}: sign out, then sign in with that address.',
          },
          { signedIn: strong('signedIn', signedInEmail), invited: strong('invited', invitedEmail) },
        )}
      </p>
      <FormError error={signOut.error} />
      <Button variant="secondary" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
        {signOut.isPending
          ? intl.formatMessage({ id: 'members.join.signingOut', defaultMessage: 'Signing out…' })
          : intl.formatMessage({ id: 'members.join.signOut', defaultMessage: 'Sign out' })}
      </Button>
    </div>
  );
}

const signInFields = ['password'] as const;

/** For a person with an account (in another workspace, or in none any more): their password, then Join. */
function JoinSignInForm({ token, email, workspaceName }: { token: string; email: string; workspaceName: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const join = useJoinSignIn();
  const form = useValidatedForm(signInFields, { password: '' }, (v) => ({
    password: v.password === '' ? intl.formatMessage({ id: 'members.join.passwordMissing', defaultMessage: 'Enter your password' }) : undefined,
  }));
  const [secondStep, setSecondStep] = useState(false);
  const onSubmit = form.handleSubmit((values) =>
    join.mutate(
      { token, password: values.password },
      { onSuccess: () => navigate({ href: defaultAfterSignIn, replace: true }), onError: (error) => (asksSecondStep(error) ? setSecondStep(true) : form.showServerErrors(error)) },
    ),
  );
  // Joined already; with two-step verification on, the code is asked before the session starts.
  if (secondStep) return <SecondStepForm onSignedIn={() => navigate({ href: defaultAfterSignIn, replace: true })} onStartOver={() => navigate({ to: '/signin' })} />;
  return (
    <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
      <p className="text-sm text-zinc-700 dark:text-zinc-300">
        {intl.formatMessage(
          { id: 'members.join.hasAccount', defaultMessage: '{email} has an account here: enter its password to join.' },
          { email },
        )}
      </p>
      <FormError error={join.error} />
      <TextField
        label={intl.formatMessage({ id: 'members.join.emailLabel', defaultMessage: 'Email' })}
        type="email"
        value={email}
        readOnly
        name="email"
        autoComplete="username"
      />
      <TextField
        label={intl.formatMessage({ id: 'members.join.passwordLabel', defaultMessage: 'Password' })}
        type="password"
        autoComplete="current-password"
        {...form.field('password')}
      />
      <Button type="submit" className="w-full" disabled={join.isPending}>
        {join.isPending
          ? intl.formatMessage({ id: 'members.join.joining', defaultMessage: 'Joining…' })
          : intl.formatMessage({ id: 'members.join.joinButton', defaultMessage: 'Join {workspace}' }, { workspace: <bdi key="workspace">{workspaceName}</bdi> })}
      </Button>
      <p className="text-center text-sm">
        <Link to="/forgot-password" className={linkClass}>
          {intl.formatMessage({ id: 'members.join.forgotPassword', defaultMessage: 'Forgot your password?' })}
        </Link>
      </p>
    </form>
  );
}

const signUpFields = ['name', 'password', 'repeat'] as const;

function JoinSignUpForm({ token, email, workspaceName }: { token: string; email: string; workspaceName: string }) {
  const intl = useIntl();
  const navigate = useNavigate();
  const join = useJoinSignUp();
  const form = useValidatedForm(signUpFields, { name: '', password: '', repeat: '' }, (v) => ({
    name:
      v.name.trim() === ''
        ? intl.formatMessage({ id: 'members.join.nameMissing', defaultMessage: 'Tell your team your name' })
        : v.name.trim().length > 100
          ? intl.formatMessage({ id: 'members.join.nameTooLong', defaultMessage: 'Use at most {max, plural, one {# character} other {# characters}}' }, { max: 100 })
          : undefined,
    password: newPasswordError(v.password),
    repeat: v.repeat !== v.password ? intl.formatMessage({ id: 'members.join.passwordsDiffer', defaultMessage: 'The two passwords are not the same' }) : undefined,
  }));
  const onSubmit = form.handleSubmit((values) =>
    join.mutate({ token, name: values.name.trim(), password: values.password }, { onSuccess: () => navigate({ href: defaultAfterSignIn, replace: true }), onError: form.showServerErrors }),
  );
  return (
    <form noValidate onSubmit={onSubmit} className="mt-6 space-y-4">
      <FormError error={join.error} />
      <TextField
        label={intl.formatMessage({ id: 'members.join.emailLabel', defaultMessage: 'Email' })}
        type="email"
        value={email}
        readOnly
        hint={intl.formatMessage({ id: 'members.join.emailHint', defaultMessage: 'The invitation is for this address.' })}
        name="email"
        autoComplete="username"
      />
      <TextField
        label={intl.formatMessage({ id: 'members.join.nameLabel', defaultMessage: 'Your name' })}
        autoComplete="name"
        hint={intl.formatMessage({ id: 'members.join.nameHint', defaultMessage: 'How your teammates see you.' })}
        {...form.field('name')}
      />
      <TextField
        label={intl.formatMessage({ id: 'members.join.passwordLabel', defaultMessage: 'Password' })}
        type="password"
        autoComplete="new-password"
        hint={newPasswordHint(intl)}
        {...form.field('password')}
      />
      <TextField
        label={intl.formatMessage({ id: 'members.join.repeatLabel', defaultMessage: 'Repeat the password' })}
        type="password"
        autoComplete="new-password"
        {...form.field('repeat')}
      />
      <Button type="submit" className="w-full" disabled={join.isPending}>
        {join.isPending
          ? intl.formatMessage({ id: 'members.join.joining', defaultMessage: 'Joining…' })
          : intl.formatMessage(
              { id: 'members.join.signUpButton', defaultMessage: 'Create your account and join {workspace}' },
              { workspace: <bdi key="workspace">{workspaceName}</bdi> },
            )}
      </Button>
    </form>
  );
}
