import { Link } from '@tanstack/react-router';
import type { Transfer } from '../../../../contract/transfers';
import { Button, buttonClass } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { useFinalizeDraft } from '../../send/api/send-transfer';
import { Section } from '../../../components/section';

/**
 * A draft that was not sent: when every file is up, one click sends it with the details it already
 * has (the New transfer page stores them when Send is pressed); otherwise the uploads must finish first.
 */
export function SendDraft({ transfer, onSent }: { transfer: Transfer; onSent: (sent: Transfer) => void }) {
  const finalize = useFinalizeDraft();
  const unfinished = transfer.files.filter((f) => f.state !== 'complete').length;
  // Only the browser that made an encrypted draft holds its key, which sending needs (it seals the names and the manifest).
  if (transfer.e2ee) {
    return (
      <Section
        title="Not sent yet"
        description="This transfer is end-to-end encrypted: only the browser where you started it holds its key. Open New transfer there to finish and send it."
      >
        <Link to="/transfers/new" className={buttonClass('secondary')}>
          Open New transfer
        </Link>
      </Section>
    );
  }
  if (transfer.files.length > 0 && unfinished === 0) {
    return (
      <Section title="Not sent yet" description="Every file is uploaded, but the transfer was not sent: its link does not work and nobody was emailed.">
        <Button onClick={() => finalize.mutate(transfer.id, { onSuccess: onSent })} disabled={finalize.isPending}>
          {finalize.isPending ? 'Sending…' : 'Send now'}
        </Button>
        <FormError error={finalize.error} className="mt-3" />
      </Section>
    );
  }
  return (
    <Section
      title="Not sent yet"
      description={
        transfer.files.length === 0
          ? 'This draft has no files.'
          : `${unfinished} of ${transfer.files.length} ${transfer.files.length === 1 ? 'file has' : 'files have'} not finished uploading. In the browser where you started it, open New transfer and add the same files again: they continue where they stopped, and the transfer is sent when they are up.`
      }
    >
      <Link to="/transfers/new" className={buttonClass('secondary')}>
        Continue uploading
      </Link>
    </Section>
  );
}
