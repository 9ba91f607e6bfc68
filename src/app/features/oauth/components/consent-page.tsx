import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { FormError } from '../../../components/form-error';
import { PageHeader } from '../../../components/page-header';
import { useIntl } from '../../../lib/intl';
import { answerConsent, consentQueryOptions } from '../api/oauth-api';
import { scopeWords } from '../scope-words';

/**
 * An AI assistant (an OAuth client) asks for access to the owner's workspace. The page names the app as
 * it calls itself (untrusted text, shown as text), where the browser returns to, and each permission in
 * plain words, with a warning on those that change things or email people. The owner may untick any.
 */
export function ConsentPage({ uid, workspaceName }: { uid: string; workspaceName: string }) {
  const intl = useIntl();
  const { data: details } = useSuspenseQuery(consentQueryOptions(uid));
  const [granted, setGranted] = useState<Set<string>>(() => new Set(details.scopes));
  const [pending, setPending] = useState<'allow' | 'deny' | null>(null);
  const [error, setError] = useState<unknown>(null);
  const listId = useId();
  const appName = details.client.name?.trim() || details.redirectHost;

  async function answer(approve: boolean) {
    setPending(approve ? 'allow' : 'deny');
    setError(null);
    try {
      window.location.assign(await answerConsent(uid, { approve, scopes: [...granted] }));
    } catch (cause) {
      setError(cause);
      setPending(null);
    }
  }

  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'oauth.consent.title', defaultMessage: 'Connect an app' })}
        description={intl.formatMessage(
          { id: 'oauth.consent.description', defaultMessage: 'An app asks to work with your workspace “{workspace}”.' },
          { workspace: <bdi key="workspace">{workspaceName}</bdi> },
        )}
      />
      <Card className="max-w-2xl" aria-labelledby={`${listId}-heading`}>
        <h2 id={`${listId}-heading`} className="text-lg font-semibold break-words">
          {intl.formatMessage(
            { id: 'oauth.consent.heading', defaultMessage: '{app} wants access to your workspace' },
            { app: <bdi key="app">{appName}</bdi> },
          )}
        </h2>
        <p className="mt-1 text-sm break-words text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage(
            {
              id: 'oauth.consent.returnTo',
              defaultMessage:
                'After you answer, you go back to {host}. Only allow apps you trust: it acts as you, within what you tick here, until you revoke it in Settings.',
            },
            {
              host: (
                <strong key="host" className="font-medium text-zinc-900 dark:text-zinc-100">
                  <bdi>{details.redirectHost}</bdi>
                </strong>
              ),
            },
          )}
        </p>
        <fieldset className="mt-5">
          <legend className="text-sm font-medium">
            {intl.formatMessage({ id: 'oauth.consent.scopesLegend', defaultMessage: 'It will be able to' })}
          </legend>
          <ul className="mt-2 space-y-2">
            {details.scopes.map((scope) => {
              const words = scopeWords(scope, intl);
              const id = `${listId}-${scope}`;
              return (
                <li key={scope} className="flex gap-3 rounded-md border border-zinc-200 p-3 dark:border-zinc-800">
                  <input
                    id={id}
                    type="checkbox"
                    className="mt-0.5 size-4 shrink-0 accent-indigo-600"
                    checked={granted.has(scope)}
                    onChange={(event) => {
                      const next = new Set(granted);
                      if (event.target.checked) next.add(scope);
                      else next.delete(scope);
                      setGranted(next);
                    }}
                    aria-describedby={`${id}-description`}
                  />
                  <div className="min-w-0">
                    <label htmlFor={id} className="flex flex-wrap items-center gap-2 text-sm font-medium">
                      {words.title}
                      {words.warning ? <Badge tone="warning">{words.warning}</Badge> : null}
                    </label>
                    <p id={`${id}-description`} className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">
                      {intl.formatMessage(
                        { id: 'oauth.consent.scopeDescription', defaultMessage: '{description} <mono>({scope})</mono>' },
                        {
                          description: words.description,
                          scope,
                          mono: (chunks: ReactNode[]) => (
                            <span key="mono" className="font-mono text-xs">
                              {chunks}
                            </span>
                          ),
                        },
                      )}
                    </p>
                  </div>
                </li>
              );
            })}
          </ul>
        </fieldset>
        <FormError error={error} className="mt-4" />
        <div className="mt-5 flex flex-wrap gap-3">
          <Button onClick={() => void answer(true)} disabled={pending !== null || granted.size === 0}>
            {pending === 'allow'
              ? intl.formatMessage({ id: 'oauth.consent.allowing', defaultMessage: 'Allowing…' })
              : intl.formatMessage({ id: 'oauth.consent.allow', defaultMessage: 'Allow' })}
          </Button>
          <Button variant="secondary" onClick={() => void answer(false)} disabled={pending !== null}>
            {pending === 'deny'
              ? intl.formatMessage({ id: 'oauth.consent.declining', defaultMessage: 'Declining…' })
              : intl.formatMessage({ id: 'oauth.consent.deny', defaultMessage: 'Deny' })}
          </Button>
        </div>
        {granted.size === 0 ? (
          <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({ id: 'oauth.consent.noneTicked', defaultMessage: 'Tick at least one permission to allow the app, or deny it.' })}
          </p>
        ) : null}
      </Card>
    </>
  );
}
