import { useSuspenseQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { Card } from '../../../components/card';
import { FormError } from '../../../components/form-error';
import { NotificationSwitches } from '../../../components/notification-switches';
import { useIntl } from '../../../lib/intl';
import { notificationSettingsQueryOptions, useUpdateNotificationSettings } from '../api/notification-settings';

/** The workspace's defaults for new transfers' mail; saved as they are switched. */
export function NotificationDefaults() {
  const intl = useIntl();
  const headingId = useId();
  const { data } = useSuspenseQuery(notificationSettingsQueryOptions());
  const update = useUpdateNotificationSettings();
  const shown = update.isPending && update.variables ? { ...data, ...update.variables } : data;
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="mb-1 text-lg font-semibold">
        {intl.formatMessage({ id: 'settings.notifications.heading', defaultMessage: 'Notifications' })}
      </h2>
      <p className="mb-4 text-sm text-zinc-600 dark:text-zinc-400">
        {intl.formatMessage({ id: 'settings.notifications.lead', defaultMessage: 'For new transfers; each transfer can change its own on its page.' })}
      </p>
      <NotificationSwitches
        legend={intl.formatMessage({ id: 'settings.notifications.legend', defaultMessage: 'Mail me about my transfers' })}
        value={shown}
        onChange={(next) => update.mutate(next)}
      />
      <p role="status" className="mt-2 text-sm text-emerald-700 dark:text-emerald-400">
        {update.isSuccess ? intl.formatMessage({ id: 'settings.notifications.saved', defaultMessage: 'Saved.' }) : ''}
      </p>
      <FormError error={update.error} />
    </Card>
  );
}
