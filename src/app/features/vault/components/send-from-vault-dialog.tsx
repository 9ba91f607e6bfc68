import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import type { MasterKey } from '../../../../crypto';
import { ciphertextSize } from '../../../../crypto';
import { FormError } from '../../../components/form-error';
import { DialogActions, ModalDialog } from '../../../components/modal-dialog';
import { TextAreaField, TextField } from '../../../components/text-field';
import { formatBytes } from '../../../lib/format';
import { useIntl } from '../../../lib/intl';
import { userDataRoot } from '../../../lib/query-keys';
import { SentNotice } from '../../transfers';
import type { OpenedVaultFile } from '../utils/open-contents';
import { sendFromVault, type SentFromVault } from '../utils/send-from-vault';
import { noteVaultActivity } from '../vault-lock';
import { DeliberateForm } from '../../../components/deliberate-form';

interface SendFromVaultDialogProps {
  workspaceId: string;
  master: MasterKey;
  files: OpenedVaultFile[];
  onClose: () => void;
}

/**
 * Sends vault files on as an end-to-end encrypted transfer, without downloading them first: re-encrypted here under
 * a new link key as they upload. The title and message are sealed with the files; the link, with its key, is shown
 * once at the end, as the New transfer page shows it.
 */
export function SendFromVaultDialog({ workspaceId, master, files, onClose }: SendFromVaultDialogProps) {
  const intl = useIntl();
  const queryClient = useQueryClient();
  const titleField = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState<SentFromVault | null>(null);
  const plainBytes = files.reduce((sum, f) => sum + (f.meta?.size ?? 0), 0);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const total = files.reduce((sum, f) => sum + ciphertextSize(f.meta?.size ?? 0), 0);
    let done = 0;
    setProgress({ done, total });
    setError(null);
    try {
      const note = title.trim() || message.trim() ? { ...(title.trim() ? { title: title.trim() } : {}), ...(message.trim() ? { message: message.trim() } : {}) } : null;
      const result = await sendFromVault({
        workspaceId,
        master,
        files,
        note,
        onBytes: (n) => {
          done += n;
          noteVaultActivity();
          setProgress({ done, total });
        },
      });
      void queryClient.invalidateQueries({ queryKey: [...userDataRoot, 'v1', 'transfers'] });
      setSent(result);
    } catch (cause) {
      setError(cause);
    } finally {
      setProgress(null);
    }
  }

  const busy = progress !== null;
  return (
    <ModalDialog
      title={
        sent
          ? intl.formatMessage({ id: 'vault.send.ready', defaultMessage: 'Your encrypted transfer is ready' })
          : intl.formatMessage(
              { id: 'vault.send.title', defaultMessage: '{count, plural, =1 {Send “{name}” end-to-end encrypted} other {Send # files end-to-end encrypted}}' },
              { count: files.length, name: files[0]?.listed.name ?? '' },
            )
      }
      description={
        sent
          ? undefined
          : intl.formatMessage(
              { id: 'vault.send.description', defaultMessage: '{size}, encrypted again in this browser under a new key that only the link carries.' },
              { size: formatBytes(plainBytes) },
            )
      }
      onClose={onClose}
      busy={busy}
      initialFocus={sent ? undefined : titleField}
      size="wide"
    >
      {sent ? (
        <SentNotice
          transfer={sent.transfer}
          encrypted={{ url: `${sent.transfer.url}#${sent.fragment}`, mailto: null, recipientCount: 0 }}
          onSendAnother={onClose}
        />
      ) : (
        <DeliberateForm className="space-y-4" onSubmit={(event) => void submit(event)} noValidate>
          <TextField
            ref={titleField}
            label={intl.formatMessage({ id: 'vault.send.titleLabel', defaultMessage: 'Title (optional)' })}
            value={title}
            maxLength={200}
            onChange={(e) => setTitle(e.target.value)}
            disabled={busy}
          />
          <TextAreaField
            label={intl.formatMessage({ id: 'vault.send.messageLabel', defaultMessage: 'Message (optional)' })}
            value={message}
            maxLength={5000}
            onChange={(e) => setMessage(e.target.value)}
            disabled={busy}
          />
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            {intl.formatMessage({
              id: 'vault.send.sealedToo',
              defaultMessage: 'The title, the message and the file names are encrypted too. The service never sees the key, so it emails nobody: you share the link.',
            })}
          </p>
          {progress ? (
            <div>
              <progress
                className="w-full accent-indigo-600"
                max={progress.total}
                value={progress.done}
                aria-label={intl.formatMessage({ id: 'vault.send.progressLabel', defaultMessage: 'Sending' })}
              />
              <p role="status" className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                {intl.formatMessage(
                  { id: 'vault.send.progress', defaultMessage: 'Encrypting and uploading… {progress, number, ::percent}' },
                  // Whole percents, rounded down: 100 % only once all is sent.
                  { progress: progress.total ? Math.floor((progress.done / progress.total) * 100) / 100 : 1 },
                )}
              </p>
            </div>
          ) : null}
          <FormError error={error} />
          <DialogActions
            onCancel={onClose}
            pending={busy}
            submitLabel={intl.formatMessage({ id: 'vault.send.submit', defaultMessage: 'Make the link' })}
            pendingLabel={intl.formatMessage({ id: 'vault.send.sending', defaultMessage: 'Sending…' })}
          />
        </DeliberateForm>
      )}
    </ModalDialog>
  );
}
