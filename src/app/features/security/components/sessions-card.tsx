import { useSuspenseQuery } from '@tanstack/react-query';
import { Fragment, useId, useState, type ReactNode } from 'react';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { FormError } from '../../../components/form-error';
import { SEPARATOR } from '../../../components/glyphs';
import { formatDate, formatRelativeTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { sessionsQueryOptions, useEndOtherSessions, useEndSession } from '../api/security-api';
import { describeUserAgent } from '../user-agent';

/** Settings → Security: where the person is signed in, with sign-out of each other session, or of all of them. */
export function SessionsCard() {
  const intl = useIntl();
  const { data: sessions } = useSuspenseQuery(sessionsQueryOptions());
  const endOne = useEndSession();
  const endOthers = useEndOtherSessions();
  const [announcement, setAnnouncement] = useState('');
  const headingId = useId();
  const others = sessions.filter((s) => !s.current);
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        {intl.formatMessage({ id: 'security.sessions.heading', defaultMessage: 'Where you are signed in' })}
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({
          id: 'security.sessions.lead',
          defaultMessage: 'Sign out a browser you no longer use, or do not recognise. Changing your password signs out all the others.',
        })}
      </p>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      <FormError error={endOne.error ?? endOthers.error} className="mt-3" />
      <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800">
        {sessions.map((s) => {
          const name = describeUserAgent(s.userAgent, intl);
          const lastActive = formatRelativeTime(s.lastSeenAt);
          const facts: ReactNode[] = [
            s.current
              ? intl.formatMessage({ id: 'security.sessions.activeNow', defaultMessage: 'Active now' })
              : intl.formatMessage({ id: 'security.sessions.lastActive', defaultMessage: 'Last active {time}' }, { time: lastActive }),
            s.address ? intl.formatMessage({ id: 'security.sessions.fromAddress', defaultMessage: 'from {address}' }, { address: <bdi key="address">{s.address}</bdi> }) : null,
            intl.formatMessage({ id: 'security.sessions.signedIn', defaultMessage: 'signed in {date}' }, { date: formatDate(s.createdAt) }),
            intl.formatMessage({ id: 'security.sessions.inWorkspace', defaultMessage: 'in {workspace}' }, { workspace: <bdi key="workspace">{s.workspaceName}</bdi> }),
          ].filter((fact) => fact !== null);
          return (
            <li key={s.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium">
                  <span className="break-words">{name}</span>
                  {s.current ? <Badge tone="accent">{intl.formatMessage({ id: 'security.sessions.thisBrowser', defaultMessage: 'This browser' })}</Badge> : null}
                </p>
                <p className="mt-0.5 text-sm break-words text-zinc-600 dark:text-zinc-400">
                  {facts.map((fact, index) => (
                    <Fragment key={index}>
                      {index > 0 ? SEPARATOR : null}
                      {fact}
                    </Fragment>
                  ))}
                </p>
              </div>
              {s.current ? null : (
                <Button
                  variant="secondary"
                  disabled={endOne.isPending && endOne.variables === s.id}
                  aria-label={intl.formatMessage({ id: 'security.sessions.signOutOne', defaultMessage: 'Sign out {name}, last active {time}' }, { name, time: lastActive })}
                  onClick={() =>
                    endOne.mutate(s.id, {
                      onSuccess: () => setAnnouncement(intl.formatMessage({ id: 'security.sessions.signedOutOne', defaultMessage: '{name} is signed out.' }, { name })),
                    })
                  }
                >
                  {intl.formatMessage({ id: 'security.sessions.signOut', defaultMessage: 'Sign out' })}
                </Button>
              )}
            </li>
          );
        })}
      </ul>
      {others.length > 1 ? (
        <div className="mt-3">
          <Button
            variant="secondary"
            disabled={endOthers.isPending}
            onClick={() =>
              endOthers.mutate(undefined, {
                onSuccess: ({ ended }) =>
                  setAnnouncement(
                    intl.formatMessage(
                      {
                        id: 'security.sessions.signedOutOthers',
                        defaultMessage: '{count, plural, one {# other session is signed out.} other {# other sessions are signed out.}}',
                      },
                      { count: ended },
                    ),
                  ),
              })
            }
          >
            {endOthers.isPending
              ? intl.formatMessage({ id: 'security.sessions.signingOutOthers', defaultMessage: 'Signing out…' })
              : intl.formatMessage({ id: 'security.sessions.signOutOthers', defaultMessage: 'Sign out all other sessions' })}
          </Button>
        </div>
      ) : null}
    </Card>
  );
}
