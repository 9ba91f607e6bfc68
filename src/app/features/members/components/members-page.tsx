import { useSuspenseQuery } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useId, useState, type ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { Session } from '../../../../contract/dashboard';
import type { Member, MemberInvitation } from '../../../../contract/members';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { DeliberateForm } from '../../../components/deliberate-form';
import { FormError } from '../../../components/form-error';
import { SelectField, TextField, inputClass } from '../../../components/text-field';
import { formatDate, formatDateTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
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

/** A role's name, as its badge and the role menus show it. */
function roleLabel(role: Member['role'], intl: IntlShape): string {
  switch (role) {
    case 'owner':
      return intl.formatMessage({ id: 'members.role.owner', defaultMessage: 'Owner' });
    case 'admin':
      return intl.formatMessage({ id: 'members.role.admin', defaultMessage: 'Admin' });
    case 'member':
      return intl.formatMessage({ id: 'members.role.member', defaultMessage: 'Member' });
  }
}

/** A person's name (or address) inside a sentence on screen. */
const isolated = (key: string, text: string) => <bdi key={key}>{text}</bdi>;

const who = (p: { name: string | null; email: string }) => p.name ?? p.email;

/**
 * The workspace's people. Everyone sees the team; the owner and admins invite, change roles and
 * remove (the server refuses anyone else whatever they send); the owner hands the workspace over.
 */
export function MembersPage({ session }: { session: Session }) {
  const intl = useIntl();
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
          <InviteSection onInvited={(email) => setAnnouncement(intl.formatMessage({ id: 'members.page.invitationSent', defaultMessage: 'Invitation sent to {email}.' }, { email }))} />
        </div>
      ) : null}
      <div className="space-y-8 lg:order-1">
        <section aria-labelledby="members-heading">
          <h2 id="members-heading" className="mb-4 text-lg font-semibold">
            {intl.formatMessage(
              { id: 'members.page.membersHeading', defaultMessage: 'Members <muted>({count, number})</muted>' },
              {
                count: data.members.length,
                muted: (chunks: ReactNode[]) => (
                  <span key="muted" className="text-sm font-normal text-zinc-600 dark:text-zinc-400">
                    {chunks}
                  </span>
                ),
              },
            )}
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
              {intl.formatMessage({ id: 'members.page.invitationsHeading', defaultMessage: 'Invitations' })}
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
  const intl = useIntl();
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
          {isYou ? (
            <span className="text-sm font-normal text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'members.row.you', defaultMessage: '(you)' })}</span>
          ) : null}
          {member.disabled ? <Badge tone="warning">{intl.formatMessage({ id: 'members.row.disabled', defaultMessage: 'Disabled' })}</Badge> : null}
          {session.workspace.requireTwoStep && !member.twoStep ? (
            <Badge tone="warning">{intl.formatMessage({ id: 'members.row.noTwoStep', defaultMessage: 'Two-step verification not set up' })}</Badge>
          ) : null}
        </p>
        <p className="text-sm break-all text-zinc-600 dark:text-zinc-400">{member.name ? member.email : null}</p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage(
            { id: 'members.row.joined', defaultMessage: 'Joined {date}' },
            {
              date: (
                <time key="date" dateTime={member.joinedAt} title={formatDateTime(member.joinedAt)}>
                  {formatDate(member.joinedAt)}
                </time>
              ),
            },
          )}
        </p>
        <FormError error={changeRole.error} className="mt-2" />
      </div>
      <div className="flex flex-wrap items-center gap-2">
        {canManage ? (
          <>
            <label htmlFor={selectId} className="sr-only">
              {intl.formatMessage({ id: 'members.row.roleOf', defaultMessage: 'Role of {name}' }, { name: isolated('name', name) })}
            </label>
            <select
              id={selectId}
              className={`${inputClass} w-28 py-1`}
              value={member.role}
              disabled={changeRole.isPending}
              onChange={(e) => {
                const role = e.target.value as 'admin' | 'member';
                changeRole.mutate(
                  { userId: member.id, role },
                  {
                    onSuccess: () =>
                      onDone(
                        intl.formatMessage(
                          { id: 'members.row.roleChanged', defaultMessage: '{name} is now {role, select, admin {an admin} other {a member}}.' },
                          { name, role },
                        ),
                      ),
                  },
                );
              }}
            >
              <option value="admin">{roleLabel('admin', intl)}</option>
              <option value="member">{roleLabel('member', intl)}</option>
            </select>
          </>
        ) : (
          <Badge tone={member.role === 'owner' ? 'accent' : 'neutral'}>{roleLabel(member.role, intl)}</Badge>
        )}
        {myRole === 'owner' && !isYou && !member.disabled ? (
          <ConfirmedAction
            label={intl.formatMessage({ id: 'members.row.makeOwner', defaultMessage: 'Make owner' })}
            accessibleName={intl.formatMessage({ id: 'members.row.makeOwnerName', defaultMessage: 'Make {name} the owner' }, { name })}
            variant="secondary"
            size="small"
            title={intl.formatMessage({ id: 'members.row.makeOwnerTitle', defaultMessage: 'Hand the workspace to {name}?' }, { name })}
            pendingLabel={intl.formatMessage({ id: 'members.row.handingOver', defaultMessage: 'Handing over…' })}
            action={{ ...handOver, mutate: (_: undefined, options: { onSuccess: (s: Session) => void }) => handOver.mutate(member.id, options) }}
            onDone={() => onDone(intl.formatMessage({ id: 'members.row.handedOver', defaultMessage: '{name} owns the workspace now; you are an admin.' }, { name }))}
          >
            {intl.formatMessage(
              {
                id: 'members.row.makeOwnerText',
                defaultMessage:
                  '{name} becomes the owner (the plan, deleting the workspace and ownership are theirs), and you become an admin. Only they can hand it back.',
              },
              { name: isolated('name', name) },
            )}
          </ConfirmedAction>
        ) : null}
        {canManage ? (
          <ConfirmedAction
            label={intl.formatMessage({ id: 'members.row.remove', defaultMessage: 'Remove' })}
            accessibleName={intl.formatMessage({ id: 'members.row.removeName', defaultMessage: 'Remove {name}' }, { name })}
            size="small"
            title={intl.formatMessage({ id: 'members.row.removeTitle', defaultMessage: 'Remove {name} from the workspace?' }, { name })}
            pendingLabel={intl.formatMessage({ id: 'members.row.removing', defaultMessage: 'Removing…' })}
            action={{ ...remove, mutate: (_: undefined, options: { onSuccess: (result: void) => void }) => remove.mutate(member.id, options) }}
            onDone={() => onDone(intl.formatMessage({ id: 'members.row.removed', defaultMessage: '{name} was removed.' }, { name }))}
          >
            {intl.formatMessage({
              id: 'members.row.removeText',
              defaultMessage: 'They are signed out of this workspace at once, and their keys to it stop working. What they sent stays, still shown as theirs.',
            })}
          </ConfirmedAction>
        ) : null}
        {isYou && member.role !== 'owner' ? (
          <ConfirmedAction
            label={intl.formatMessage({ id: 'members.row.leave', defaultMessage: 'Leave' })}
            accessibleName={intl.formatMessage({ id: 'members.row.leaveName', defaultMessage: 'Leave the workspace' })}
            size="small"
            title={intl.formatMessage({ id: 'members.row.leaveTitle', defaultMessage: 'Leave {workspace}?' }, { workspace: session.workspace.name })}
            pendingLabel={intl.formatMessage({ id: 'members.row.leaving', defaultMessage: 'Leaving…' })}
            action={{ ...remove, mutate: (_: undefined, options: { onSuccess: (result: void) => void }) => remove.mutate(member.id, options) }}
            onDone={() => signOut.mutate()}
          >
            {intl.formatMessage({
              id: 'members.row.leaveText',
              defaultMessage: 'You lose access to its transfers, collections and requests until someone invites you again. What you sent stays with the workspace.',
            })}
          </ConfirmedAction>
        ) : null}
      </div>
    </li>
  );
}

