import { useId, type ReactNode } from 'react';
import type { IntlShape } from 'react-intl';
import type { AdminPerson, AdminWorkspace } from '../../../../contract/dashboard';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { FormError } from '../../../components/form-error';
import { inputClass, TextField } from '../../../components/text-field';
import { formatBytes, formatDateTime, formatInteger } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useInvite, useInvites, useRevokeInvite } from '../api/invites';
import { useAdminPeople, useSetPersonDisabled } from '../api/people';
import { useBillingOn } from '../../auth';
import { describeWorkspaceChange, useAdminWorkspaces, useUpdateAdminWorkspace } from '../api/workspaces';

/** A person's role in one of their workspaces, in lower case after its name. */
function roleName(role: AdminPerson['workspaces'][number]['role'], intl: IntlShape): string {
  switch (role) {
    case 'owner':
      return intl.formatMessage({ id: 'admin.person.roleOwner', defaultMessage: 'owner' });
    case 'admin':
      return intl.formatMessage({ id: 'admin.person.roleAdmin', defaultMessage: 'admin' });
    case 'member':
      return intl.formatMessage({ id: 'admin.person.roleMember', defaultMessage: 'member' });
  }
}

/** The server setting that limits sign-up to invitations, written as it is set. */
const INVITE_SETTING = 'SIGNUP=invite';

/** "Since <date> · <id>": when a workspace or person was made, and its id. */
function since(intl: IntlShape, createdAt: string, id: string) {
  return intl.formatMessage(
    { id: 'admin.since', defaultMessage: 'Since {date} · {id}' },
    {
      date: (
        <time key="date" dateTime={createdAt}>
          {formatDateTime(createdAt)}
        </time>
      ),
      id: <code key="id">{id}</code>,
    },
  );
}

function WorkspaceRow({ workspace }: { workspace: AdminWorkspace }) {
  const intl = useIntl();
  const selectId = useId();
  const update = useUpdateAdminWorkspace(workspace.id);
  const billingOn = useBillingOn();
  const name = workspace.name;
  return (
    <li className="grid gap-3 border-b border-zinc-200 p-4 last:border-b-0 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] md:items-center dark:border-zinc-800">
      <div className="min-w-0">
        <h3 className="flex flex-wrap items-center gap-2 font-medium">
          <span className="truncate">{name}</span>
          {workspace.isOwn ? <Badge>{intl.formatMessage({ id: 'admin.workspace.yours', defaultMessage: 'Yours' })}</Badge> : null}
          {workspace.disabled ? <Badge tone="warning">{intl.formatMessage({ id: 'admin.workspace.disabled', defaultMessage: 'Disabled' })}</Badge> : null}
        </h3>
        <p className="truncate text-sm text-zinc-600 dark:text-zinc-400">
          {workspace.ownerEmail ?? intl.formatMessage({ id: 'admin.workspace.noOwner', defaultMessage: 'No owner' })}
        </p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">{since(intl, workspace.createdAt, workspace.id)}</p>
        {/* Always rendered, so that screen readers announce the message when it appears. */}
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          {update.isSuccess ? describeWorkspaceChange(update.data, update.variables, intl) : ''}
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 text-sm md:col-span-2">
        <div>
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'admin.workspace.transfers', defaultMessage: 'Transfers' })}</dt>
          <dd>{formatInteger(workspace.transferCount)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'admin.workspace.storage', defaultMessage: 'Storage' })}</dt>
          <dd>{formatBytes(workspace.storageBytes)}</dd>
        </div>
        <div className="col-span-2 mt-1">
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'admin.workspace.apiCalls', defaultMessage: 'API calls this month' })}
          </dt>
          <dd>{formatInteger(workspace.apiCallsThisMonth)}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-end gap-2 md:justify-end">
        {billingOn ? (
          <div>
            <label htmlFor={selectId} className="block text-xs text-zinc-600 dark:text-zinc-400">
              {intl.formatMessage({ id: 'admin.workspace.planOf', defaultMessage: 'Plan of {name}' }, { name: <bdi key="name">{name}</bdi> })}
            </label>
            <select
              id={selectId}
              className={`${inputClass} mt-1 w-28 py-1`}
              value={workspace.plan}
              disabled={update.isPending}
              onChange={(e) => update.mutate({ plan: e.target.value as 'free' | 'paid' })}
            >
              <option value="free">{intl.formatMessage({ id: 'admin.workspace.planFree', defaultMessage: 'Free' })}</option>
              <option value="paid">{intl.formatMessage({ id: 'admin.workspace.planPaid', defaultMessage: 'Paid' })}</option>
            </select>
          </div>
        ) : null}
        {workspace.isOwn ? null : workspace.disabled ? (
          <Button
            variant="secondary"
            className="px-2.5 py-1 text-xs"
            aria-label={intl.formatMessage({ id: 'admin.workspace.enableName', defaultMessage: 'Enable {name}' }, { name })}
            disabled={update.isPending}
            onClick={() => update.mutate({ disabled: false })}
          >
            {intl.formatMessage({ id: 'admin.workspace.enable', defaultMessage: 'Enable' })}
          </Button>
        ) : (
          <ConfirmedAction
            label={intl.formatMessage({ id: 'admin.workspace.disable', defaultMessage: 'Disable' })}
            accessibleName={intl.formatMessage({ id: 'admin.workspace.disableName', defaultMessage: 'Disable {name}' }, { name })}
            size="small"
            title={intl.formatMessage({ id: 'admin.workspace.disableTitle', defaultMessage: 'Disable “{name}”?' }, { name })}
            pendingLabel={intl.formatMessage({ id: 'admin.workspace.disabling', defaultMessage: 'Disabling…' })}
            action={{ ...update, mutate: (_: undefined, options: { onSuccess: (w: AdminWorkspace) => void }) => update.mutate({ disabled: true }, options) }}
            onDone={() => undefined}
          >
            {intl.formatMessage({
              id: 'admin.workspace.disableText',
              defaultMessage:
                'Its people are signed out and cannot sign in, its API keys are refused, and its links and downloads stop until you enable it again. Nothing is deleted.',
            })}
          </ConfirmedAction>
        )}
      </div>
      <FormError error={update.error} className="md:col-span-4" />
    </li>
  );
}

