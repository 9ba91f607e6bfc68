import { useState } from 'react';
import { Button } from '../../../components/button';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormError } from '../../../components/form-error';
import { useDiscardTransfer } from '../api/discard-transfer';
import { Section } from './section';

/** For an unsent draft: delete it and its files, rather than wait for the 24-hour sweep. */
export function DiscardDraft({ transferId, onDiscarded }: { transferId: string; onDiscarded: () => void }) {
  const discard = useDiscardTransfer(transferId);
  const [confirming, setConfirming] = useState(false);

  return (
    <Section title="Discard" description="This draft was never sent. Unsent drafts are deleted after 24 hours; discard it now if you will not send it.">
      <Button
        variant="danger"
        onClick={() => {
          discard.reset();
          setConfirming(true);
        }}
      >
        Discard draft
      </Button>
      {confirming ? (
        <ConfirmDialog
          title="Discard this draft?"
          confirmLabel="Discard draft"
          pendingLabel="Discarding…"
          pending={discard.isPending}
          error={discard.error ? <FormError error={discard.error} /> : null}
          onConfirm={() => discard.mutate(undefined, { onSuccess: onDiscarded })}
          onCancel={() => setConfirming(false)}
        >
          The draft and the files uploaded to it are deleted. This cannot be undone.
        </ConfirmDialog>
      ) : null}
    </Section>
  );
}
