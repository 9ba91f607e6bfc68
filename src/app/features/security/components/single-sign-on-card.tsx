import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DeliberateForm } from '../../../components/deliberate-form';
import { FormError } from '../../../components/form-error';
import { SelectField } from '../../../components/text-field';
import { useSession } from '../../auth';
import { RequirementSwitch } from './requirement-switch';
import { singleSignOnQueryOptions, useSetSingleSignOnRequirement, useTieSignInDomain, useUntieSignInDomain } from '../api/security-api';

/**
 * For the workspace's owner and admins: tie the email domain of their organisation to one of the
 * server's identity providers (people of that domain signing in through it join as members), and
 * require single sign-on of everyone. Requiring it is offered only to someone signed in that way.
 */
export function SingleSignOnCard() {
  const session = useSession();
  const settings = useQuery(singleSignOnQueryOptions());
  const tie = useTieSignInDomain();
  const untie = useUntieSignInDomain();
  const setRequirement = useSetSingleSignOnRequirement();
  const headingId = useId();
  const ownDomain = session.user.email.slice(session.user.email.lastIndexOf('@') + 1);
  const [providerId, setProviderId] = useState('');
  const [untying, setUntying] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState('');

  const providers = settings.data?.providers ?? [];
  const domains = settings.data?.domains ?? [];
  const required = session.workspace.requireSingleSignOn;
  const chosenProvider = providerId || providers[0]?.id || '';

  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        Single sign-on
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        People of your organisation sign in through its identity provider. Anyone signing in through it with a verified address on a domain tied here joins {session.workspace.name} as a
        member.
      </p>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {settings.isPending ? (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>
      ) : settings.isError ? (
        <FormError error={settings.error} className="mt-4" />
      ) : providers.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-700 dark:text-zinc-300">
          The operator of this server has not set up an identity provider yet (<code>npm run admin -- sso add</code>, see the README).
        </p>
      ) : (
        <>
          {domains.length === 0 ? (
            <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">No domain is tied to this workspace.</p>
          ) : (
            <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800" aria-label="Tied domains">
              {domains.map((d) => (
                <li key={d.domain} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="font-medium break-words">{d.domain}</p>
                    <p className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">Through {d.providerName}</p>
                  </div>
                  <Button variant="secondary" onClick={() => setUntying(d.domain)} aria-label={`Untie ${d.domain}`}>
                    Untie
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {domains.some((d) => d.domain === ownDomain) ? null : (
            <DeliberateForm
              noValidate
              className="mt-4 flex flex-wrap items-end gap-3"
              onSubmit={(event) => {
                event.preventDefault();
                tie.mutate({ domain: ownDomain, providerId: chosenProvider }, { onSuccess: () => setAnnouncement(`${ownDomain} is tied to single sign-on.`) });
              }}
            >
              <SelectField
                label={`Identity provider for ${ownDomain}`}
                className="min-w-56 flex-1"
                value={chosenProvider}
                onChange={(e) => setProviderId(e.target.value)}
              >
                {providers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name}
                  </option>
                ))}
              </SelectField>
              <Button type="submit" disabled={tie.isPending}>
                {tie.isPending ? 'Tying…' : `Tie ${ownDomain}`}
              </Button>
              <p className="w-full text-xs text-zinc-600 dark:text-zinc-400">Only the domain of your own address can be tied.</p>
            </DeliberateForm>
          )}
          <FormError error={tie.error} className="mt-3" />

          <h3 className="mt-6 font-medium">Require it of everyone</h3>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            {required
              ? `Everyone in ${session.workspace.name} must sign in through the identity provider. A session signed in with a password or a passkey is sent to sign in again. API keys keep working.`
              : 'A member signed in with a password or a passkey would be sent to sign in through the provider. API keys keep working.'}
          </p>
          <RequirementSwitch
            required={required}
            met={session.user.singleSignOn}
            requireLabel="Require single sign-on"
            unmet="Sign in through your identity provider yourself first, so that requiring it cannot lock you out."
            setRequired={setRequirement}
          />
        </>
      )}
      {untying ? (
        <ConfirmDialog
          title={`Untie ${untying}?`}
          confirmLabel="Untie"
          pendingLabel="Untying…"
          pending={untie.isPending}
          error={untie.error ? untie.error.message : null}
          onCancel={() => {
            untie.reset();
            setUntying(null);
          }}
          onConfirm={() =>
            untie.mutate(untying, {
              onSuccess: () => {
                setAnnouncement(`${untying} is no longer tied.`);
                setUntying(null);
              },
            })
          }
        >
          People of {untying} no longer join {session.workspace.name} by signing in through the provider. Those already in it stay members.
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}
