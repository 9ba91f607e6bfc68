import { useSuspenseQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Passkey } from '../../../../contract/security';
import { Badge } from '../../../components/badge';
import { Button } from '../../../components/button';
import { Card } from '../../../components/card';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { FormError } from '../../../components/form-error';
import { ModalDialog } from '../../../components/modal-dialog';
import { TextField } from '../../../components/text-field';
import { formatDate, formatRelativeTime } from '../../../lib/format';
import { useValidatedForm } from '../../../lib/use-validated-form';
import { passkeysSupported } from '../../auth';
import { passkeysQueryOptions, useAddPasskey, useRemovePasskey } from '../api/security-api';

/** Settings → Security: passkeys, each named, with when it was last used; sign in with one alone. */
export function PasskeysCard() {
  const { data: passkeys } = useSuspenseQuery(passkeysQueryOptions());
  const [adding, setAdding] = useState(false);
  const [removing, setRemoving] = useState<Passkey | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const remove = useRemovePasskey();
  const headingId = useId();
  const supported = passkeysSupported();
  return (
    <Card aria-labelledby={headingId}>
      <h2 id={headingId} className="text-lg font-semibold">
        Passkeys
      </h2>
      <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
        Sign in with your fingerprint, face or device PIN instead of a password and a code. A passkey stays on your device or in your password manager; this server keeps only its public key.
      </p>
      <p role="status" className="sr-only">
        {announcement}
      </p>
      {passkeys.length === 0 ? (
        <p className="mt-4 text-sm text-zinc-600 dark:text-zinc-400">No passkeys yet.</p>
      ) : (
        <ul className="mt-4 divide-y divide-zinc-200 dark:divide-zinc-800">
          {passkeys.map((p) => (
            <li key={p.id} className="flex flex-wrap items-start justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="flex flex-wrap items-center gap-2 font-medium break-words">
                  {p.name}
                  {p.backedUp ? <Badge>Synced</Badge> : null}
                </p>
                <p className="mt-0.5 text-sm text-zinc-600 dark:text-zinc-400">
                  Added {formatDate(p.createdAt)} · {p.lastUsedAt ? `last used ${formatRelativeTime(p.lastUsedAt)}` : 'not used yet'}
                </p>
              </div>
              <Button variant="secondary" onClick={() => setRemoving(p)} aria-label={`Remove the passkey ${p.name}`}>
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      <div className="mt-4">
        {supported ? (
          <Button onClick={() => setAdding(true)}>Add a passkey</Button>
        ) : (
          <p className="text-sm text-zinc-700 dark:text-zinc-300">This browser cannot make passkeys here (they need a secure address, https or localhost).</p>
        )}
      </div>
      {adding ? (
        <AddPasskeyDialog
          onClose={() => setAdding(false)}
          onAdded={(name) => {
            setAdding(false);
            setAnnouncement(`The passkey ${name} was added.`);
          }}
        />
      ) : null}
      {removing ? (
        <ConfirmDialog
          title={`Remove the passkey “${removing.name}”?`}
          confirmLabel="Remove"
          pendingLabel="Removing…"
          pending={remove.isPending}
          error={remove.error ? remove.error.message : null}
          onCancel={() => setRemoving(null)}
          onConfirm={() =>
            remove.mutate(removing.id, {
              onSuccess: () => {
                setAnnouncement(`The passkey ${removing.name} was removed.`);
                setRemoving(null);
              },
            })
          }
        >
          It stops working at once, and you are signed out everywhere else. Remove it from your device or password manager too.
        </ConfirmDialog>
      ) : null}
    </Card>
  );
}

const fields = ['name'] as const;

/** Name the passkey, then the browser's own dialog makes it. */
function AddPasskeyDialog({ onClose, onAdded }: { onClose: () => void; onAdded: (name: string) => void }) {
  const add = useAddPasskey();
  const form = useValidatedForm(fields, { name: '' }, (v) => ({ name: v.name.trim() === '' ? 'Name the passkey, such as “Laptop” or “Phone”' : undefined }));
  const onSubmit = form.handleSubmit(({ name }) => add.mutate(name.trim(), { onSuccess: () => onAdded(name.trim()), onError: form.showServerErrors }));
  return (
    <ModalDialog title="Add a passkey" description="Name it after the device or password manager that keeps it; your browser then asks you to confirm." onClose={onClose} busy={add.isPending}>
      <form noValidate onSubmit={onSubmit} className="space-y-3">
        <FormError error={add.error} />
        <TextField label="Name" autoComplete="off" autoFocus {...form.field('name')} />
        <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onClose} disabled={add.isPending}>
            Cancel
          </Button>
          <Button type="submit" disabled={add.isPending}>
            {add.isPending ? 'Waiting for your passkey…' : 'Continue'}
          </Button>
        </div>
      </form>
    </ModalDialog>
  );
}
