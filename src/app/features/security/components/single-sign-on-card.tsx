import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DeliberateForm } from '../../../components/deliberate-form';
import { FormError } from '../../../components/form-error';
import { SelectField } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import { useSession } from '../../auth';
import { RequirementSwitch } from './requirement-switch';
import { singleSignOnQueryOptions, useSetSingleSignOnRequirement, useTieSignInDomain, useUntieSignInDomain } from '../api/security-api';

/** The operator's command that adds an identity provider (code, not words). */
const ADD_PROVIDER_COMMAND = 'npm run admin -- sso add';

/**
 * For the workspace's owner and admins: tie the email domain of their organisation to one of the
 * server's identity providers (people of that domain signing in through it join as members), and
 * require single sign-on of everyone. Requiring it is offered only to someone signed in that way.
 */
export function SingleSignOnCard() {
  const intl = useIntl();
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
  const workspace = <bdi key="workspace">{session.workspace.name}</bdi>;

  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {intl.formatMessage({ id: 'security.singleSignOn.heading', defaultMessage: 'Single sign-on' })}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage(
          {
            id: 'security.singleSignOn.lead',
            defaultMessage:
              'People of your organisation sign in through its identity provider. Anyone signing in through it with a verified address on a domain tied here joins {workspace} as a member.',
          },
          { workspace },
        )}
      </p>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {settings.isPending ? (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">{intl.formatMessage({ id: 'security.singleSignOn.loading', defaultMessage: 'Loading…' })}</p>
      ) : settings.isError ? (
        <FormError error={settings.error} className="mt-4" />
      ) : providers.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-700 dark:text-zinc-300">
          {intl.formatMessage(
            {
              id: 'security.singleSignOn.noProvider',
              defaultMessage: 'The operator of this server has not set up an identity provider yet ({command}, see the README).',
            },
            { command: <code key="command">{ADD_PROVIDER_COMMAND}</code> },
          )}
        </p>
      ) : (
        <>
          {domains.length === 0 ? (
            <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">
              {intl.formatMessage({ id: 'security.singleSignOn.noDomain', defaultMessage: 'No domain is tied to this workspace.' })}
            </p>
          ) : (
            <ul
              className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800"
              aria-label={intl.formatMessage({ id: 'security.singleSignOn.tiedDomains', defaultMessage: 'Tied domains' })}
            >
              {domains.map((d) => (
                <li key={d.domain} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <div className="min-w-0">
                    <p className="font-medium break-words">{d.domain}</p>
                    <p className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">
                      {intl.formatMessage(
                        { id: 'security.singleSignOn.throughProvider', defaultMessage: 'Through {provider}' },
                        { provider: <bdi key="provider">{d.providerName}</bdi> },
                      )}
                    </p>
                  </div>
                  <Button
                    variant="secondary"
                    onClick={() => setUntying(d.domain)}
                    aria-label={intl.formatMessage({ id: 'security.singleSignOn.untieDomain', defaultMessage: 'Untie {domain}' }, { domain: d.domain })}
                  >
                    {intl.formatMessage({ id: 'security.singleSignOn.untie', defaultMessage: 'Untie' })}
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
                tie.mutate(
                  { domain: ownDomain, providerId: chosenProvider },
                  {
                    onSuccess: () =>
                      setAnnouncement(intl.formatMessage({ id: 'security.singleSignOn.tied', defaultMessage: '{domain} is tied to single sign-on.' }, { domain: ownDomain })),
                  },
                );
              }}
            >
              <SelectField
                label={intl.formatMessage({ id: 'security.singleSignOn.providerFor', defaultMessage: 'Identity provider for {domain}' }, { domain: ownDomain })}
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
                {tie.isPending
                  ? intl.formatMessage({ id: 'security.singleSignOn.tying', defaultMessage: 'Tying…' })
                  : intl.formatMessage({ id: 'security.singleSignOn.tie', defaultMessage: 'Tie {domain}' }, { domain: <bdi key="domain">{ownDomain}</bdi> })}
              </Button>
              <p className="w-full text-xs text-zinc-600 dark:text-zinc-400">
                {intl.formatMessage({ id: 'security.singleSignOn.ownDomainOnly', defaultMessage: 'Only the domain of your own address can be tied.' })}
              </p>
            </DeliberateForm>
          )}
          <FormError error={tie.error} className="mt-3" />

          <h3 className="mt-6 font-medium">{intl.formatMessage({ id: 'security.singleSignOn.requireHeading', defaultMessage: 'Require it of everyone' })}</h3>
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            {required
              ? intl.formatMessage(
                  {
                    id: 'security.singleSignOn.required',
                    defaultMessage:
                      'Everyone in {workspace} must sign in through the identity provider. A session signed in with a password or a passkey is sent to sign in again. API keys keep working.',
                  },
                  { workspace },
                )
              : intl.formatMessage({
                  id: 'security.singleSignOn.notRequired',
                  defaultMessage: 'A member signed in with a password or a passkey would be sent to sign in through the provider. API keys keep working.',
                })}
          </p>
          <RequirementSwitch
            required={required}
            met={session.user.singleSignOn}
            requireLabel={intl.formatMessage({ id: 'security.singleSignOn.require', defaultMessage: 'Require single sign-on' })}
            unmet={intl.formatMessage({
              id: 'security.singleSignOn.unmet',
              defaultMessage: 'Sign in through your identity provider yourself first, so that requiring it cannot lock you out.',
            })}
            setRequired={setRequirement}
          />
        </>
      )}
      {untying ? (
        <ConfirmDialog
          title={intl.formatMessage({ id: 'security.singleSignOn.untieTitle', defaultMessage: 'Untie {domain}?' }, { domain: untying })}
          confirmLabel={intl.formatMessage({ id: 'security.singleSignOn.untieConfirm', defaultMessage: 'Untie' })}
          pendingLabel={intl.formatMessage({ id: 'security.singleSignOn.untying', defaultMessage: 'Untying…' })}
          pending={untie.isPending}
          error={untie.error ? untie.error.message : null}
          onCancel={() => {
            untie.reset();
            setUntying(null);
          }}
          onConfirm={() =>
            untie.mutate(untying, {
              onSuccess: () => {
                setAnnouncement(intl.formatMessage({ id: 'security.singleSignOn.untied', defaultMessage: '{domain} is no longer tied.' }, { domain: untying }));
                setUntying(null);
              },
            })
          }
        >
          {intl.formatMessage(
            {
              id: 'security.singleSignOn.untieWarning',
              defaultMessage: 'People of {domain} no longer join {workspace} by signing in through the provider. Those already in it stay members.',
            },
            { domain: <bdi key="domain">{untying}</bdi>, workspace },
          )}
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}