/** The lighter part of an invitation's line: until when it works. */
const muted = (chunks: ReactNode[]) => (
  <span key="muted" className="text-xs text-zinc-600 dark:text-zinc-400">
    {chunks}
  </span>
);

function InviteRow({ id, email, expiresAt }: { id: string; email: string; expiresAt: string }) {
  const intl = useIntl();
  const revoke = useRevokeInvite(id);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-2">
      <span className="min-w-0 truncate text-sm">
        {intl.formatMessage(
          { id: 'admin.invite.until', defaultMessage: '{email} <muted>until {date}</muted>' },
          { email: <bdi key="email">{email}</bdi>, date: formatDateTime(expiresAt), muted },
        )}
      </span>
      <ConfirmedAction
        label={intl.formatMessage({ id: 'admin.invite.revoke', defaultMessage: 'Revoke' })}
        accessibleName={intl.formatMessage({ id: 'admin.invite.revokeName', defaultMessage: 'Revoke the invitation of {email}' }, { email })}
        size="small"
        title={intl.formatMessage({ id: 'admin.invite.revokeTitle', defaultMessage: 'Revoke the invitation of {email}?' }, { email })}
        pendingLabel={intl.formatMessage({ id: 'admin.invite.revoking', defaultMessage: 'Revoking…' })}
        action={revoke}
        onDone={() => undefined}
      >
        {intl.formatMessage({ id: 'admin.invite.revokeText', defaultMessage: 'The link in the invitation stops working.' })}
      </ConfirmedAction>
    </li>
  );
}

function Invites() {
  const intl = useIntl();
  const headingId = useId();
  const { data: invites } = useInvites();
  const invite = useInvite();
  const form = useValidatedForm(['email'] as const, { email: '' }, (v) => ({
    email: /^[^\s@]+@[^\s@]+$/.test(v.email.trim()) ? undefined : intl.formatMessage({ id: 'admin.invites.emailInvalid', defaultMessage: 'Enter a valid email address' }),
  }));
  const onSubmit = form.handleSubmit((values) => invite.mutate(values.email.trim(), { onError: form.showServerErrors }));
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {intl.formatMessage({ id: 'admin.invites.heading', defaultMessage: 'Invitations' })}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage(
          {
            id: 'admin.invites.intro',
            defaultMessage: 'With {setting}, only invited addresses can create an account. Each invitation is mailed, works once and lasts 7 days.',
          },
          { setting: <code key="setting">{INVITE_SETTING}</code> },
        )}
      </p>
      <form noValidate onSubmit={onSubmit} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <TextField
            label={intl.formatMessage({ id: 'admin.invites.emailLabel', defaultMessage: 'Email to invite' })}
            type="email"
            autoComplete="off"
            {...form.field('email')}
          />
        </div>
        <Button type="submit" className="sm:mt-6" disabled={invite.isPending}>
          {invite.isPending
            ? intl.formatMessage({ id: 'admin.invites.inviting', defaultMessage: 'Inviting…' })
            : intl.formatMessage({ id: 'admin.invites.invite', defaultMessage: 'Invite' })}
        </Button>
      </form>
      <p role="status" className="mt-2 text-sm text-emerald-700 dark:text-emerald-400">
        {invite.isSuccess
          ? intl.formatMessage({ id: 'admin.invites.sent', defaultMessage: 'Invitation sent to {email}.' }, { email: <bdi key="email">{invite.data.email}</bdi> })
          : ''}
      </p>
      <FormError error={invite.error} />
      {invites.length > 0 ? (
        <ul aria-label={intl.formatMessage({ id: 'admin.invites.openList', defaultMessage: 'Open invitations' })} className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800">
          {invites.map((i) => (
            <InviteRow key={i.id} id={i.id} email={i.email} expiresAt={i.expiresAt} />
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'admin.invites.none', defaultMessage: 'No open invitations.' })}</p>
      )}
    </Card>
  );
}

