import { useQuery, useSuspenseInfiniteQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useId } from 'react';
import { activityKinds, type ActivityKindName } from '../../../../contract/activity-kinds';
import { Button, buttonClass } from '../../../components/button';
import { EmptyState } from '../../../components/empty-state';
import { FormError } from '../../../components/form-error';
import { inputClass } from '../../../components/text-field';
import { formatDateTime } from '../../../lib/format';
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
  const log = useSuspenseInfiniteQuery(activityQueryOptions(filters));
  const entries = log.data.pages.flatMap((page) => page.entries);
  const retentionDays = log.data.pages[0]?.retentionDays ?? 365;
  const filtered = filters.actor !== '' || filters.kind !== '';
  return (
    <div className="space-y-4">
      <ActivityFilterBar filters={filters} onFiltersChange={onFiltersChange} entries={entries} />
      {entries.length === 0 ? (
        <EmptyState title={filtered ? 'Nothing matches these filters' : 'Nothing has happened yet'}>
          {filtered ? 'Choose another person or kind, or show everything.' : 'Sign-ins, invitations, keys, webhooks and what the team sends show up here.'}
        </EmptyState>
      ) : (
        <ol aria-label="Activity, newest first" className="divide-y divide-zinc-200 rounded-lg border border-zinc-200 bg-white dark:divide-zinc-800 dark:border-zinc-800 dark:bg-zinc-900">
          {entries.map((entry) => (
            <ActivityRow key={entry.id} entry={entry} />
          ))}
        </ol>
      )}
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-zinc-600 dark:text-zinc-400">Entries are kept {retentionDays} days.</p>
        {log.hasNextPage ? (
          <Button variant="secondary" onClick={() => void log.fetchNextPage()} disabled={log.isFetchingNextPage}>
            {log.isFetchingNextPage ? 'Loading…' : 'Show older'}
          </Button>
        ) : null}
      </div>
      {log.isFetchNextPageError ? <FormError error={log.error} /> : null}
    </div>
  );
}

function ActivityFilterBar({ filters, onFiltersChange, entries }: ActivityPageProps & { entries: ActivityEntry[] }) {
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
          Person
        </label>
        <select id={personId} className={`${inputClass} mt-1 w-56`} value={filters.actor} onChange={(e) => onFiltersChange({ actor: e.target.value })}>
          <option value="">Everyone</option>
          {[...people].map(([id, name]) => (
            <option key={id} value={id}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={kindId} className="block text-sm font-medium">
          What
        </label>
        <select id={kindId} className={`${inputClass} mt-1 w-56`} value={filters.kind} onChange={(e) => onFiltersChange({ kind: e.target.value as ActivityKindName | '' })}>
          <option value="">Everything</option>
          {activityKinds.map((kind) => (
            <option key={kind} value={kind}>
              {kindLabels[kind]}
            </option>
          ))}
        </select>
      </div>
      <a href={activityExportHref(filters)} download className={buttonClass('secondary', 'sm:ml-auto')}>
        Export CSV
      </a>
    </div>
  );
}

const actorKind: Record<ActivityEntry['actor']['type'], string | null> = { member: null, api_key: 'API key', operator: 'Server operator', system: null };

function ActivityRow({ entry }: { entry: ActivityEntry }) {
  const { action, subject, after } = describeActivity(entry);
  const link = subjectLink(entry);
  const kind = actorKind[entry.actor.type];
  return (
    <li className="flex flex-col gap-1 px-4 py-3 text-sm sm:flex-row sm:gap-4">
      <time dateTime={entry.at} className="shrink-0 text-zinc-600 tabular-nums sm:w-44 dark:text-zinc-400">
        {formatDateTime(entry.at)}
      </time>
      <p className="min-w-0 break-words">
        {entry.actor.id ? (
          <Link to="/activity" search={{ actor: entry.actor.id, kind: '' }} className="font-medium text-zinc-900 underline-offset-2 hover:underline dark:text-zinc-100" title={entry.actor.email ?? undefined}>
            {entry.actor.name}
          </Link>
        ) : (
          <span className="font-medium">{entry.actor.name}</span>
        )}
        {kind && entry.actor.id ? <span className="text-zinc-600 dark:text-zinc-400"> ({kind})</span> : null} {action}{' '}
        {subject ? (
          link ? (
            <Link to={link.to} params={link.params} className="font-medium text-indigo-700 underline-offset-2 hover:underline dark:text-indigo-300">
              {subject}
            </Link>
          ) : (
            <span className="font-medium">{subject}</span>
          )
        ) : null}
        {after ? ` ${after}` : null}
      </p>
    </li>
  );
}
