import { Link } from '@tanstack/react-router';
import type { Transfer, TransferFile } from '../../../../contract/transfers';
import { Button, buttonClass } from '../../../components/button';
import { FormError } from '../../../components/form-error';
import { useIntl } from '../../../lib/intl';
import { Section } from '../../../components/section';
import { useFinalizeDraft } from '../api/finalize-transfer';
import { useRemoveDraftFile } from '../api/remove-draft-file';

/**
 * Files of the draft the virus scan found infected (their bytes already deleted): the draft cannot
 * be sent while they are in it, so each can be removed here.
 */
function InfectedFiles({ transferId, files, onRemoved }: { transferId: string; files: TransferFile[]; onRemoved: () => void }) {
  const intl = useIntl();
  const remove = useRemoveDraftFile(transferId);
  return (
    <div className="mb-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950/60 dark:text-red-100">
      <p>
        {intl.formatMessage(
          {
            id: 'transfers.sendDraft.infectedIntro',
            defaultMessage:
              '{count, plural, one {The virus scan found malware in this file, and its contents were deleted. Remove it to send the rest:} other {The virus scan found malware in these files, and their contents were deleted. Remove them to send the rest:}}',
          },
          { count: files.length },
        )}
      </p>
      <ul className="mt-2 space-y-2">
        {files.map((file) => (
          <li key={file.id} className="flex flex-wrap items-center justify-between gap-2">
            <span className="min-w-0 font-medium break-all">
              {file.name}
              {file.scanSignature ? <span className="block text-xs font-normal break-words">{file.scanSignature}</span> : null}
            </span>
            <Button
              variant="secondary"
              aria-label={intl.formatMessage({ id: 'transfers.sendDraft.removeFile', defaultMessage: 'Remove {name}' }, { name: file.name })}
              disabled={remove.isPending}
              onClick={() => remove.mutate(file.id, { onSuccess: onRemoved })}
            >
              {remove.isPending && remove.variables === file.id
                ? intl.formatMessage({ id: 'transfers.sendDraft.removing', defaultMessage: 'Removing…' })
                : intl.formatMessage({ id: 'transfers.sendDraft.remove', defaultMessage: 'Remove' })}
            </Button>
          </li>
        ))}
      </ul>
      <FormError error={remove.error} className="mt-2" />
    </div>
  );
}

/**
 * A draft that was not sent: when every file is up, one click sends it with the details it already
 * has (the New transfer page stores them when Send is pressed); otherwise the uploads must finish
 * first. Files the virus scan found infected are listed for removal (sending is refused while they are there).
 */
export function SendDraft({ transfer, onSent }: { transfer: Transfer; onSent: (sent: Transfer) => void }) {
  const intl = useIntl();
  const finalize = useFinalizeDraft();
  const unfinished = transfer.files.filter((f) => f.state !== 'complete').length;
  const infected = transfer.files.filter((f) => f.scanResult === 'infected');
  const notSent = intl.formatMessage({ id: 'transfers.sendDraft.title', defaultMessage: 'Not sent yet' });
  const infectedList = infected.length > 0 ? <InfectedFiles transferId={transfer.id} files={infected} onRemoved={() => finalize.reset()} /> : null;
  // Only the browser that made an encrypted draft holds its key, which sending needs (it seals the names and the manifest).
  if (transfer.e2ee) {
    return (
      <Section
        title={notSent}
        description={intl.formatMessage({
          id: 'transfers.sendDraft.encrypted',
          defaultMessage: 'This transfer is end-to-end encrypted: only the browser where you started it holds its key. Open New transfer there to finish and send it.',
        })}
      >
        <Link to="/transfers/new" className={buttonClass('secondary')}>
          {intl.formatMessage({ id: 'transfers.sendDraft.openNew', defaultMessage: 'Open New transfer' })}
        </Link>
      </Section>
    );
  }
  if (transfer.files.length > 0 && unfinished === 0) {
    return (
      <Section
        title={notSent}
        description={
          infected.length > 0
            ? intl.formatMessage(
                {
                  id: 'transfers.sendDraft.infected',
                  defaultMessage:
                    '{count, plural, one {# file contains malware: the transfer cannot be sent until it is removed.} other {# files contain malware: the transfer cannot be sent until they are removed.}} Its link does not work and nobody was emailed.',
                },
                { count: infected.length },
              )
            : intl.formatMessage({
                id: 'transfers.sendDraft.uploaded',
                defaultMessage: 'Every file is uploaded, but the transfer was not sent: its link does not work and nobody was emailed.',
              })
        }
      >
        {infectedList}
        {/* Through the promise, not mutate's own onSuccess: the refetch that shows the transfer as sent
            unmounts this section first, and TanStack Query drops a callback of an unmounted observer.
            A refusal is shown from `finalize.error` below. */}
        <Button onClick={() => void finalize.mutateAsync(transfer.id).then(onSent, () => undefined)} disabled={finalize.isPending}>
          {finalize.isPending
            ? intl.formatMessage({ id: 'transfers.sendDraft.sending', defaultMessage: 'Sending…' })
            : intl.formatMessage({ id: 'transfers.sendDraft.sendNow', defaultMessage: 'Send now' })}
        </Button>
        <FormError error={finalize.error} className="mt-3" />
      </Section>
    );
  }
  return (
    <Section
      title={notSent}
      description={
        transfer.files.length === 0
          ? intl.formatMessage({ id: 'transfers.sendDraft.noFiles', defaultMessage: 'This draft has no files.' })
          : intl.formatMessage(
              {
                id: 'transfers.sendDraft.unfinished',
                defaultMessage:
                  '{unfinished, number} of {total, plural, one {# file has} other {# files have}} not finished uploading. In the browser where you started it, open New transfer and add the same files again: they continue where they stopped, and the transfer is sent when they are up.',
              },
              { unfinished, total: transfer.files.length },
            )
      }
    >
      {infectedList}
      <Link to="/transfers/new" className={buttonClass('secondary')}>
        {intl.formatMessage({ id: 'transfers.sendDraft.continue', defaultMessage: 'Continue uploading' })}
      </Link>
    </Section>
  );
}
