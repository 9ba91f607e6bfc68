import { useSuspenseQuery } from '@tanstack/react-query';
import { useRef, useState, type ReactNode } from 'react';
import type { ApiKey } from '../../../../contract/dashboard';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { EmptyState } from '../../../components/empty-state';
import { FormError } from '../../../components/form-error';
import { formatDate, formatDateTime, formatRelativeTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { apiKeysQueryOptions } from '../api/get-api-keys';
import { useRevokeApiKey } from '../api/revoke-api-key';

/** The part of a button's words only screen readers hear (what it acts on). */
const hidden = (chunks: ReactNode[]) => (
  <span key="hidden" className="sr-only">
    {chunks}
  </span>
);

export function ApiKeyList() {
  const intl = useIntl();
  const { data: keys } = useSuspenseQuery(apiKeysQueryOptions());
  const revoke = useRevokeApiKey();
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [announcement, setAnnouncement] = useState<ReactNode>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  function confirmRevoke(key: ApiKey) {
    revoke.mutate(key.id, {
      onSuccess: () => {
        setRevoking(null);
        setAnnouncement(
          intl.formatMessage({ id: 'keys.list.revoked', defaultMessage: 'Key “{name}” revoked.' }, { name: <bdi key="name">{key.name}</bdi> }),
        );
        headingRef.current?.focus();
      },
    });
  }

  return (
    <section aria-labelledby="api-keys-heading">
      <h2 id="api-keys-heading" ref={headingRef} tabIndex={-1} className="mb-4 text-lg font-semibold focus:outline-none">
        {intl.formatMessage({ id: 'keys.list.heading', defaultMessage: 'Your keys' })}
      </h2>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {keys.length === 0 ? (
        <EmptyState title={intl.formatMessage({ id: 'keys.list.emptyTitle', defaultMessage: 'No API keys yet' })}>
          {intl.formatMessage({ id: 'keys.list.emptyText', defaultMessage: 'Create a key to call the Parcel API from scripts and integrations.' })}
        </EmptyState>
      ) : (
        <ul className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
          {keys.map((key) => (
            <ApiKeyRow
              key={key.id}
              apiKey={key}
              onRevoke={() => {
                revoke.reset();
                setRevoking(key);
              }}
            />
          ))}
        </ul>
      )}
      {revoking ? (
        <ConfirmDialog
          title={intl.formatMessage({ id: 'keys.revoke.title', defaultMessage: 'Revoke key “{name}”?' }, { name: revoking.name })}
          confirmLabel={intl.formatMessage({ id: 'keys.revoke.confirm', defaultMessage: 'Revoke key' })}
          pendingLabel={intl.formatMessage({ id: 'keys.revoke.pending', defaultMessage: 'Revoking…' })}
          pending={revoke.isPending}
          error={revoke.error ? <FormError error={revoke.error} /> : null}
          onConfirm={() => confirmRevoke(revoking)}
          onCancel={() => setRevoking(null)}
        >
          {intl.formatMessage(
            { id: 'keys.revoke.consequence', defaultMessage: 'Anything using {hint} stops working at once. This cannot be undone.' },
            { hint: <code key="hint">{revoking.hint}</code> },
          )}
        </ConfirmDialog>
      ) : null}
    </section>
  );
}

function ApiKeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  const intl = useIntl();
  return (
    <li className="flex flex-col gap-3 p-4 sm:flex-row sm:items-start">
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <h3 className="font-medium break-words">{apiKey.name}</h3>
          <code className="text-xs text-zinc-600 dark:text-zinc-400">{apiKey.hint}</code>
        </div>
        <ul aria-label={intl.formatMessage({ id: 'keys.list.scopesOf', defaultMessage: 'Scopes of {name}' }, { name: apiKey.name })} className="flex flex-wrap gap-1.5">
          {apiKey.scopes.map((scope) => (
            <li key={scope}>
              <Badge tone="accent">{scope}</Badge>
            </li>
          ))}
        </ul>
        <dl className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-zinc-600 dark:text-zinc-400">
          <div className="flex gap-1">
            <dt>{intl.formatMessage({ id: 'keys.list.created', defaultMessage: 'Created' })}</dt>
            <dd>
              <time dateTime={apiKey.createdAt} title={formatDateTime(apiKey.createdAt)}>
                {formatDate(apiKey.createdAt)}
              </time>
            </dd>
          </div>
          <div className="flex gap-1">
            <dt>{intl.formatMessage({ id: 'keys.list.lastUsed', defaultMessage: 'Last used' })}</dt>
            <dd>
              {apiKey.lastUsedAt ? (
                <time dateTime={apiKey.lastUsedAt} title={formatDateTime(apiKey.lastUsedAt)}>
                  {formatRelativeTime(apiKey.lastUsedAt)}
                </time>
              ) : (
                intl.formatMessage({ id: 'keys.list.neverUsed', defaultMessage: 'never' })
              )}
            </dd>
          </div>
        </dl>
      </div>
      <Button variant="secondary" onClick={onRevoke} className="self-start">
        {intl.formatMessage(
          { id: 'keys.list.revoke', defaultMessage: 'Revoke<hidden> {name}</hidden>' },
          { name: <bdi key="name">{apiKey.name}</bdi>, hidden },
        )}
      </Button>
    </li>
  );
}
