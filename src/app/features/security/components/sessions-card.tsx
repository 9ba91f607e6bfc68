import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { FormError } from '../../../components/form-error';
import { formatDate, formatRelativeTime } from '../../../lib/format';
import { sessionsQueryOptions, useEndOtherSessions, useEndSession } from '../api/security-api';
import { describeUserAgent } from '../user-agent';

/** Settings → Security: where the person is signed in, with sign-out of each other session, or of all of them. */
export function SessionsCard() {
  const { data: sessions } = useSuspenseQuery(sessionsQueryOptions());
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [announcement, setAnnouncement] = useState('');
  const headingId = useId();
  const others = sessions.filter((s) => !s.current);
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        Where you are signed in
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">Sign out a browser you no longer use, or do not recognise. Changing your password signs out all the others.</p>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <FormError error={endOne.error ?? endOthers.error} className="mt-3" />
      <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800">
        {sessions.map((s) => {
          const name = describeUserAgent(s.userAgent);
          return (
            <li key={s.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <span className="break-words">{name}</span>
                  {s.current ? <Badge tone="accent">This browser</Badge> : null}
                </p>
                <p className="mt-0.5 text-sm break-words text-zinc-600 dark:text-zinc-400">
                  {s.current ? 'Active now' : `Last active ${formatRelativeTime(s.lastSeenAt)}`}
                  {s.address ? ` · from ${s.address}` : ''} · signed in {formatDate(s.createdAt)} · in {s.workspaceName}
                </p>
              </div>
              {s.current ? null : (
                <Button
                  variant="secondary"
                  disabled={endOne.isPending && endOne.variables === s.id}
                  aria-label={`Sign out ${name}, last active ${formatRelativeTime(s.lastSeenAt)}`}
                  onClick={() => endOne.mutate(s.id, { onSuccess: () => setAnnouncement(`${name} is signed out.`) })}
                >
                  Sign out
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {others.length > 1 ? (
        <div className="mt-3">
          <Button variant="secondary" disabled={endOthers.isPending} onClick={() => endOthers.mutate(undefined, { onSuccess: ({ ended }) => setAnnouncement(`${ended} other sessions are signed out.`) })}>
            {endOthers.isPending ? 'Signing out…' : 'Sign out all other sessions'}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
