import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import type { ConnectedApp } from '../../../../contract/oauth';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate, formatRelativeTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { connectedAppsQueryOptions, useRevokeConnectedApp } from '../api/oauth-api';
import { scopeWords } from '../scope-words';

/** The path of this server's MCP endpoint: an address, never translated. */
const MCP_PATH = '/mcp';

/** The client's name as it gave it, else the host of its id (a metadata document's URL), else the id. */
const nameOf = (app: ConnectedApp) => app.client.name?.trim() || URL.parse(app.client.id)?.host || app.client.id;

/** Settings → Connected apps: each AI assistant the owner allowed, what it may do, when it was last used, and Revoke. */
export function ConnectedApps() {
  const intl = useIntl();
  const { data: apps } = useSuspenseQuery(connectedAppsQueryOptions());
  const revoke = useRevokeConnectedApp();
  const [revoking, setRevoking] = useState<ConnectedApp | null>(null);
  const [announcement, setAnnouncement] = useState<ReactNode>(null);
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {intl.formatMessage({ id: 'oauth.connectedApps.heading', defaultMessage: 'Connected apps' })}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage(
          {
            id: 'oauth.connectedApps.intro',
            defaultMessage: 'AI assistants you allowed to work with your workspace. Connect one by giving it this server’s MCP address, {path}.',
          },
          {
            path: (
              <span key="path" className="font-mono">
                {MCP_PATH}
              </span>
            ),
          },
        )}
      </p>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {apps.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage({ id: 'oauth.connectedApps.empty', defaultMessage: 'No apps are connected.' })}
        </p>
      ) : (
        <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800">
          {apps.map((app) => (
            <li key={app.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium break-words">{nameOf(app)}</p>
                <p className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">
                  {app.lastUsedAt
                    ? intl.formatMessage(
                        { id: 'oauth.connectedApps.allowedAndUsed', defaultMessage: 'Allowed {date} · last used {when}' },
                        { date: formatDate(app.createdAt), when: formatRelativeTime(app.lastUsedAt) },
                      )
                    : intl.formatMessage(
                        { id: 'oauth.connectedApps.allowedNotUsed', defaultMessage: 'Allowed {date} · not used yet' },
                        { date: formatDate(app.createdAt) },
                      )}
                </p>
                <ul
                  aria-label={intl.formatMessage({ id: 'oauth.connectedApps.scopesOf', defaultMessage: 'What {name} may do' }, { name: nameOf(app) })}
                  className="mt-2 flex flex-wrap gap-1.5"
                >
                  {app.scopes.map((scope) => {
                    const words = scopeWords(scope, intl);
                    return (
                      <li key={scope}>
                        <Badge tone={words.warning ? 'warning' : 'neutral'}>{words.title}</Badge>
                      </li>
                    );
                  })}
                </ul>
              </div>
              <Button
                variant="secondary"
                onClick={() => setRevoking(app)}
                aria-label={intl.formatMessage({ id: 'oauth.connectedApps.revokeNamed', defaultMessage: 'Revoke {name}' }, { name: nameOf(app) })}
              >
                {intl.formatMessage({ id: 'oauth.connectedApps.revoke', defaultMessage: 'Revoke' })}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {revoking ? (
        <ConfirmDialog
          title={intl.formatMessage({ id: 'oauth.revoke.title', defaultMessage: 'Revoke “{name}”?' }, { name: nameOf(revoking) })}
          confirmLabel={intl.formatMessage({ id: 'oauth.revoke.confirm', defaultMessage: 'Revoke' })}
          pendingLabel={intl.formatMessage({ id: 'oauth.revoke.pending', defaultMessage: 'Revoking…' })}
          pending={revoke.isPending}
          error={revoke.error ? revoke.error.message : null}
          onCancel={() => setRevoking(null)}
          onConfirm={() =>
            revoke.mutate(revoking.id, {
              onSuccess: () => {
                setAnnouncement(
                  intl.formatMessage(
                    { id: 'oauth.revoke.done', defaultMessage: '{name} can no longer use your workspace.' },
                    { name: <bdi key="name">{nameOf(revoking)}</bdi> },
                  ),
                );
                setRevoking(null);
              },
            })
          }
        >
          {intl.formatMessage({
            id: 'oauth.revoke.consequence',
            defaultMessage: 'It stops working at once: its next request is refused. To use it again, connect it again.',
          })}
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}