function InvitationRow({ invitation, onDone }: { invitation: MemberInvitation; onDone: (message: string) => void }) {
  const intl = useIntl();
  const resend = useResendInvitation();
  const revoke = useRevokeInvitation();
  // "sent 3 May", or for one that ran out, when it did: "expired 10 May".
  const shownAt = invitation.expired ? invitation.expiresAt : invitation.sentAt;
  const sentAt = (
    <time key="date" dateTime={shownAt} title={formatDateTime(shownAt)}>
      {formatDate(shownAt)}
    </time>
  );
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center">
      <div className="min-w-0 flex-1">
        <p className="font-medium break-all">{invitation.email}</p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          {invitation.invitedBy
            ? intl.formatMessage(
                { id: 'members.invitation.sentBy', defaultMessage: '{role} · {expired, select, true {expired} other {sent}} {date} by {inviter}' },
                { role: roleLabel(invitation.role, intl), expired: String(invitation.expired), date: sentAt, inviter: isolated('inviter', who(invitation.invitedBy)) },
              )
            : intl.formatMessage(
                { id: 'members.invitation.sent', defaultMessage: '{role} · {expired, select, true {expired} other {sent}} {date}' },
                { role: roleLabel(invitation.role, intl), expired: String(invitation.expired), date: sentAt },
              )}
        </p>
        <FormError error={resend.error ?? revoke.error} className="mt-2" />
      </div>
      <div className="flex flex-wrap gap-2">
        <Button
          variant="secondary"
          className="px-2.5 py-1 text-xs"
          aria-label={intl.formatMessage({ id: 'members.invitation.resendName', defaultMessage: 'Send the invitation to {email} again' }, { email: invitation.email })}
          disabled={resend.isPending}
          onClick={() =>
            resend.mutate(invitation.id, {
              onSuccess: () =>
                onDone(intl.formatMessage({ id: 'members.invitation.resent', defaultMessage: 'Invitation sent to {email} again.' }, { email: invitation.email })),
            })
          }
        >
          {resend.isPending
            ? intl.formatMessage({ id: 'members.invitation.sending', defaultMessage: 'Sending…' })
            : intl.formatMessage({ id: 'members.invitation.resend', defaultMessage: 'Send again' })}
        </Button>
        <ConfirmedAction
          label={intl.formatMessage({ id: 'members.invitation.revoke', defaultMessage: 'Revoke' })}
          accessibleName={intl.formatMessage({ id: 'members.invitation.revokeName', defaultMessage: 'Revoke the invitation to {email}' }, { email: invitation.email })}
          size="small"
          title={intl.formatMessage({ id: 'members.invitation.revokeTitle', defaultMessage: 'Revoke the invitation to {email}?' }, { email: invitation.email })}
          pendingLabel={intl.formatMessage({ id: 'members.invitation.revoking', defaultMessage: 'Revoking…' })}
          action={{ ...revoke, mutate: (_: undefined, options: { onSuccess: (result: void) => void }) => revoke.mutate(invitation.id, options) }}
          onDone={() =>
            onDone(intl.formatMessage({ id: 'members.invitation.revoked', defaultMessage: 'The invitation to {email} was revoked.' }, { email: invitation.email }))
          }
        >
          {intl.formatMessage({ id: 'members.invitation.revokeText', defaultMessage: 'Its link stops working at once.' })}
        </ConfirmedAction>
      </div>
    </li>
  );
}

