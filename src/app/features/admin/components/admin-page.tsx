import { useId } from 'react';
import type { AdminPerson, AdminWorkspace } from '../../../../contract/dashboard';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmedAction } from '../../../components/confirmed-action';
import { FormError } from '../../../components/form-error';
import { inputClass, TextField } from '../../../components/text-field';
import { formatBytes, formatDateTime, formatInteger } from '../../../lib/format';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { useInvite, useInvites, useRevokeInvite } from '../api/invites';
import { useAdminPeople, useSetPersonDisabled } from '../api/people';
import { useBillingOn } from '../../auth';
import { describeWorkspaceChange, useAdminWorkspaces, useUpdateAdminWorkspace } from '../api/workspaces';

function WorkspaceRow({ workspace }: { workspace: AdminWorkspace }) {
  const selectId = useId();
  const update = useUpdateAdminWorkspace(workspace.id);
  const billingOn = useBillingOn();
  const name = workspace.name;
  return (
    <li className="grid gap-3 border-b border-zinc-200 p-4 last:border-b-0 md:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] md:items-center dark:border-zinc-800">
      <div className="min-w-0">
        <h3 className="flex flex-wrap items-center gap-2 font-medium">
          <span className="truncate">{name}</span>
          {workspace.isOwn ? <Badge>Yours</Badge> : null}
          {workspace.disabled ? <Badge tone="warning">Disabled</Badge> : null}
        </h3>
        <p className="truncate text-sm text-zinc-600 dark:text-zinc-400">{workspace.ownerEmail ?? 'No owner'}</p>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Since <time dateTime={workspace.createdAt}>{formatDateTime(workspace.createdAt)}</time> · <code>{workspace.id}</code>
        </p>
        {/* Always rendered, so that screen readers announce the message when it appears. */}
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          {update.isSuccess ? describeWorkspaceChange(update.data, update.variables) : ''}
        </p>
      </div>
      <dl className="grid grid-cols-2 gap-x-4 text-sm md:col-span-2">
        <div>
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">Transfers</dt>
          <dd>{formatInteger(workspace.transferCount)}</dd>
        </div>
        <div>
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">Storage</dt>
          <dd>{formatBytes(workspace.storageBytes)}</dd>
        </div>
        <div className="col-span-2 mt-1">
          <dt className="text-xs text-zinc-600 dark:text-zinc-400">API calls this month</dt>
          <dd>{formatInteger(workspace.apiCallsThisMonth)}</dd>
        </div>
      </dl>
      <div className="flex flex-wrap items-end gap-2 md:justify-end">
        {billingOn ? (
          <div>
            <label htmlFor={selectId} className="block text-xs text-zinc-600 dark:text-zinc-400">
              Plan of {name}
            </label>
            <select
              id={selectId}
              className={`${inputClass} mt-1 w-28 py-1`}
              value={workspace.plan}
              disabled={update.isPending}
              onChange={(e) => update.mutate({ plan: e.target.value as 'free' | 'paid' })}
            >
              <option value="free">Free</option>
              <option value="paid">Paid</option>
            </select>
          </div>
        ) : null}
        {workspace.isOwn ? null : workspace.disabled ? (
          <Button variant="secondary" className="px-2.5 py-1 text-xs" aria-label={`Enable ${name}`} disabled={update.isPending} onClick={() => update.mutate({ disabled: false })}>
            Enable
          </Button>
        ) : (
          <ConfirmedAction
            label="Disable"
            accessibleName={`Disable ${name}`}
            size="small"
            title={`Disable “${name}”?`}
            pendingLabel="Disabling…"
            action={{ ...update, mutate: (_: undefined, options: { onSuccess: (w: AdminWorkspace) => void }) => update.mutate({ disabled: true }, options) }}
            onDone={() => undefined}
          >
            Its people are signed out and cannot sign in, its API keys are refused, and its links and downloads stop until you enable it again. Nothing is deleted.
          </ConfirmedAction>
        )}
      </div>
      <FormError error={update.error} className="md:col-span-4" />
    </li>
  );
}

function InviteRow({ id, email, expiresAt }: { id: string; email: string; expiresAt: string }) {
  const revoke = useRevokeInvite(id);
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-2">
      <span className="min-w-0 truncate text-sm">
        {email} <span className="text-xs text-zinc-600 dark:text-zinc-400">until {formatDateTime(expiresAt)}</span>
      </span>
      <ConfirmedAction label="Revoke" accessibleName={`Revoke the invitation of ${email}`} size="small" title={`Revoke the invitation of ${email}?`} pendingLabel="Revoking…" action={revoke} onDone={() => undefined}>
        The link in the invitation stops working.
      </ConfirmedAction>
    </li>
  );
}

