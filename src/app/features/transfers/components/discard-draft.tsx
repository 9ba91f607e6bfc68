import { ConfirmedAction } from '../../../components/confirmed-action';
import { useDiscardTransfer } from '../api/discard-transfer';
import { Section } from '../../../components/section';

/** For an unsent draft: delete it and its files, rather than wait for the 24-hour sweep. */
export function DiscardDraft({ transferId, onDiscarded }: { transferId: string; onDiscarded: () => void }) {
  const discard = useDiscardTransfer(transferId);
  return (
    <Section title="Discard" description="This draft was never sent. Unsent drafts are deleted after 24 hours; discard it now if you will not send it.">
      <ConfirmedAction label="Discard draft" title="Discard this draft?" pendingLabel="Discarding…" action={discard} onDone={onDiscarded}>
        The draft and the files uploaded to it are deleted. This cannot be undone.
      </ConfirmedAction>
    </Section>
  );
}
