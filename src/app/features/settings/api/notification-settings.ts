import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { NotificationSettings } from '../../../../contract/dashboard';
import { dashboardFetch } from '../../../lib/dashboard-fetch';
import { userDataRoot } from '../../../lib/query-keys';

export const notificationSettingsKey = [...userDataRoot, 'dashboard', 'notifications'] as const;

/** The workspace's defaults for new transfers: mail on download, reminder before expiry. */
export function notificationSettingsQueryOptions() {
  return queryOptions({
    queryKey: notificationSettingsKey,
    queryFn: () => dashboardFetch<NotificationSettings>('/notifications'),
  });
}

export function useUpdateNotificationSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: Partial<NotificationSettings>) => dashboardFetch<NotificationSettings>('/notifications', { method: 'PATCH', json: input }),
    onSuccess: (settings) => queryClient.setQueryData(notificationSettingsKey, settings),
  });
}
