import { ConfirmedAction } from '../../../components/confirmed-action';
import { useIntl } from '../../../lib/intl';
import { useDiscardTransfer } from '../api/discard-transfer';
import { Section } from '../../../components/section';

/** For an unsent draft: delete it and its files, rather than wait for the 24-hour sweep. */
export function DiscardDraft({ transferId, onDiscarded }: { transferId: string; onDiscarded: () => void }) {
  const intl = useIntl();
  const discard = useDiscardTransfer(transferId);
  return (
    <Section
      title={intl.formatMessage({ id: 'transfers.discardDraft.title', defaultMessage: 'Discard' })}
      description={intl.formatMessage({
        id: 'transfers.discardDraft.lead',
        defaultMessage: 'This draft was never sent. Unsent drafts are deleted after 24 hours; discard it now if you will not send it.',
      })}
    >
      <ConfirmedAction
        label={intl.formatMessage({ id: 'transfers.discardDraft.button', defaultMessage: 'Discard draft' })}
        title={intl.formatMessage({ id: 'transfers.discardDraft.confirmTitle', defaultMessage: 'Discard this draft?' })}
        pendingLabel={intl.formatMessage({ id: 'transfers.discardDraft.pending', defaultMessage: 'Discarding…' })}
        action={discard}
        onDone={onDiscarded}
      >
        {intl.formatMessage({ id: 'transfers.discardDraft.body', defaultMessage: 'The draft and the files uploaded to it are deleted. This cannot be undone.' })}
      </ConfirmedAction>
    </Section>
  );
}
