import { useQuery, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Fragment, useId, type ReactNode } from 'react';
import { activityKinds, type ActivityKindName } from '../../../../contract/activity-kinds';
import { Button, buttonClass } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { FormError } from '../../../components/form-error';
import { inputClass } from '../../../components/text-field';
import { formatDateTime } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { membersQueryOptions } from '../../members';
import { activityExportHref, activityQueryOptions, type ActivityEntry } from '../api/activity';
import type { ActivityFilters } from '../utils/activity-search';
import { describeActivity, kindLabels, subjectLink } from '../utils/describe-activity';

interface ActivityPageProps {
  filters: ActivityFilters;
  onFiltersChange: (change: Partial<ActivityFilters>) => void;
}

/**
 * The workspace's activity log, newest first, for its owner and admins: filtered by person (or key)
 * and kind, read a page at a time, exported as CSV. Names are as they were then, shown as text.
 */
export function ActivityPage({ filters, onFiltersChange }: ActivityPageProps) {
  const intl = useIntl();
  const log = useSuspenseInfiniteQuery(activityQueryOptions(filters));
  const entries = log.data.pages.flatMap((page) => page.entries);
  const retentionDays = log.data.pages[0]?.retentionDays ?? 365;
  const filtered = filters.actor !== '' || filters.kind !== '';
  return (
    <div className="space-y-4">
      <ActivityFilterBar filters={filters} onFiltersChange={onFiltersChange} entries={entries} />
      {entries.length === 0 ? (
        <EmptyState
          title={
            filtered
              ? intl.formatMessage({ id: 'activity.empty.filteredTitle', defaultMessage: 'Nothing matches these filters' })
              : intl.formatMessage({ id: 'activity.empty.title', defaultMessage: 'Nothing has happened yet' })
          }
        >
          {filtered
            ? intl.formatMessage({ id: 'activity.empty.filteredBody', defaultMessage: 'Choose another person or kind, or show everything.' })
            : intl.formatMessage({ id: 'activity.empty.body', defaultMessage: 'Sign-ins, invitations, keys, webhooks and what the team sends show up here.' })}
        </EmptyState>
      ) : (
        <ol aria-label={intl.formatMessage({ id: 'activity.list.label', defaultMessage: 'Activity, newest first' })} className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
          {entries.map((entry) => (
            <ActivityRow key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          {intl.formatMessage(
            { id: 'activity.retention', defaultMessage: 'Entries are kept {days, plural, one {# day} other {# days}}.' },
            { days: retentionDays },
          )}
        </p>
        {log.hasNextPage ? (
          <Button variant="secondary" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage
              ? intl.formatMessage({ id: 'activity.loading', defaultMessage: 'Loading…' })
              : intl.formatMessage({ id: 'activity.showOlder', defaultMessage: 'Show older' })}
          </Button>
        ) : null}
      </div>
      {log.isFetchNextPageError ? <FormError error={log.error} /> : null}
    </div>
  );
}

function ActivityFilterBar({ filters, onFiltersChange, entries }: ActivityPageProps & { entries: ActivityEntry[] }) {
  const intl = useIntl();
  const personId = useId();
  const kindId = useId();
  const members = useQuery(membersQueryOptions());
  // The people to pick: the team, and whoever the current filter names (a key, a former member).
  const people = new Map((members.data?.members ?? []).map((m) => [m.id, m.name ?? m.email]));
  if (filters.actor && !people.has(filters.actor)) people.set(filters.actor, entries.find((e) => e.actor.id === filters.actor)?.actor.name ?? filters.actor);
  return (
    <div className="flex flex-wrap items-end gap-3">
      <div>
        <label htmlFor={personId} className="block text-sm font-medium">
          {intl.formatMessage({ id: 'activity.filters.person', defaultMessage: 'Person' })}
        </label>
        <select id={personId} className={`${inputClass} mt-1 w-56`} value={filters.actor} onChange={(e) => onFiltersChange({ actor: e.target.value })}>
          <option value="">{intl.formatMessage({ id: 'activity.filters.everyone', defaultMessage: 'Everyone' })}</option>
          {[...people].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={kindId} className="block text-sm font-medium">
          {intl.formatMessage({ id: 'activity.filters.kind', defaultMessage: 'What' })}
        </label>
        <select id={kindId} className={`${inputClass} mt-1 w-56`} value={filters.kind} onChange={(e) => onFiltersChange({ kind: e.target.value as ActivityKindName | '' })}>
          <option value="">{intl.formatMessage({ id: 'activity.filters.everything', defaultMessage: 'Everything' })}</option>
          {activityKinds.map((kind) => (
            <option key={kind} value={kind}>
              {intl.formatMessage(kindLabels[kind])}
            </option>
          ))}
        </select>
      </div>
      <a href={activityExportHref(filters)} download className={buttonClass('secondary', 'sm:ms-auto')}>
        {intl.formatMessage({ id: 'activity.filters.export', defaultMessage: 'Export CSV' })}
      </a>
    </div>
  );
}

/** The quieter part of the actor: what kind of actor it was. */
const muted = (chunks: ReactNode[]) => (
  <span key="muted" className="text-zinc-600 dark:text-zinc-400">
    {chunks}
  </span>
);

function ActivityRow({ entry }: { entry: ActivityEntry }) {
  const intl = useIntl();
  const link = subjectLink(entry);
  const name = entry.actor.id ? (
    <Link to="/activity" search={{ actor: entry.actor.id, kind: '' }} className="font-medium text-zinc-900 underline-offset-2 hover:underline dark:text-zinc-100" title={entry.actor.email ?? undefined}>
      <bdi>{entry.actor.name}</bdi>
    </Link>
  ) : (
    <bdi className="font-medium">{entry.actor.name}</bdi>
  );
  // An API key or the operator is named as such (the operator acts with an id only when one is kept).
  const actor =
    entry.actor.id && entry.actor.type === 'api_key'
      ? intl.formatMessage({ id: 'activity.actor.apiKey', defaultMessage: '{name} <muted>(API key)</muted>' }, { name, muted })
      : entry.actor.id && entry.actor.type === 'operator'
        ? intl.formatMessage({ id: 'activity.actor.operator', defaultMessage: '{name} <muted>(Server operator)</muted>' }, { name, muted })
        : name;
  const sentence = describeActivity(entry, intl, {
    actor: <Fragment key="actor">{actor}</Fragment>,
    subject: (text) =>
      link ? (
        <Link key="subject" to={link.to} params={link.params} className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
          <bdi>{text}</bdi>
        </Link>
      ) : (
        <bdi key="subject" className="font-medium">
          {text}
        </bdi>
      ),
  });
  return (
    <li className="flex flex-col gap-1 px-4 py-3 text-sm sm:flex-row sm:gap-4">
      <time dateTime={entry.at} className="shrink-0 text-zinc-600 tabular-nums sm:w-44 dark:text-zinc-400">
        {formatDateTime(entry.at)}
      </time>
      <p className="min-w-0 break-words">{sentence}</p>
    </li>
  );
}