const inviteFields = ['email'] as const;

/** Mails an invitation: sent only by its button, never by Enter in the address field. */
function InviteSection({ onInvited }: { onInvited: (email: string) => void }) {
  const intl = useIntl();
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
        {intl.formatMessage({ id: 'members.invite.heading', defaultMessage: 'Invite someone' })}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'members.invite.intro', defaultMessage: 'They get a mail with a link, valid 7 days, for that address only.' })}
      </p>
      <DeliberateForm noValidate onSubmit={onSubmit} className="mt-4 space-y-4">
        <FormError error={invite.error} />
        <TextField
          label={intl.formatMessage({ id: 'members.invite.emailLabel', defaultMessage: 'Email' })}
          type="email"
          autoComplete="off"
          inputMode="email"
          {...form.field('email')}
        />
        <SelectField
          label={intl.formatMessage({ id: 'members.invite.roleLabel', defaultMessage: 'Role' })}
          value={role}
          onChange={(e) => setRole(e.target.value as 'admin' | 'member')}
          hint={intl.formatMessage({ id: 'members.invite.roleHint', defaultMessage: 'Admins manage members, keys, webhooks and settings, and every transfer.' })}
        >
          <option value="member">{roleLabel('member', intl)}</option>
          <option value="admin">{roleLabel('admin', intl)}</option>
        </SelectField>
        <Button type="submit" className="w-full" disabled={invite.isPending}>
          {invite.isPending
            ? intl.formatMessage({ id: 'members.invite.sending', defaultMessage: 'Sending…' })
            : intl.formatMessage({ id: 'members.invite.send', defaultMessage: 'Send the invitation' })}
        </Button>
      </DeliberateForm>
    </section>
  );
}
