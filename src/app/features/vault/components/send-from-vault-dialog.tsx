import { useQueryClient } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import type { MasterKey } from '../../../../crypto';
import { ciphertextSize } from '../../../../crypto';
import { FormError } from '../../../components/form-error';
import { DialogActions, ModalDialog } from '../../../components/modal-dialog';
import { TextAreaField, TextField } from '../../../components/text-field';
import { formatBytes, plural } from '../../../lib/format';
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
  const queryClient = useQueryClient();
  const titleField = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState('');
  const [message, setMessage] = useState('');
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [sent, setSent] = useState<SentFromVault | null>(null);
  const what = files.length === 1 ? `“${files[0]!.listed.name}”` : plural(files.length, 'file', 'files');
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
      title={sent ? 'Your encrypted transfer is ready' : `Send ${what} end-to-end encrypted`}
      description={sent ? undefined : `${formatBytes(plainBytes)}, encrypted again in this browser under a new key that only the link carries.`}
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
          <TextField ref={titleField} label="Title (optional)" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} disabled={busy} />
          <TextAreaField label="Message (optional)" value={message} maxLength={5000} onChange={(e) => setMessage(e.target.value)} disabled={busy} />
          <p className="text-sm text-zinc-600 dark:text-zinc-400">
            The title, the message and the file names are encrypted too. The service never sees the key, so it emails nobody: you share the link.
          </p>
          {progress ? (
            <div>
              <progress className="w-full accent-indigo-600" max={progress.total} value={progress.done} aria-label="Sending" />
              <p role="status" className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
                Encrypting and uploading… {progress.total ? Math.floor((progress.done / progress.total) * 100) : 100}%
              </p>
            </div>
          ) : null}
          <FormError error={error} />
          <DialogActions onCancel={onClose} pending={busy} submitLabel="Make the link" pendingLabel="Sending…" />
        </DeliberateForm>
      )}
    </ModalDialog>
  );
}
