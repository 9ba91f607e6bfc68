import { createFileRoute, stripSearchParams } from '@tanstack/react-router';
import { useCallback } from 'react';
import { PageHeader } from '../../components/page-header';
import { useIntl } from '../../lib/intl';
import { membersQueryOptions } from '../../features/members';
import { activityQueryOptions } from '../../features/activity/api/activity';
import { ActivityPage } from '../../features/activity/components/activity-page';
import { defaultActivitySearch, validateActivitySearch, type ActivityFilters } from '../../features/activity/utils/activity-search';

export const Route = createFileRoute('/_authed/activity')({
  validateSearch: validateActivitySearch,
  search: { middlewares: [stripSearchParams(defaultActivitySearch)] },
  loaderDeps: ({ search }) => search,
  // The team too, for the Person filter, read while the log is.
  loader: ({ context, deps }) => Promise.all([context.queryClient.ensureInfiniteQueryData(activityQueryOptions(deps)), context.queryClient.prefetchQuery(membersQueryOptions())]),
  component: ActivityRoute,
});

function ActivityRoute() {
  const intl = useIntl();
  const filters = Route.useSearch();
  const navigate = Route.useNavigate();
  const onFiltersChange = useCallback((change: Partial<ActivityFilters>) => void navigate({ search: (prev) => ({ ...prev, ...change }), replace: true }), [navigate]);
  return (
    <>
      <PageHeader
        title={intl.formatMessage({ id: 'pages.activity.title', defaultMessage: 'Activity' })}
        description={intl.formatMessage({
          id: 'pages.activity.description',
          defaultMessage: 'Who did what in this workspace: sign-ins, the team’s changes, keys and webhooks, and what was sent and shared. Only owners and admins see it.',
        })}
      />
      <ActivityPage filters={filters} onFiltersChange={onFiltersChange} />
    </>
  );
}
