import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { ConnectedApp } from '../../../../contract/oauth';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatDate, formatRelativeTime } from '../../../lib/format';
import { connectedAppsQueryOptions, useRevokeConnectedApp } from '../api/oauth-api';
import { scopeWords } from '../scope-words';

/** The client's name as it gave it, else the host of its id (a metadata document's URL), else the id. */
const nameOf = (app: ConnectedApp) => app.client.name?.trim() || URL.parse(app.client.id)?.host || app.client.id;

/** Settings → Connected apps: each AI assistant the owner allowed, what it may do, when it was last used, and Revoke. */
export function ConnectedApps() {
  const { data: apps } = useSuspenseQuery(connectedAppsQueryOptions());
  const revoke = useRevokeConnectedApp();
  const [revoking, setRevoking] = useState<ConnectedApp | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const headingId = useId();
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        Connected apps
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        AI assistants you allowed to work with your workspace. Connect one by giving it this server’s MCP address, <span className="font-mono">/mcp</span>.
      </p>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {apps.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">No apps are connected.</p>
      ) : (
        <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800">
          {apps.map((app) => (
            <li key={app.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium break-words">{nameOf(app)}</p>
                <p className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">
                  Allowed {formatDate(app.createdAt)} · {app.lastUsedAt ? `last used ${formatRelativeTime(app.lastUsedAt)}` : 'not used yet'}
                </p>
                <ul aria-label={`What ${nameOf(app)} may do`} className="mt-2 flex flex-wrap gap-1.5">
                  {app.scopes.map((scope) => (
                    <li key={scope}>
                      <Badge tone={scopeWords(scope).warning ? 'warning' : 'neutral'}>{scopeWords(scope).title}</Badge>
                    </li>
                  ))}
                </ul>
              </div>
              <Button variant="secondary" onClick={() => setRevoking(app)} aria-label={`Revoke ${nameOf(app)}`}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      {revoking ? (
        <ConfirmDialog
          title={`Revoke “${nameOf(revoking)}”?`}
          confirmLabel="Revoke"
          pendingLabel="Revoking…"
          pending={revoke.isPending}
          error={revoke.error ? revoke.error.message : null}
          onCancel={() => setRevoking(null)}
          onConfirm={() =>
            revoke.mutate(revoking.id, {
              onSuccess: () => {
                setAnnouncement(`${nameOf(revoking)} can no longer use your workspace.`);
                setRevoking(null);
              },
            })
          }
        >
          It stops working at once: its next request is refused. To use it again, connect it again.
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}