function PersonRow({ person }: { person: AdminPerson }) {
  const intl = useIntl();
  const update = useSetPersonDisabled(person.id);
  const who = person.name ?? person.email;
  return (
    <li className="grid gap-3 border-b border-zinc-200 p-4 last:border-b-0 md:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_auto] md:items-center dark:border-zinc-800">
      <div className="min-w-0">
        <h3 className="flex flex-wrap items-center gap-2 font-medium">
          <span className="truncate">{who}</span>
          {person.isYou ? <Badge>{intl.formatMessage({ id: 'admin.person.you', defaultMessage: 'You' })}</Badge> : null}
          {person.disabled ? <Badge tone="warning">{intl.formatMessage({ id: 'admin.person.disabled', defaultMessage: 'Disabled' })}</Badge> : null}
        </h3>
        {person.name ? <p className="truncate text-sm text-zinc-600 dark:text-zinc-400">{person.email}</p> : null}
        <p className="text-xs text-zinc-600 dark:text-zinc-400">{since(intl, person.createdAt, person.id)}</p>
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          {update.isSuccess
            ? update.data.disabled
              ? intl.formatMessage({ id: 'admin.person.disabledNow', defaultMessage: '{name} is disabled: signed out everywhere.' }, { name: who })
              : intl.formatMessage({ id: 'admin.person.enabledAgain', defaultMessage: '{name} can sign in again.' }, { name: who })
            : ''}
        </p>
      </div>
      <ul aria-label={intl.formatMessage({ id: 'admin.person.workspacesOf', defaultMessage: 'Workspaces of {name}' }, { name: who })} className="text-sm">
        {person.workspaces.length === 0 ? (
          <li className="text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'admin.person.noWorkspace', defaultMessage: 'No workspace' })}</li>
        ) : null}
        {person.workspaces.map((w) => (
          <li key={w.id} className="truncate">
            {intl.formatMessage(
              { id: 'admin.person.workspaceRole', defaultMessage: '{workspace} <muted>({role})</muted>' },
              {
                workspace: <bdi key="workspace">{w.name}</bdi>,
                role: roleName(w.role, intl),
                muted: (chunks: ReactNode[]) => (
                  <span key="muted" className="text-zinc-600 dark:text-zinc-400">
                    {chunks}
                  </span>
                ),
              },
            )}
          </li>
        ))}
      </ul>
      <div className="flex md:justify-end">
        {person.isYou ? null : person.disabled ? (
          <Button
            variant="secondary"
            className="px-2.5 py-1 text-xs"
            aria-label={intl.formatMessage({ id: 'admin.person.enableName', defaultMessage: 'Enable {name}' }, { name: who })}
            disabled={update.isPending}
            onClick={() => update.mutate(false)}
          >
            {intl.formatMessage({ id: 'admin.person.enable', defaultMessage: 'Enable' })}
          </Button>
        ) : (
          <ConfirmedAction
            label={intl.formatMessage({ id: 'admin.person.disable', defaultMessage: 'Disable' })}
            accessibleName={intl.formatMessage({ id: 'admin.person.disableName', defaultMessage: 'Disable {name}' }, { name: who })}
            size="small"
            title={intl.formatMessage({ id: 'admin.person.disableTitle', defaultMessage: 'Disable {name} everywhere?' }, { name: who })}
            pendingLabel={intl.formatMessage({ id: 'admin.person.disabling', defaultMessage: 'Disabling…' })}
            action={{ ...update, mutate: (_: undefined, options: { onSuccess: (p: AdminPerson) => void }) => update.mutate(true, options) }}
            onDone={() => undefined}
          >
            {intl.formatMessage({
              id: 'admin.person.disableText',
              defaultMessage:
                'They are signed out of every workspace, their apps lose access, and they cannot sign in until you enable them again. Their workspaces, and the API keys of those, go on; nothing is deleted.',
            })}
          </ConfirmedAction>
        )}
      </div>
      <FormError error={update.error} className="md:col-span-3" />
    </li>
  );
}

function People() {
  const intl = useIntl();
  const headingId = useId();
  const { data: people } = useAdminPeople();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-3 text-lg font-semibold">
        {intl.formatMessage({ id: 'admin.people.heading', defaultMessage: 'People ({count, number})' }, { count: people.length })}
      </h2>
      <ul className="rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
        {people.map((p) => (
          <PersonRow key={p.id} person={p} />
        ))}
      </ul>
    </section>
  );
}

/** The operator's page: every workspace and person on the server, and invitations to sign up. */
export function AdminPage() {
  const intl = useIntl();
  const headingId = useId();
  const { data: workspaces } = useAdminWorkspaces();
  return (
    <div className="space-y-6">
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="mb-3 text-lg font-semibold">
          {intl.formatMessage({ id: 'admin.workspaces.heading', defaultMessage: 'Workspaces ({count, number})' }, { count: workspaces.length })}
        </h2>
        <ul className="rounded-lg border border-zinc-200 bg-white dark:border-zinc-800 dark:bg-zinc-900">
          {workspaces.map((w) => (
            <WorkspaceRow key={w.id} workspace={w} />
          ))}
        </ul>
      </section>
      <People />
      <Invites />
    </div>
  );
}

