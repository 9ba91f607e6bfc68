import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import type { Session } from '../../../../contract/dashboard';
import type { Member, MemberInvitation } from '../../../../contract/members';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { DeliberateForm } from '../../../components/deliberate-form';
import { FormError } from '../../../components/form-error';
import { SelectField, TextField, inputClass } from '../../../components/text-field';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { emailError, useSignOut } from '../../auth';
import {
  membersQueryOptions,
  useChangeRole,
  useInviteMember,
  useRemoveMember,
  useResendInvitation,
  useRevokeInvitation,
  useTransferOwnership,
} from '../api/members';

const roleLabel: Record<Member['role'], string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };
const who = (p: { name: string | null; email: string }) => p.name ?? p.email;

/**
 * The workspace's people. Everyone sees the team; the owner and admins invite, change roles and
 * remove (the server refuses anyone else whatever they send); the owner hands the workspace over.
 */
export function MembersPage({ session }: { session: Session }) {
  const { data } = useSuspenseQuery(membersQueryOptions());
  const [announcement, setAnnouncement] = useState('');
  const manages = session.workspace.role !== 'member';
  return (
    <div className="grid items-start gap-8 lg:grid-cols-[minmax(0,1fr)_24rem]">
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {manages ? (
        <div className="lg:order-2">
          <InviteSection onInvited={(email) => setAnnouncement(`Invitation sent to ${email}.`)} />
        </div>
      ) : null}
      <div className="space-y-8 lg:order-1">
        <section aria-labelledby="members-heading">
          <h2 id="members-heading" className="mb-4 text-lg font-semibold">
            Members <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">({data.members.length})</span>
          </h2>
          <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
            {data.members.map((m) => (
              <MemberRow key={m.id} member={m} session={session} onDone={setAnnouncement} />
            ))}
          </ul>
        </section>
        {manages && data.invitations.length > 0 ? (
          <section aria-labelledby="invitations-heading">
            <h2 id="invitations-heading" className="mb-4 text-lg font-semibold">
              Invitations
            </h2>
            <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
              {data.invitations.map((i) => (
                <InvitationRow key={i.id} invitation={i} onDone={setAnnouncement} />
              ))}
            </ul>
          </section>
        ) : null}
      </div>
    </div>
  );
}

function MemberRow({ member, session, onDone }: { member: Member; session: Session; onDone: (message: string) => void }) {
  const navigate = useNavigate();
  const changeRole = useChangeRole();
  const remove = useRemoveMember();
  const handOver = useTransferOwnership();
  const signOut = useSignOut({ onSignedOut: () => navigate({ to: '/signin' }) });
  const selectId = useId();
  const myRole = session.workspace.role;
  const isYou = member.id === session.user.id;
  const canManage = myRole !== 'member' && member.role !== 'owner' && !isYou;
  const name = who(member);
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="flex flex-wrap items-baseline gap-x-2 font-medium break-words">
          {name}
          {isYou ? <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">(you)</span> : null}
          {member.disabled ? <Badge tone="warning">Disabled</Badge> : null}
          {session.workspace.requireTwoStep && !member.twoStep ? <Badge tone="warning">Two-step verification not set up</Badge> : null}
        </p>
        <p className="text-sm break-all text-zinc-600 dark:text-zinc-400">{member.name ? member.email : null}</p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Joined{' '}
          <time dateTime={member.joinedAt} title={formatDateTime(member.joinedAt)}>
            {formatDate(member.joinedAt)}
          </time>
        </p>
        <FormError error={changeRole.error} className="mt-2" />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {canManage ? (
          <>
            <label htmlFor={selectId} className="sr-only">
              Role of {name}
            </label>
            <select
              id={selectId}
              className={`${inputClass} w-28 py-1`}
              value={member.role}
              disabled={changeRole.isPending}
              onChange={(e) => {
                const role = e.target.value as 'admin' | 'member';
                changeRole.mutate({ userId: member.id, role }, { onSuccess: () => onDone(`${name} is now ${role === 'admin' ? 'an admin' : 'a member'}.`) });
              }}
            >
              <option value="admin">Admin</option>
              <option value="member">Member</option>
            </select>
          </>
        ) : (
          <Badge tone={member.role === 'owner' ? 'accent' : 'neutral'}>{roleLabel[member.role]}</Badge>
        )}
        {myRole === 'owner' && !isYou && !member.disabled ? (
          <ConfirmedAction
            label="Make owner"
            accessibleName={`Make ${name} the owner`}
            variant="secondary"
            size="small"
            title={`Hand the workspace to ${name}?`}
            pendingLabel="Handing over…"
            action={{ ...handOver, mutate: (_: undefined, options: { onSuccess: (s: Session) => void }) => handOver.mutate(member.id, options) }}
            onDone={() => onDone(`${name} owns the workspace now; you are an admin.`)}
          >
            {name} becomes the owner (the plan, deleting the workspace and ownership are theirs), and you become an admin. Only they can hand it back.
          </ConfirmedAction>
        ) : null}
        {canManage ? (
          <ConfirmedAction
            label="Remove"
            accessibleName={`Remove ${name}`}
            size="small"
            title={`Remove ${name} from the workspace?`}
            pendingLabel="Removing…"
            action={{ ...remove, mutate: (_: undefined, options: { onSuccess: (result: void) => void }) => remove.mutate(member.id, options) }}
            onDone={() => onDone(`${name} was removed.`)}
          >
            They are signed out of this workspace at once, and their keys to it stop working. What they sent stays, still shown as theirs.
          </ConfirmedAction>
        ) : null}
        {isYou && member.role !== 'owner' ? (
          <ConfirmedAction
            label="Leave"
            accessibleName="Leave the workspace"
            size="small"
            title={`Leave ${session.workspace.name}?`}
            pendingLabel="Leaving…"
            action={{ ...remove, mutate: (_: undefined, options: { onSuccess: (result: void) => void }) => remove.mutate(member.id, options) }}
            onDone={() => signOut.mutate()}
          >
            You lose access to its transfers, collections and requests until someone invites you again. What you sent stays with the workspace.
          </ConfirmedAction>
        ) : null}
      </div>
    </li>
  );
}

