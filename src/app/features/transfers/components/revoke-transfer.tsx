import { ConfirmedAction } from '../../../components/confirmed-action';
import { useRevokeTransfer } from '../api/revoke-transfer';
import { Section } from '../../../components/section';

export function RevokeTransfer({ transferId, onRevoked }: { transferId: string; onRevoked: () => void }) {
  const revoke = useRevokeTransfer(transferId);
  return (
    <Section title="Revoke" description="Stops the link at once, for everyone. The files can no longer be downloaded.">
      <ConfirmedAction label="Revoke transfer" title="Revoke this transfer?" pendingLabel="Revoking…" action={revoke} onDone={onRevoked}>
        The link stops working and nobody can download the files any more. This cannot be undone.
      </ConfirmedAction>
    </Section>
  );
}
