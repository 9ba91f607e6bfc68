import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../../components/button';
import { Section } from '../../../components/section';
import { TextField } from '../../../components/text-field';
import { useIntl } from '../../../lib/intl';
import { MAX_LABEL_LENGTH, useTransferLabel } from '../../../lib/transfer-labels';

/**
 * For an end-to-end encrypted transfer: a name of the sender's own, kept in this browser, that the
 * list and this page show instead of "End-to-end encrypted transfer". The service never sees it.
 */
export function TransferLabel({ transferId }: { transferId: string }) {
  const intl = useIntl();
  const [label, setLabel] = useTransferLabel(transferId);
  const [text, setText] = useState(label ?? '');
  const [saved, setSaved] = useState('');
  const statusId = useId();

  function save(event: FormEvent) {
    event.preventDefault();
    setLabel(text);
    setSaved(
      text.trim()
        ? intl.formatMessage({ id: 'transfers.label.saved', defaultMessage: 'Label saved in this browser.' })
        : intl.formatMessage({ id: 'transfers.label.removed', defaultMessage: 'Label removed.' }),
    );
  }

  return (
    <Section
      title={intl.formatMessage({ id: 'transfers.label.title', defaultMessage: 'Your label' })}
      description={intl.formatMessage({ id: 'transfers.label.lead', defaultMessage: 'The service cannot read this transfer’s title, so name it here for yourself.' })}
    >
      <form onSubmit={save} noValidate className="space-y-3">
        <TextField
          label={intl.formatMessage({ id: 'transfers.label.field', defaultMessage: 'Label' })}
          value={text}
          maxLength={MAX_LABEL_LENGTH}
          hint={intl.formatMessage({
            id: 'transfers.label.hint',
            defaultMessage: 'Kept only in this browser, never sent to the service: it names the transfer in your list and on this page.',
          })}
          onChange={(event) => {
            setText(event.target.value);
            setSaved('');
          }}
        />
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" variant="secondary" disabled={text.trim() === (label ?? '')} aria-describedby={statusId}>
            {intl.formatMessage({ id: 'transfers.label.save', defaultMessage: 'Save label' })}
          </Button>
          <p id={statusId} role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
            {saved}
          </p>
        </div>
      </form>
    </Section>
  );
}
