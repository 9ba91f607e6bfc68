import type { Transfer } from '../../../../contract/transfers';
import { FormError } from '../../../components/form-error';
import { NotificationSwitches } from '../../../components/notification-switches';
import { useIntl } from '../../../lib/intl';
import { useUpdateTransfer } from '../api/update-transfer';
import { Section } from '../../../components/section';

/** This transfer's mail to its sender, switched on its page and saved at once. */
export function TransferNotifications({ transfer }: { transfer: Transfer }) {
  const intl = useIntl();
  const update = useUpdateTransfer(transfer.id);
  const shown = update.isPending && update.variables?.notifications ? { ...transfer.notifications, ...update.variables.notifications } : transfer.notifications;
  return (
    <Section title={intl.formatMessage({ id: 'transfers.notifications.title', defaultMessage: 'Notifications' })}>
      <NotificationSwitches
        legend={intl.formatMessage({ id: 'transfers.notifications.legend', defaultMessage: 'Mail me about this transfer' })}
        value={shown}
        disabled={transfer.status !== 'active'}
        onChange={(notifications) => update.mutate({ notifications })}
      />
      <FormError error={update.error} className="mt-3" />
    </Section>
  );
}
