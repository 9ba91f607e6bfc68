import { useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormError } from '../../../components/form-error';
import { useRevokeTransfer } from '../api/revoke-transfer';
import { Section } from './section';

export function RevokeTransfer({ transferId, onRevoked }: { transferId: string; onRevoked: () => void }) {
  const revoke = useRevokeTransfer(transferId);
  const [confirming, setConfirming] = useState(false);

  return (
    <Section title="Revoke" description="Stops the link at once, for everyone. The files can no longer be downloaded.">
      <Button
        variant="danger"
        onClick={() => {
          revoke.reset();
          setConfirming(true);
        }}
      >
        Revoke transfer
      </Button>
      {confirming ? (
        <ConfirmDialog
          title="Revoke this transfer?"
          confirmLabel="Revoke transfer"
          pendingLabel="Revoking…"
          pending={revoke.isPending}
          error={revoke.error ? <FormError error={revoke.error} /> : null}
          onConfirm={() =>
            revoke.mutate(undefined, {
              onSuccess: () => {
                setConfirming(false);
                onRevoked();
              },
            })
          }
          onCancel={() => setConfirming(false)}
        >
          The link stops working and nobody can download the files any more. This cannot be undone.
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
