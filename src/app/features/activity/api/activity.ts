import { infiniteQueryOptions } from '@tanstack/react-query';
import type { ActivityPage } from '../../../../contract/activity';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { userDataRoot } from '../../../lib/query-keys';
import type { ActivityFilters } from '../utils/activity-search';

export type { ActivityPage };
export type ActivityEntry = ActivityPage['entries'][number];

const pageSize = 50;

function filterParams(filters: ActivityFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.actor) params.set('actor', filters.actor);
  if (filters.kind) params.set('kind', filters.kind);
  return params;
}

/** The log newest first, 50 entries a page, as filtered. */
export function activityQueryOptions(filters: ActivityFilters) {
  return infiniteQueryOptions({
    queryKey: [...userDataRoot, 'activity', filters],
    queryFn: ({ pageParam, signal }) => {
      const params = filterParams(filters);
      params.set('limit', String(pageSize));
      if (pageParam) params.set('cursor', pageParam);
      return dashboardFetch<ActivityPage>(`/activity?${params}`, { signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
}

/** The CSV of what the filters show: a plain link, so the browser streams it to a file. */
export function activityExportHref(filters: ActivityFilters): string {
  const params = filterParams(filters).toString();
  return `/api/dashboard/activity/export${params ? `?${params}` : ''}`;
}