function InvitationRow({ invitation, onDone }: { invitation: MemberInvitation; onDone: (message: string) => void }) {
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="font-medium break-all">{invitation.email}</p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {roleLabel[invitation.role]} · {invitation.expired ? 'expired' : 'sent'}{' '}
          <time dateTime={invitation.sentAt} title={formatDateTime(invitation.sentAt)}>
            {formatDate(invitation.sentAt)}
          </time>
          {invitation.invitedBy ? ` by ${who(invitation.invitedBy)}` : null}
        </p>
        <FormError error={resend.error ?? revoke.error} className="mt-2" />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          className="px-2.5 py-1 text-xs"
          aria-label={`Send the invitation to ${invitation.email} again`}
          disabled={resend.isPending}
          onClick={() => resend.mutate(invitation.id, { onSuccess: () => onDone(`Invitation sent to ${invitation.email} again.`) })}
        >
          {resend.isPending ? 'Sending…' : 'Send again'}
        </Button>
        <ConfirmedAction
          label="Revoke"
          accessibleName={`Revoke the invitation to ${invitation.email}`}
          size="small"
          title={`Revoke the invitation to ${invitation.email}?`}
          pendingLabel="Revoking…"
          action={{ ...revoke, mutate: (_: undefined, options: { onSuccess: (result: void) => void }) => revoke.mutate(invitation.id, options) }}
          onDone={() => onDone(`The invitation to ${invitation.email} was revoked.`)}
        >
          Its link stops working at once.
        </ConfirmedAction>
      </div>
    </li>
  );
}

const inviteFields = ['email'] as const;

/** Mails an invitation: sent only by its button, never by Enter in the address field. */
function InviteSection({ onInvited }: { onInvited: (email: string) => void }) {
  const invite = useInviteMember();
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const form = useValidatedForm(inviteFields, { email: '' }, (v) => ({ email: emailError(v.email) }));
  const onSubmit = form.handleSubmit((values) => {
    const email = values.email.trim();
    invite.mutate(
      { email, role },
      {
        onSuccess: () => {
          form.reset();
          onInvited(email);
        },
        onError: form.showServerErrors,
      },
    );
  });
  return (
    <section aria-labelledby="invite-heading" className="rounded-lg border border-zinc-200 bg-white p-4 sm:p-6 dark:border-zinc-800 dark:bg-zinc-900">
      <h2 id="invite-heading" className="text-lg font-semibold">
        Invite someone
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">They get a mail with a link, valid 7 days, for that address only.</p>
      <DeliberateForm noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
        <FormError error={invite.error} />
        <TextField label="Email" type="email" autoComplete="off" inputMode="email" {...form.field('email')} />
        <SelectField label="Role" value={role} onChange={(e) => setRole(e.target.value as 'admin' | 'member')} hint="Admins manage members, keys, webhooks and settings, and every transfer.">
          <option value="member">Member</option>
          <option value="admin">Admin</option>
        </SelectField>
        <Button type="submit" className="w-full" disabled={invite.isPending}>
          {invite.isPending ? 'Sending…' : 'Send the invitation'}
        </Button>
      </DeliberateForm>
    </section>
  );
}