function Invites() {
  const headingId = useId();
  const { data: invites } = useInvites();
  const invite = useInvite();
  const form = useValidatedForm(['email'] as const, { email: '' }, (v) => ({ email: /^[^\s@]+@[^\s@]+$/.test(v.email.trim()) ? undefined : 'Enter a valid email address' }));
  const onSubmit = form.handleSubmit((values) => invite.mutate(values.email.trim(), { onError: form.showServerErrors }));
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        Invitations
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        With <code>SIGNUP=invite</code>, only invited addresses can create an account. Each invitation is mailed, works once and lasts 7 days.
      </p>
      <form noValidate onSubmit={onSubmit} className="mt-4 flex flex-col gap-3 sm:flex-row sm:items-start">
        <div className="min-w-0 flex-1">
          <TextField label="Email to invite" type="email" autoComplete="off" {...form.field('email')} />
        </div>
        <Button type="submit" className="sm:mt-6" disabled={invite.isPending}>
          {invite.isPending ? 'Inviting…' : 'Invite'}
        </Button>
      </form>
      <p role="status" className="mt-2 text-sm text-emerald-700 dark:text-emerald-400">
        {invite.isSuccess ? `Invitation sent to ${invite.data.email}.` : ''}
      </p>
      <FormError error={invite.error} />
      {invites.length > 0 ? (
        <ul aria-label="Open invitations" className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800">
          {invites.map((i) => (
            <InviteRow key={i.id} id={i.id} email={i.email} expiresAt={i.expiresAt} />
          ))}
        </ul>
      ) : (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">No open invitations.</p>
      )}
    </Card>
  );
}

function PersonRow({ person }: { person: AdminPerson }) {
  const update = useSetPersonDisabled(person.id);
  const who = person.name ?? person.email;
  return (
    <li className="grid gap-3 border-b border-zinc-200 p-4 last:border-b-0 md:grid-cols-[minmax(0,2fr)_minmax(0,2fr)_auto] md:items-center dark:border-zinc-800">
      <div className="min-w-0">
        <h3 className="flex flex-wrap items-center gap-2 font-medium">
          <span className="truncate">{who}</span>
          {person.isYou ? <Badge>You</Badge> : null}
          {person.disabled ? <Badge tone="warning">Disabled</Badge> : null}
        </h3>
        {person.name ? <p className="truncate text-sm text-zinc-600 dark:text-zinc-400">{person.email}</p> : null}
        <p className="text-xs text-zinc-600 dark:text-zinc-400">
          Since <time dateTime={person.createdAt}>{formatDateTime(person.createdAt)}</time> · <code>{person.id}</code>
        </p>
        <p role="status" className="text-sm text-emerald-700 dark:text-emerald-400">
          {update.isSuccess ? (update.data.disabled ? `${who} is disabled: signed out everywhere.` : `${who} can sign in again.`) : ''}
        </p>
      </div>
      <ul aria-label={`Workspaces of ${who}`} className="text-sm">
        {person.workspaces.length === 0 ? <li className="text-zinc-600 dark:text-zinc-400">No workspace</li> : null}
        {person.workspaces.map((w) => (
          <li key={w.id} className="truncate">
            {w.name} <span className="text-zinc-600 dark:text-zinc-400">({w.role})</span>
          </li>
        ))}
      </ul>
      <div className="flex md:justify-end">
        {person.isYou ? null : person.disabled ? (
          <Button variant="secondary" className="px-2.5 py-1 text-xs" aria-label={`Enable ${who}`} disabled={update.isPending} onClick={() => update.mutate(false)}>
            Enable
          </Button>
        ) : (
          <ConfirmedAction
            label="Disable"
            accessibleName={`Disable ${who}`}
            size="small"
            title={`Disable ${who} everywhere?`}
            pendingLabel="Disabling…"
            action={{ ...update, mutate: (_: undefined, options: { onSuccess: (p: AdminPerson) => void }) => update.mutate(true, options) }}
            onDone={() => undefined}
          >
            They are signed out of every workspace, their apps lose access, and they cannot sign in until you enable them again. Their workspaces, and the API keys of those, go on; nothing is deleted.
          </ConfirmedAction>
        )}
      </div>
      <FormError error={update.error} className="md:col-span-3" />
    </li>
  );
}

function People() {
  const headingId = useId();
  const { data: people } = useAdminPeople();
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-3 text-lg font-semibold">
        People ({people.length})
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
  const headingId = useId();
  const { data: workspaces } = useAdminWorkspaces();
  return (
    <div className="space-y-6">
      <section aria-labelledby={headingId}>
        <h2 id={headingId} className="mb-3 text-lg font-semibold">
          Workspaces ({workspaces.length})
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

