import { ConfirmedAction } from '../../../components/confirmed-action';
import { useIntl } from '../../../lib/intl';
import { useRevokeTransfer } from '../api/revoke-transfer';
import { Section } from '../../../components/section';

export function RevokeTransfer({ transferId, onRevoked }: { transferId: string; onRevoked: () => void }) {
  const intl = useIntl();
  const revoke = useRevokeTransfer(transferId);
  return (
    <Section
      title={intl.formatMessage({ id: 'transfers.revoke.title', defaultMessage: 'Revoke' })}
      description={intl.formatMessage({ id: 'transfers.revoke.lead', defaultMessage: 'Stops the link at once, for everyone. The files can no longer be downloaded.' })}
    >
      <ConfirmedAction
        label={intl.formatMessage({ id: 'transfers.revoke.button', defaultMessage: 'Revoke transfer' })}
        title={intl.formatMessage({ id: 'transfers.revoke.confirmTitle', defaultMessage: 'Revoke this transfer?' })}
        pendingLabel={intl.formatMessage({ id: 'transfers.revoke.pending', defaultMessage: 'Revoking…' })}
        action={revoke}
        onDone={onRevoked}
      >
        {intl.formatMessage({ id: 'transfers.revoke.body', defaultMessage: 'The link stops working and nobody can download the files any more. This cannot be undone.' })}
      </ConfirmedAction>
    </Section>
  );
}
